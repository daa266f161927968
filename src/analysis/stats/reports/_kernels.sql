-- Partial: CTE `names(nameKey, name)` (and, with :nvtx-name, the CTEs behind it); the kernel rows
-- themselves (every CUPTI_ACTIVITY_KIND_KERNEL column plus `nameKey`) come from the kernel_rows
-- partial, used inline as `FROM (<kernel_rows>)`: SQLite flattens an inline subquery into the
-- scan but materializes a CTE here, which costs seconds at a million kernels. Reports group by
-- nameKey, then join names: integer ids are grouped before any string is touched. With :nvtx-name the key is the text "<innermost NVTX range>/<kernel name>",
-- the range being the latest-starting push/pop or start/end range that begins and ends on the
-- launching thread and contains the launch API call (same correlationId, same process).
{{#nvtx_name}}
  nvtx_ranges AS (
    SELECT ne.globalTid AS tid, ne.start AS start, ne.end AS end,
           coalesce(ne.text, sid.value) AS text
    FROM NVTX_EVENTS AS ne LEFT JOIN StringIds AS sid ON sid.id = ne.textId
    WHERE ne.eventType IN (59, 60, 70, 71) AND ne.end IS NOT NULL AND ne.endGlobalTid IS NULL
  ),
  launch_ranges AS (
    SELECT r.globalTid & ~0xFFFFFF AS pid, r.correlationId AS corr, nr.text AS text,
           row_number() OVER (PARTITION BY r.globalTid & ~0xFFFFFF, r.correlationId
                              ORDER BY nr.start DESC, nr.end) AS innermost
    FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
    JOIN nvtx_ranges AS nr
      ON nr.tid = r.globalTid AND nr.start <= r.start AND nr.end >= r.end
  ),
  kernels_nvtx AS MATERIALIZED (
    SELECT k.*, coalesce(lr.text || '/', '') || kn.value AS nameKey
    FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
    LEFT JOIN launch_ranges AS lr
      ON lr.pid = k.globalPid AND lr.corr = k.correlationId AND lr.innermost = 1
    LEFT JOIN StringIds AS kn ON kn.id = k.{{kernel_name}}
  ),
  names AS (SELECT DISTINCT nameKey, nameKey AS name FROM kernels_nvtx)
{{/nvtx_name}}
{{^nvtx_name}}
  names AS (SELECT id AS nameKey, value AS name FROM StringIds)
{{/nvtx_name}}
