-- _gpu_gaps_rows: gpu_gaps' output, ranked and limited, from CTE `gaps` (duration, gapStart, pid,
-- deviceId, contextId). Shared by the SQL rule and its C++ stage's last step, so that both rank
-- the same rows the same way, ties included.
SELECT
  ROW_NUMBER() OVER (ORDER BY duration DESC, gapStart) AS "Row#",
  duration AS "Duration:dur_ns",
  gapStart AS "Start:ts_ns",
  pid AS "PID",
  deviceId AS "Device ID",
  contextId AS "Context ID"
FROM gaps
ORDER BY 1
LIMIT {{rows}}
