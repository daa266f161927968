-- nvtx_sum: push/pop and start/end ranges grouped by style and "<domain>:<text>".
-- Grouping key: 'P' or 'S' followed by the range name. Order: Total Time DESC, Style, Range.
WITH
{{>nvtx_ranges}},
  grouped AS (
    SELECT gsys_group_stats(substr(style, 1, 1) || name, end - start) AS j FROM nvtx_ranges
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
  CASE substr(s.key, 1, 1) WHEN 'P' THEN 'PushPop' ELSE 'StartEnd' END AS "Style",
  substr(s.key, 2) AS "Range",
  s.q1 AS "_Q1",
  s.q3 AS "_Q3"
FROM summary AS s
ORDER BY s.total DESC, s.key
