-- Partial: CTE `memops(kindKey, start, end, bytes)`: memcpy rows keyed by copyKind, memset rows
-- keyed by -1; `memop_names(kindKey, name)` gives "[CUDA memcpy <kind>]" / "[CUDA memset]".
  memops AS (
{{#has:CUPTI_ACTIVITY_KIND_MEMCPY}}
    SELECT copyKind AS kindKey, start, end, bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY
{{#has:CUPTI_ACTIVITY_KIND_MEMSET}}
    UNION ALL
{{/has:CUPTI_ACTIVITY_KIND_MEMSET}}
{{/has:CUPTI_ACTIVITY_KIND_MEMCPY}}
{{#has:CUPTI_ACTIVITY_KIND_MEMSET}}
    SELECT -1 AS kindKey, start, end, bytes FROM CUPTI_ACTIVITY_KIND_MEMSET
{{/has:CUPTI_ACTIVITY_KIND_MEMSET}}
{{^has:CUPTI_ACTIVITY_KIND_MEMCPY}}{{^has:CUPTI_ACTIVITY_KIND_MEMSET}}
    SELECT NULL AS kindKey, NULL AS start, NULL AS end, NULL AS bytes WHERE 0
{{/has:CUPTI_ACTIVITY_KIND_MEMSET}}{{/has:CUPTI_ACTIVITY_KIND_MEMCPY}}
  ),
{{>copy_kinds}},
  memop_names(kindKey, name) AS (
    SELECT id, '[CUDA memcpy ' || label || ']' FROM copy_kinds
    UNION ALL SELECT -1, '[CUDA memset]'
  )
