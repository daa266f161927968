-- cuda_gpu_kern_sum[:nvtx-name][:base|:mangled]: kernels grouped by name.
-- Order: Total Time DESC, Instances, Name (as nsys).
{{#nvtx_name}}
{{>kernels_nvtx_setup}}
{{/nvtx_name}}
WITH
{{>kernels}},
  grouped AS (SELECT gsys_group_stats(nameKey, end - start) AS j FROM ({{>kernel_rows}})),
  summary AS MATERIALIZED (SELECT {{group_stats_columns}} FROM grouped, json_each(grouped.j)),
  totals AS (SELECT sum(total) AS total FROM summary)
SELECT
  round(s.total * 100.0 / (SELECT total FROM totals), 1) AS "Time:ratio_%",
  s.total AS "Total Time:dur_ns",
  s.num AS "Instances",
  round(s.avg, 1) AS "Avg:dur_ns",
  round(s.med, 1) AS "Med:dur_ns",
  s.min AS "Min:dur_ns",
  s.max AS "Max:dur_ns",
  round(s.stddev, 1) AS "StdDev:dur_ns",
  n.name AS "Name",
  s.q1 AS "_Q1",
  s.q3 AS "_Q3"
FROM summary AS s
LEFT JOIN names AS n ON n.nameKey = s.key
ORDER BY s.total DESC, s.num, n.name
