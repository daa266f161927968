-- cublas_api_sum: calls in CUBLAS_EVENTS grouped by nameId (gsys_group_stats: hash grouping, then names).
WITH
  grouped AS (SELECT gsys_group_stats(nameId, end - start) AS j FROM CUBLAS_EVENTS),
{{>call_summary}}
