-- gpu_gaps (nsys rule): per process and device, the idle intervals longer than gap= ms between
-- the first and the last GPU operation. Starts and ends are numbered separately in time order; the
-- j-th end and the (j+1)-th start bound a gap when end < start (every operation started before
-- then has ended). Unlike nsys 2024 (which applies LIMIT before ranking), the row limit keeps the
-- longest gaps.
WITH
  {{>gpu_ops}},
  starts AS (
    SELECT ROW_NUMBER() OVER (ORDER BY pid, deviceId, start) AS rowNum, start, pid, deviceId
    FROM ops
  ),
  ends AS (
    SELECT ROW_NUMBER() OVER (ORDER BY pid, deviceId, end) AS rowNum, end, pid, deviceId,
           contextId
    FROM ops
  ),
  gaps AS (
    SELECT s.start - e.end AS duration, e.end AS gapStart, e.pid, e.deviceId, e.contextId
    FROM starts AS s
    JOIN ends AS e ON s.rowNum - 1 = e.rowNum AND s.deviceId = e.deviceId AND s.pid = e.pid
    WHERE s.start - e.end > {{gap}} * 1000000 AND e.end < s.start
  )
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
