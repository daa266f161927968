-- launch_bound: kernels that run for less time than the API call that launched them. When at least
-- min= launches of a process, and threshold= % of all its launches, are such, the host's launch
-- rate bounds the GPU; the kernels with the most launch time in excess of their run time are
-- listed. Graph launches (one call, many kernels) are left out: they already amortize launches.
WITH
  launches AS (
    SELECT k.end - k.start AS kdur, r.end - r.start AS adur,
           (k.globalPid >> 24) & 0x00FFFFFF AS pid, k.demangledName AS nameId
    FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
    JOIN {{>launch_calls}} AS r
      ON r.correlationId = k.correlationId
     AND (k.globalPid IS NULL OR r.globalPid = k.globalPid)
    JOIN StringIds AS a ON a.id = r.nameId
    WHERE a.value NOT LIKE '%GraphLaunch%'
  ),
  flagged AS (
    SELECT pid FROM launches GROUP BY pid
    HAVING sum(kdur < adur) >= {{min}} AND sum(kdur < adur) * 100.0 >= {{threshold}} * count(*)
  )
SELECT
  sum(l.kdur < l.adur) AS "Short",
  count(*) AS "Launches",
  round(avg(l.kdur), 1) AS "Avg Kernel:dur_ns",
  round(avg(l.adur), 1) AS "Avg Launch:dur_ns",
  sum(CASE WHEN l.kdur < l.adur THEN l.adur - l.kdur ELSE 0 END) AS "Launch Excess:dur_ns",
  l.pid AS "PID",
  n.value AS "Kernel Name"
FROM launches AS l
JOIN flagged AS f ON f.pid = l.pid
LEFT JOIN StringIds AS n ON n.id = l.nameId
GROUP BY l.pid, l.nameId
HAVING sum(l.kdur < l.adur) > 0
ORDER BY 5 DESC, 1 DESC, 7
LIMIT {{rows}}
