-- cuda_api_sum: calls in CUPTI_ACTIVITY_KIND_RUNTIME grouped by nameId (gsys_group_stats: hash grouping, then names).
-- Time (%) is relative to the sum of Total Time over all rows. Ties: lower nameId first (the order
-- nsys's GROUP BY leaves them in).
WITH
  grouped AS (SELECT gsys_group_stats(nameId, end - start) AS j FROM CUPTI_ACTIVITY_KIND_RUNTIME),
  summary AS MATERIALIZED (SELECT {{group_stats_columns}} FROM grouped, json_each(grouped.j)),
  {{>api_name}},
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
  n.name AS "Name",
  s.q1 AS "_Q1",
  s.q3 AS "_Q3"
FROM summary AS s
LEFT JOIN api_names AS n ON n.nameId = s.key
ORDER BY s.total DESC, s.key
