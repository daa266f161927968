-- osrt_sum: calls in OSRT_API grouped by nameId (gsys_group_stats: hash grouping, then names).
WITH
  grouped AS (SELECT gsys_group_stats(nameId, end - start) AS j FROM OSRT_API),
{{>call_summary}}
