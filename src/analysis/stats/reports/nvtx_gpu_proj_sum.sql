-- nvtx_gpu_proj_sum: NVTX ranges projected onto the GPU (see _nvtx_gpu_proj.sql), grouped by
-- name and style. Child time is not subtracted. Order: Total Proj Time DESC, Range, Style.
{{>nvtx_tree_setup}}
{{>nvtx_gpu_proj_setup}}
WITH RECURSIVE
{{>nvtx_ranges}},
{{>nvtx_gpu_proj}}
SELECT
  name AS "Range",
  style AS "Style",
  sum(projEnd - projStart) AS "Total Proj Time:dur_ns",
  sum(origEnd - origStart) AS "Total Range Time:dur_ns",
  count(*) AS "Range Instances",
  round(avg(projEnd - projStart), 1) AS "Proj Avg:dur_ns",
  round(median(projEnd - projStart), 1) AS "Proj Med:dur_ns",
  min(projEnd - projStart) AS "Proj Min:dur_ns",
  max(projEnd - projStart) AS "Proj Max:dur_ns",
  round(stdev(projEnd - projStart), 1) AS "Proj StdDev:dur_ns",
  sum(numOps) AS "Total GPU Ops",
  round(avg(numOps), 1) AS "Avg GPU Ops",
  round(avg(level), 1) AS "Avg Range Lvl",
  round(avg(numChild), 1) AS "Avg Num Child"
FROM projections
GROUP BY name, style
ORDER BY 3 DESC, name, style
