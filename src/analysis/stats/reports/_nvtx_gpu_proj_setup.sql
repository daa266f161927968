-- Partial, setup statements (include after nvtx_tree_setup, before the report's WITH): TEMP TABLE
-- gsys_stats_proj_calls(tid, apiStart, apiEnd, numOps, opStart, opEnd): each CUDA API call that
-- launched GPU work (kernel, memcpy, memset; same correlationId and process), with the first
-- start and last end of that work. numOps is 1 per launch call, as nsys 2025.3.1 counts it: a
-- CUDA graph launched in node mode is one GPU op however many kernels it runs (tests/parity,
-- cuda_graph_node). The covering index on (tid, apiStart) lets a range read the calls inside it
-- as one ordered index scan (_nvtx_gpu_proj.sql).
DROP TABLE IF EXISTS temp.gsys_stats_proj_calls;
CREATE TEMP TABLE gsys_stats_proj_calls AS
WITH
  gpu_ops AS (
    SELECT globalPid, correlationId, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL
{{#has:CUPTI_ACTIVITY_KIND_MEMCPY}}
    UNION ALL SELECT globalPid, correlationId, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY
{{/has:CUPTI_ACTIVITY_KIND_MEMCPY}}
{{#has:CUPTI_ACTIVITY_KIND_MEMSET}}
    UNION ALL SELECT globalPid, correlationId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET
{{/has:CUPTI_ACTIVITY_KIND_MEMSET}}
  )
SELECT r.globalTid AS tid, r.start AS apiStart, r.end AS apiEnd, 1 AS numOps,
       min(o.start) AS opStart, max(o.end) AS opEnd
FROM gpu_ops AS o
JOIN {{>launch_calls}} AS r
  ON r.correlationId = o.correlationId AND r.globalPid = o.globalPid
GROUP BY r.globalTid & ~0xFFFFFF, r.correlationId, r.globalTid, r.start, r.end;
CREATE INDEX temp.gsys_stats_proj_calls_time
  ON gsys_stats_proj_calls(tid, apiStart, apiEnd, opStart, opEnd, numOps);
