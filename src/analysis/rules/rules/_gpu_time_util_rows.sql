-- _gpu_time_util_rows: gpu_time_util's output from CTE `utilization` (rangeId, start, end, size,
-- pct, pid, deviceId, contextId: the chunks below the threshold): consecutive chunks merged,
-- ranked, limited. Shared by the SQL rule and its C++ stage's last step. A WITH list's tail.
  grouped AS (
    SELECT *, rangeId - ROW_NUMBER() OVER (PARTITION BY pid, deviceId ORDER BY rangeId) AS groupId
    FROM utilization
  ),
  merged AS (
    SELECT min(start) AS start, max(end) - min(start) AS duration,
           round(sum(size * pct) / sum(size), 1) AS average, pid, deviceId,
           min(contextId) AS contextId
    FROM grouped GROUP BY groupId, deviceId, pid
  )
SELECT
  ROW_NUMBER() OVER (ORDER BY average, duration, start, pid, deviceId) AS "Row#",
  average AS "In-Use:ratio_%",
  duration AS "Duration:dur_ns",
  start AS "Start:ts_ns",
  pid AS "PID",
  deviceId AS "Device ID",
  contextId AS "Context ID"
FROM merged
ORDER BY 1
LIMIT {{rows}}
