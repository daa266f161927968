-- cuda_gpu_mem_size_sum: as cuda_gpu_mem_time_sum but over bytes. Sizes are not rounded here
-- (the formatter shows MB with 3 decimals). Order: Total DESC, then Operation.
WITH
{{>memops}},
  grouped AS (SELECT gsys_group_stats(kindKey, bytes) AS j FROM memops),
  summary AS MATERIALIZED (SELECT {{group_stats_columns}} FROM grouped, json_each(grouped.j))
SELECT
  s.total AS "Total:mem_B",
  s.num AS "Count",
  s.avg AS "Avg:mem_B",
  s.med AS "Med:mem_B",
  s.min AS "Min:mem_B",
  s.max AS "Max:mem_B",
  s.stddev AS "StdDev:mem_B",
  n.name AS "Operation",
  s.q1 AS "_Q1",
  s.q3 AS "_Q3"
FROM summary AS s
JOIN memop_names AS n ON n.kindKey = s.key
ORDER BY s.total DESC, n.name
