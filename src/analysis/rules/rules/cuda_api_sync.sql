-- cuda_api_sync (nsys rule): cudaDeviceSynchronize* and cudaStreamSynchronize* calls, longest
-- first; process= and thread= keep one process / thread (-1: all).
WITH
  sid AS (
    SELECT id, value FROM StringIds
    WHERE value LIKE 'cudaDeviceSynchronize%' OR value LIKE 'cudaStreamSynchronize%'
  )
SELECT
  r.end - r.start AS "Duration:dur_ns",
  r.start AS "Start:ts_ns",
  (r.globalTid >> 24) & 0x00FFFFFF AS "PID",
  r.globalTid & 0xFFFFFF AS "TID",
  sid.value AS "API Name"
FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
JOIN sid ON sid.id = r.nameId
WHERE ({{process}} < 0 OR ((r.globalTid >> 24) & 0x00FFFFFF) = {{process}})
  AND ({{thread}} < 0 OR (r.globalTid & 0xFFFFFF) = {{thread}})
ORDER BY 1 DESC, 2
LIMIT {{rows}}
