-- cuda_gpu_mem_time_sum: memcpy rows grouped by copyKind ("[CUDA memcpy <kind>]") and memset rows
-- ("[CUDA memset]"), over durations. Order: Total Time DESC, then Operation.
WITH
{{>memops}},
  grouped AS (SELECT gsys_group_stats(kindKey, end - start) AS j FROM memops),
  summary AS MATERIALIZED (SELECT {{group_stats_columns}} FROM grouped, json_each(grouped.j)),
  totals AS (SELECT sum(total) AS total FROM summary)
SELECT
  round(s.total * 100.0 / (SELECT total FROM totals), 1) AS "Time:ratio_%",
  s.total AS "Total Time:dur_ns",
  s.num AS "Count",
  round(s.avg, 1) AS "Avg:dur_ns",
  round(s.med, 1) AS "Med:dur_ns",
  s.min AS "Min:dur_ns",
  s.max AS "Max:dur_ns",
  round(s.stddev, 1) AS "StdDev:dur_ns",
  n.name AS "Operation",
  s.q1 AS "_Q1",
  s.q3 AS "_Q3"
FROM summary AS s
JOIN memop_names AS n ON n.kindKey = s.key
ORDER BY s.total DESC, n.name
