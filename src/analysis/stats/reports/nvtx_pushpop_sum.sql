-- nvtx_pushpop_sum: like nvtx_sum, over eventType 59,70 only, without the Style column.
-- Order: Total Time DESC, Range.
WITH
{{>nvtx_ranges}},
  grouped AS (
    SELECT gsys_group_stats(name, end - start) AS j FROM nvtx_ranges
    WHERE eventType IN (59,70)
  ),
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
  s.key AS "Range",
  s.q1 AS "_Q1",
  s.q3 AS "_Q3"
FROM summary AS s
ORDER BY s.total DESC, s.key
