-- nvtx_kern_sum[:base|:mangled]: kernels grouped by every NVTX range enclosing their launch API
-- call on the launching thread (each push/pop or start/end range that begins and ends on that
-- thread and contains the call): a kernel inside `forward` inside `train_step` is listed under
-- both, as nsys 2025.3.1 lists it (tests/parity, nvtx_shapes). Kernels outside every range have
-- an empty range and style and NVTX Inst 0. NVTX Inst = distinct range instances that launched
-- the kernel. Order: NVTX Range, PID, TID, Total Time DESC, Kernel Name.
-- The (call, range) pairs can number launches x nesting depth (25 M for 5 000 launches under
-- 5 000 nested ranges): each range reads the calls inside it from an index on (thread, call
-- start), the pairs are written once to a temporary table, and the aggregation scans it in
-- order, looking up the few launches by index (bench/nvtx/deep_nesting.sh;
-- tests/cli/test_nvtx_projection.py checks the attribution against containment).
{{>nvtx_tree_setup}}
DROP TABLE IF EXISTS temp.gsys_kern_launches;
CREATE TEMP TABLE gsys_kern_launches AS
SELECT k.start AS start, k.end AS end, {{kernel_name}} AS nameKey, r.globalTid AS tid,
       r.start AS apiStart, r.end AS apiEnd, r.correlationId AS corr
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
JOIN {{>launch_calls}} AS r
  ON r.correlationId = k.correlationId AND r.globalPid = k.globalPid;
CREATE INDEX temp.gsys_kern_launches_call ON gsys_kern_launches(tid, corr, apiStart);
DROP TABLE IF EXISTS temp.gsys_kern_calls;
CREATE TEMP TABLE gsys_kern_calls AS
SELECT row_number() OVER () AS callKey, tid, corr, apiStart, apiEnd
FROM (SELECT DISTINCT tid, corr, apiStart, apiEnd FROM gsys_kern_launches);
CREATE UNIQUE INDEX temp.gsys_kern_calls_key ON gsys_kern_calls(callKey);
CREATE INDEX temp.gsys_kern_calls_time ON gsys_kern_calls(tid, apiStart, apiEnd, callKey);
DROP TABLE IF EXISTS temp.gsys_kern_pairs;
CREATE TEMP TABLE gsys_kern_pairs AS
WITH
{{>nvtx_ranges}},
  startend_ranges AS (
    SELECT nr.* FROM nvtx_ranges AS nr
    WHERE nr.eventType IN (60, 71) AND nr.rawEnd IS NOT NULL AND nr.endTid IS NULL
  )
SELECT c.callKey, t.rid, t.name, t.style
FROM gsys_stats_nvtx_tree AS t
JOIN gsys_kern_calls AS c
  ON c.tid = t.tid AND c.apiStart >= t.start AND c.apiStart <= t.end AND c.apiEnd <= t.end
UNION ALL
SELECT c.callKey, sr.rid, sr.name, sr.style
FROM startend_ranges AS sr
JOIN gsys_kern_calls AS c
  ON c.tid = sr.tid AND c.apiStart >= sr.start AND c.apiStart <= sr.end AND c.apiEnd <= sr.end;
WITH
  attributed AS (
    SELECT l.start, l.end, l.nameKey, l.tid, e.rid AS rid, e.name AS rangeName, e.style AS style
    FROM gsys_kern_pairs AS e
    CROSS JOIN gsys_kern_calls AS c ON c.callKey = e.callKey
    CROSS JOIN gsys_kern_launches AS l
      ON l.tid = c.tid AND l.corr = c.corr AND l.apiStart = c.apiStart
    UNION ALL
    SELECT l.start, l.end, l.nameKey, l.tid, NULL, NULL, NULL
    FROM gsys_kern_calls AS c
    CROSS JOIN gsys_kern_launches AS l
      ON l.tid = c.tid AND l.corr = c.corr AND l.apiStart = c.apiStart
    WHERE c.callKey NOT IN (SELECT callKey FROM gsys_kern_pairs)
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
