-- cuda_memset_sync (nsys rule): memsets of pinned (1) or managed (4) memory issued by synchronous
-- cudaMemset* calls (no "async").
WITH
  sid AS (
    SELECT id, value FROM StringIds WHERE value LIKE 'cudaMemset%' AND value NOT LIKE '%async%'
  ),
  memset AS (SELECT * FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE memKind = 1 OR memKind = 4)
SELECT
  m.end - m.start AS "Duration:dur_ns",
  m.start AS "Start:ts_ns",
  mk.label AS "Memory Kind",
  m.bytes AS "Bytes:mem_B",
  (m.globalPid >> 24) & 0x00FFFFFF AS "PID",
  m.deviceId AS "Device ID",
  m.contextId AS "Context ID",
  NULLIF(m.greenContextId, 0) AS "Green Context ID",
  m.streamId AS "Stream ID",
  sid.value AS "API Name"
FROM memset AS m
{{>api_match}}
LEFT JOIN ENUM_CUDA_MEM_KIND AS mk ON mk.id = m.memKind
ORDER BY 1 DESC, 2
LIMIT {{rows}}
