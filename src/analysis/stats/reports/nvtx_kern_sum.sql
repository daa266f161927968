-- nvtx_kern_sum[:base|:mangled]: kernels grouped by the innermost NVTX range enclosing their
-- launch API call on the launching thread (latest-starting push/pop or start/end range that
-- begins and ends on that thread). Kernels outside every range have an empty range and style
-- and NVTX Inst 0. NVTX Inst = distinct range instances that launched the kernel.
-- Order: NVTX Range, PID, TID, Total Time DESC, Kernel Name.
WITH
{{>nvtx_ranges}},
  kernels AS (SELECT *, {{kernel_name}} AS nameKey FROM CUPTI_ACTIVITY_KIND_KERNEL),
  thread_ranges AS (
    SELECT nr.* FROM nvtx_ranges AS nr JOIN NVTX_EVENTS AS ne ON ne.rowid = nr.rid
    WHERE ne.end IS NOT NULL AND ne.endGlobalTid IS NULL
  ),
  launches AS MATERIALIZED (
    SELECT k.start, k.end, k.nameKey, r.globalTid AS tid, r.start AS apiStart, r.end AS apiEnd,
           r.correlationId AS corr
    FROM kernels AS k
    JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r
      ON r.correlationId = k.correlationId AND (r.globalTid & ~0xFFFFFF) = k.globalPid
  ),
  enclosing AS (
    SELECT l.tid, l.corr, tr.rid, tr.name, tr.style,
           row_number() OVER (PARTITION BY l.tid, l.corr ORDER BY tr.start DESC, tr.end) AS innermost
    FROM (SELECT DISTINCT tid, corr, apiStart, apiEnd FROM launches) AS l
    JOIN thread_ranges AS tr ON tr.tid = l.tid AND tr.start <= l.apiStart AND tr.end >= l.apiEnd
  ),
  attributed AS (
    SELECT l.*, e.rid, e.name AS rangeName, e.style
    FROM launches AS l
    LEFT JOIN enclosing AS e ON e.tid = l.tid AND e.corr = l.corr AND e.innermost = 1
  )
SELECT
  a.rangeName AS "NVTX Range",
  a.style AS "Style",
  (a.tid >> 24) & 0xFFFFFF AS "PID",
  a.tid & 0xFFFFFF AS "TID",
  count(DISTINCT a.rid) AS "NVTX Inst",
  count(*) AS "Kern Inst",
  sum(a.end - a.start) AS "Total Time:dur_ns",
  round(avg(a.end - a.start), 1) AS "Avg:dur_ns",
  round(median(a.end - a.start), 1) AS "Med:dur_ns",
  min(a.end - a.start) AS "Min:dur_ns",
  max(a.end - a.start) AS "Max:dur_ns",
  round(stdev(a.end - a.start), 1) AS "StdDev:dur_ns",
  kn.value AS "Kernel Name"
FROM attributed AS a
LEFT JOIN StringIds AS kn ON kn.id = a.nameKey
GROUP BY a.rangeName, a.style, a.tid, a.nameKey
ORDER BY 1, 3, 4, 7 DESC, 13
