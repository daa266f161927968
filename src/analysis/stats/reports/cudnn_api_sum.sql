-- cudnn_api_sum: calls in CUDNN_EVENTS grouped by nameId (gsys_group_stats: hash grouping, then names).
WITH
  grouped AS (SELECT gsys_group_stats(nameId, end - start) AS j FROM CUDNN_EVENTS),
{{>call_summary}}
