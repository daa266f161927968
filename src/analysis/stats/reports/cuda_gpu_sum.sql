-- cuda_gpu_sum[:nvtx-name][:base|:mangled]: kernels and memory operations in one table.
-- Order: Total Time DESC, Instances, Category, Operation.
{{#nvtx_name}}
{{>kernels_nvtx_setup}}
{{/nvtx_name}}
WITH
{{>gpu_ops_summary}},
  totals AS (SELECT sum(total) AS total FROM gpu_summary)
SELECT
  round(s.total * 100.0 / (SELECT total FROM totals), 1) AS "Time:ratio_%",
  s.total AS "Total Time:dur_ns",
  s.num AS "Instances",
  round(s.avg, 1) AS "Avg:dur_ns",
  round(s.med, 1) AS "Med:dur_ns",
  s.min AS "Min:dur_ns",
  s.max AS "Max:dur_ns",
  round(s.stddev, 1) AS "StdDev:dur_ns",
  s.category AS "Category",
  s.name AS "Operation",
  s.q1 AS "_Q1",
  s.q3 AS "_Q3"
FROM gpu_summary AS s
ORDER BY s.total DESC, s.num, s.category, s.name
