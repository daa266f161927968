-- cuda_memcpy_async (nsys rule): copies from or to pageable memory (srcKind or dstKind 0) issued by
-- a cudaMemcpy*Async* call: the driver stages them, so the "async" call blocks the host.
WITH
  sid AS (SELECT id, value FROM StringIds WHERE value LIKE 'cudaMemcpy%Async%'),
  memcpy AS (SELECT * FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE srcKind = 0 OR dstKind = 0)
SELECT
{{>memcpy_columns}}
FROM memcpy AS m
{{>api_match}}
LEFT JOIN ENUM_CUDA_MEM_KIND AS sk ON sk.id = m.srcKind
LEFT JOIN ENUM_CUDA_MEM_KIND AS dk ON dk.id = m.dstKind
ORDER BY 1 DESC, 2
LIMIT {{rows}}
