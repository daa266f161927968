-- Partial: CTE `gpu_summary(category, name, total, num, avg, med, min, max, stddev, q1, q3)`:
-- kernels (CUDA_KERNEL, by kernel name) and memory operations (MEMORY_OPER, by operation).
{{>kernels}},
{{>memops}},
  kernel_grouped AS (
    SELECT gsys_group_stats(nameKey, end - start) AS j FROM ({{>kernel_rows}})
{{^has:CUPTI_ACTIVITY_KIND_KERNEL}}    WHERE 0{{/has:CUPTI_ACTIVITY_KIND_KERNEL}}
  ),
  memop_grouped AS (SELECT gsys_group_stats(kindKey, end - start) AS j FROM memops),
  kernel_summary AS (SELECT {{group_stats_columns}} FROM kernel_grouped, json_each(kernel_grouped.j)),
  memop_summary AS (SELECT {{group_stats_columns}} FROM memop_grouped, json_each(memop_grouped.j)),
  gpu_summary AS MATERIALIZED (
    SELECT 'CUDA_KERNEL' AS category, n.name AS name, s.total, s.num, s.avg, s.med, s.min, s.max,
           s.stddev, s.q1, s.q3
    FROM kernel_summary AS s LEFT JOIN names AS n ON n.nameKey = s.key
    UNION ALL
    SELECT 'MEMORY_OPER', n.name, s.total, s.num, s.avg, s.med, s.min, s.max, s.stddev, s.q1, s.q3
    FROM memop_summary AS s JOIN memop_names AS n ON n.kindKey = s.key
  )
