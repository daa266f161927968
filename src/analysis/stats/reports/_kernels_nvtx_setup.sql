-- Partial, setup statements for :nvtx-name (include before the report's WITH, in the nvtx_name
-- section; the _kernels partial reads the two tables):
--   gsys_stats_launch_nvtx(pid, corr, text): for each kernel launch call (same correlationId,
--     same process), the text of the innermost enclosing NVTX range, found through the NVTX tree
--     (_nvtx_enclosing.sql: O(log n) per call, where a containment join over every range was
--     O(calls x ranges): 7.7 s on a 4 000-kernel, 19 000-range report);
--   gsys_stats_kernel_nvtx_names(id, name): every distinct "<range>/<kernel name>", keyed by an
--     integer so the reports' name joins are index lookups.
-- The range: latest start, then earliest end, among push/pop and start/end ranges that begin and
-- end on the launching thread (ended, endGlobalTid NULL) and contain the launch API call.
{{>nvtx_tree_setup}}
DROP TABLE IF EXISTS temp.gsys_stats_launch_nvtx;
CREATE TEMP TABLE gsys_stats_launch_nvtx AS
WITH
{{>nvtx_ranges}},
  kernel_calls AS MATERIALIZED (
    SELECT row_number() OVER () AS callKey, tid, pid, corr, apiStart, apiEnd FROM (
      SELECT DISTINCT r.globalTid AS tid, r.globalTid & ~0xFFFFFF AS pid,
             r.correlationId AS corr, r.start AS apiStart, r.end AS apiEnd
      FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
      JOIN {{>launch_calls}} AS r
        ON r.correlationId = k.correlationId AND r.globalPid = k.globalPid)
  ),
  calls AS (SELECT callKey, tid, apiStart, apiEnd FROM kernel_calls),
{{>nvtx_enclosing}}
SELECT pid, corr, text FROM (
  SELECT kc.pid AS pid, kc.corr AS corr, e.text AS text,
         row_number() OVER (PARTITION BY kc.pid, kc.corr ORDER BY e.start DESC, e.end) AS innermost
  FROM enclosing AS e JOIN kernel_calls AS kc ON kc.callKey = e.callKey
  WHERE e.rawEnd IS NOT NULL AND e.endTid IS NULL)
WHERE innermost = 1;
CREATE UNIQUE INDEX temp.gsys_stats_launch_nvtx_key ON gsys_stats_launch_nvtx(corr, pid);
DROP TABLE IF EXISTS temp.gsys_stats_kernel_nvtx_names;
CREATE TEMP TABLE gsys_stats_kernel_nvtx_names(id INTEGER PRIMARY KEY, name TEXT UNIQUE);
INSERT INTO gsys_stats_kernel_nvtx_names(name)
SELECT DISTINCT coalesce(l.text || '/', '') || kn.value
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
LEFT JOIN gsys_stats_launch_nvtx AS l ON l.corr = k.correlationId AND l.pid = k.globalPid
LEFT JOIN StringIds AS kn ON kn.id = {{kernel_name}};
