-- nvtx_kern_sum[:base|:mangled]: kernels grouped by every NVTX range enclosing their launch API
-- call on the launching thread (each push/pop or start/end range that begins and ends on that
-- thread, see _nvtx_enclosing.sql): a kernel inside `forward` inside `train_step` is listed under
-- both, as nsys 2025.3.1 lists it (tests/parity, nvtx_shapes). Kernels outside every range have
-- an empty range and style and NVTX Inst 0. NVTX Inst = distinct range instances that launched
-- the kernel. Order: NVTX Range, PID, TID, Total Time DESC, Kernel Name.
{{>nvtx_tree_setup}}
WITH RECURSIVE
{{>nvtx_ranges}},
  launches AS MATERIALIZED (
    SELECT k.start, k.end, {{kernel_name}} AS nameKey, r.globalTid AS tid,
           r.start AS apiStart, r.end AS apiEnd, r.correlationId AS corr
    FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
    JOIN {{>launch_calls}} AS r
      ON r.correlationId = k.correlationId AND r.globalPid = k.globalPid
  ),
  calls AS MATERIALIZED (
    SELECT row_number() OVER () AS callKey, tid, corr, apiStart, apiEnd
    FROM (SELECT DISTINCT tid, corr, apiStart, apiEnd FROM launches)
  ),
{{>nvtx_enclosing}},
  attributed AS (
    SELECT l.*, e.rid AS rid, e.start AS rangeStart, e.name AS rangeName, e.style AS style
    FROM launches AS l
    JOIN calls AS c ON c.tid = l.tid AND c.corr = l.corr AND c.apiStart = l.apiStart
    LEFT JOIN enclosing AS e ON e.callKey = c.callKey
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
