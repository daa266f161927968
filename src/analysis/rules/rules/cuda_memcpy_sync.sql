-- cuda_memcpy_sync (nsys rule): copies issued by synchronous cudaMemcpy* calls (no "Async"),
-- except host-to-device copies (copyKind 1) of at most 64000 bytes, which return early, and copies
-- within one device (srcDeviceId = dstDeviceId).
WITH
  sid AS (
    SELECT id, value FROM StringIds WHERE value LIKE 'cudaMemcpy%' AND value NOT LIKE '%Async%'
  ),
  memcpy AS (
    SELECT * FROM CUPTI_ACTIVITY_KIND_MEMCPY
    WHERE NOT (bytes <= 64000 AND copyKind = 1)
      AND NOT (srcDeviceId IS NOT NULL AND srcDeviceId = dstDeviceId)
  )
SELECT
{{>memcpy_columns}}
FROM memcpy AS m
{{>api_match}}
LEFT JOIN ENUM_CUDA_MEM_KIND AS sk ON sk.id = m.srcKind
LEFT JOIN ENUM_CUDA_MEM_KIND AS dk ON dk.id = m.dstKind
ORDER BY 1 DESC, 2
LIMIT {{rows}}
