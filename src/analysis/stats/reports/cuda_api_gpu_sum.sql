-- cuda_api_gpu_sum[:nvtx-name][:base|:mangled]: CUDA API calls (CUDA_API), kernels (CUDA_KERNEL)
-- and memory operations (MEMORY_OPER) in one table. Order: Total Time DESC, Instances, Category,
-- Operation.
{{#nvtx_name}}
{{>kernels_nvtx_setup}}
{{/nvtx_name}}
WITH
{{>gpu_ops_summary}},
{{>api_name}},
  api_grouped AS (
    SELECT gsys_group_stats(nameId, end - start) AS j FROM CUPTI_ACTIVITY_KIND_RUNTIME
  ),
  api_summary AS (SELECT {{group_stats_columns}} FROM api_grouped, json_each(api_grouped.j)),
  all_summary AS MATERIALIZED (
    SELECT 'CUDA_API' AS category, n.name AS name, s.total, s.num, s.avg, s.med, s.min, s.max,
           s.stddev, s.q1, s.q3
    FROM api_summary AS s LEFT JOIN api_names AS n ON n.nameId = s.key
    UNION ALL
    SELECT * FROM gpu_summary
  ),
  totals AS (SELECT sum(total) AS total FROM all_summary)
SELECT
  round(s.total * 100.0 / (SELECT total FROM totals), 1) AS "Time:ratio_%",
  s.total AS "Total Time:dur_ns",
  s.num AS "Instances",
  round(s.avg, 1) AS "Avg:dur_ns",
  round(s.med, 1) AS "Med:dur_ns",
  s.min AS "Min:dur_ns",
  s.max AS "Max:dur_ns",
  round(s.stddev, 1) AS "StdDev:dur_ns",
  s.category AS "Category",
  s.name AS "Operation",
  s.q1 AS "_Q1",
  s.q3 AS "_Q3"
FROM all_summary AS s
ORDER BY s.total DESC, s.num, s.category, s.name
