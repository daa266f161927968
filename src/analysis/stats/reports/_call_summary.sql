-- Partial: the summary of a call table (osrt_sum, cudnn_api_sum, cublas_api_sum). The report
-- defines CTE `grouped` (one gsys_group_stats(nameId, end - start) over its table) and includes
-- this right after it. Time (%) is relative to the sum of Total Time over all rows. Ties: lower
-- nameId first (the order nsys's GROUP BY leaves them in).
  summary AS MATERIALIZED (SELECT {{group_stats_columns}} FROM grouped, json_each(grouped.j)),
  totals AS (SELECT sum(total) AS total FROM summary)
SELECT
  round(s.total * 100.0 / (SELECT total FROM totals), 1) AS "Time:ratio_%",
  s.total AS "Total Time:dur_ns",
  s.num AS "Num Calls",
  round(s.avg, 1) AS "Avg:dur_ns",
  round(s.med, 1) AS "Med:dur_ns",
  s.min AS "Min:dur_ns",
  s.max AS "Max:dur_ns",
  round(s.stddev, 1) AS "StdDev:dur_ns",
  n.value AS "Name",
  s.q1 AS "_Q1",
  s.q3 AS "_Q3"
FROM summary AS s
LEFT JOIN StringIds AS n ON n.id = s.key
ORDER BY s.total DESC, s.key
