-- nvtx_gpu_proj_trace: one row per NVTX range that launched GPU work, with its projection onto
-- the GPU (see _nvtx_gpu_proj.sql). Order: RangeId (the NVTX_EVENTS row order), as nsys 2025.3.1
-- prints it: on a gsys report, where a push/pop range is written when it ends, inner ranges come
-- before the ranges enclosing them (tests/parity, nvtx_shapes).
{{>nvtx_tree_setup}}
{{>nvtx_gpu_proj_setup}}
WITH RECURSIVE
{{>nvtx_ranges}},
{{>nvtx_gpu_proj}},
  stacks(rid, stack) AS (
    SELECT rid, ':' || rid FROM gsys_stats_nvtx_tree WHERE parentId IS NULL
    UNION ALL
    SELECT t.rid, s.stack || ':' || t.rid FROM stacks AS s JOIN gsys_stats_nvtx_tree AS t ON t.parentId = s.rid
  )
SELECT
  p.name AS "Name",
  p.projStart AS "Projected Start:ts_ns",
  p.projEnd - p.projStart AS "Projected Duration:dur_ns",
  p.origStart AS "Orig Start:ts_ns",
  p.origEnd - p.origStart AS "Orig Duration:dur_ns",
  p.style AS "Style",
  (p.tid >> 24) & 0xFFFFFF AS "PID",
  p.tid & 0xFFFFFF AS "TID",
  p.numOps AS "NumGPUOps",
  p.level AS "Lvl",
  p.numChild AS "NumChild",
  p.rid AS "RangeId",
  p.parentId AS "ParentId",
  coalesce(s.stack, ':' || p.rid) AS "RangeStack"
FROM projections AS p
LEFT JOIN stacks AS s ON s.rid = p.rid
ORDER BY p.rid
