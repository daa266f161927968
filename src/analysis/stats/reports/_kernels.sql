-- Partial: CTE `names(nameKey, name)` (and, with :nvtx-name, the CTEs behind it); the kernel rows
-- themselves (every CUPTI_ACTIVITY_KIND_KERNEL column plus `nameKey`) come from the kernel_rows
-- partial, used inline as `FROM (<kernel_rows>)`: SQLite flattens an inline subquery into the
-- scan but materializes a CTE here, which costs seconds at a million kernels. Reports group by
-- nameKey, then join names: integer ids are grouped before any string is touched. With
-- :nvtx-name the name is "<innermost NVTX range>/<kernel name>", keyed by the tables the
-- _kernels_nvtx_setup partial builds (the report must include it before its WITH).
{{#nvtx_name}}
  names AS NOT MATERIALIZED (SELECT id AS nameKey, name FROM gsys_stats_kernel_nvtx_names),
  kernels_nvtx AS MATERIALIZED (
    SELECT k.*, nm.id AS nameKey
    FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
    LEFT JOIN gsys_stats_launch_nvtx AS l ON l.corr = k.correlationId AND l.pid = k.globalPid
    LEFT JOIN StringIds AS kn ON kn.id = {{kernel_name}}
    LEFT JOIN gsys_stats_kernel_nvtx_names AS nm
      ON nm.name = coalesce(l.text || '/', '') || kn.value
  )
{{/nvtx_name}}
{{^nvtx_name}}
  names AS (SELECT id AS nameKey, value AS name FROM StringIds)
{{/nvtx_name}}
