-- gpu_starvation: kernels that start almost as soon as their launch call returns (queue wait
-- kernel.start - api.end <= queue= us) although the device sat idle before them for at least gap=
-- us: the GPU was waiting for the host. Reported per kernel name on every process/device where
-- such idle time adds up to threshold= % of the device's busy span (first op start, last op end).
WITH
  ops AS (
    SELECT start, end, globalPid, (globalPid >> 24) & 0x00FFFFFF AS pid, deviceId,
           correlationId, demangledName AS nameId
    FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0
    UNION ALL
    SELECT start, end, globalPid, (globalPid >> 24) & 0x00FFFFFF, deviceId, NULL, NULL
    FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE start > 0
    UNION ALL
    SELECT start, end, globalPid, (globalPid >> 24) & 0x00FFFFFF, deviceId, NULL, NULL
    FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE start > 0
  ),
  ordered AS (
    SELECT *, max(end) OVER (PARTITION BY pid, deviceId ORDER BY start, end
                             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prevEnd
    FROM ops
  ),
  kernels AS (
    SELECT o.pid, o.deviceId, o.nameId, o.start - o.prevEnd AS idle, o.start - r.end AS queue
    FROM ordered AS o
    JOIN {{>launch_calls}} AS r
      ON r.correlationId = o.correlationId
     AND (o.globalPid IS NULL OR r.globalPid = o.globalPid)
    WHERE o.nameId IS NOT NULL
  ),
  launches AS (SELECT pid, deviceId, nameId, count(*) AS n FROM kernels GROUP BY 1, 2, 3),
  starved AS (
    SELECT * FROM kernels
    WHERE idle >= {{gap}} * 1000 AND queue <= {{queue}} * 1000
  ),
  spans AS (SELECT pid, deviceId, max(end) - min(start) AS span FROM ops GROUP BY pid, deviceId),
  flagged AS (
    SELECT s.pid, s.deviceId, sp.span
    FROM starved AS s JOIN spans AS sp ON sp.pid = s.pid AND sp.deviceId = s.deviceId
    GROUP BY s.pid, s.deviceId
    HAVING sum(s.idle) * 100.0 >= {{threshold}} * sp.span AND sp.span > 0
  )
SELECT
  count(*) AS "Starved",
  l.n AS "Launches",
  sum(s.idle) AS "Idle Before:dur_ns",
  round(sum(s.idle) * 100.0 / f.span, 1) AS "Of Span:ratio_%",
  round(avg(s.idle), 1) AS "Avg Idle:dur_ns",
  round(avg(s.queue), 1) AS "Avg Queue:dur_ns",
  s.pid AS "PID",
  s.deviceId AS "Device ID",
  n.value AS "Kernel Name"
FROM starved AS s
JOIN flagged AS f ON f.pid = s.pid AND f.deviceId = s.deviceId
JOIN launches AS l ON l.pid = s.pid AND l.deviceId = s.deviceId AND l.nameId = s.nameId
LEFT JOIN StringIds AS n ON n.id = s.nameId
GROUP BY s.pid, s.deviceId, s.nameId
ORDER BY 3 DESC, 1 DESC, 9
LIMIT {{rows}}
