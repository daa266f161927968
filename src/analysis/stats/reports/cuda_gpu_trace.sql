-- cuda_gpu_trace[:nvtx-name][:base|:mangled]: kernels, memcpy and memset, one row each.
-- Throughput = bytes * (1000000000 / duration) with integer division, as nsys computes it.
-- Device = "<GPU name> (<deviceId>)"; GreenCtx empty when 0. Order: Start, CorrId, Name.
{{#nvtx_name}}
{{>kernels_nvtx_setup}}
{{/nvtx_name}}
WITH
{{>kernels}},
{{>copy_kinds}},
  gpus AS (
{{#has:TARGET_INFO_GPU}}
    SELECT id, min(name) AS name FROM TARGET_INFO_GPU GROUP BY id
{{/has:TARGET_INFO_GPU}}
{{^has:TARGET_INFO_GPU}}
    SELECT NULL AS id, NULL AS name WHERE 0
{{/has:TARGET_INFO_GPU}}
  ),
  recs AS (
    SELECT k.start, k.end - k.start AS duration, k.correlationId AS corr,
           k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ,
           k.registersPerThread AS regs, k.staticSharedMemory AS ssmem,
           k.dynamicSharedMemory AS dsmem, NULL AS bytes, NULL AS srckind, NULL AS dstkind,
           k.deviceId, k.contextId, k.greenContextId, k.streamId, n.name AS name
    FROM ({{>kernel_rows}}) AS k LEFT JOIN names AS n ON n.nameKey = k.nameKey
{{#has:CUPTI_ACTIVITY_KIND_MEMCPY}}
    UNION ALL
    SELECT m.start, m.end - m.start, m.correlationId, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           NULL, NULL, m.bytes, sk.label, dk.label, m.deviceId, m.contextId, m.greenContextId,
           m.streamId, '[CUDA memcpy ' || ck.label || ']'
    FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m
    LEFT JOIN copy_kinds AS ck ON ck.id = m.copyKind
    LEFT JOIN mem_kinds AS sk ON sk.id = m.srcKind
    LEFT JOIN mem_kinds AS dk ON dk.id = m.dstKind
{{/has:CUPTI_ACTIVITY_KIND_MEMCPY}}
{{#has:CUPTI_ACTIVITY_KIND_MEMSET}}
    UNION ALL
    SELECT s.start, s.end - s.start, s.correlationId, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           NULL, NULL, s.bytes, mk.label, NULL, s.deviceId, s.contextId, s.greenContextId,
           s.streamId, '[CUDA memset]'
    FROM CUPTI_ACTIVITY_KIND_MEMSET AS s LEFT JOIN mem_kinds AS mk ON mk.id = s.memKind
{{/has:CUPTI_ACTIVITY_KIND_MEMSET}}
  )
SELECT
  r.start AS "Start:ts_ns",
  r.duration AS "Duration:dur_ns",
  r.corr AS "CorrId",
  r.gridX AS "GrdX",
  r.gridY AS "GrdY",
  r.gridZ AS "GrdZ",
  r.blockX AS "BlkX",
  r.blockY AS "BlkY",
  r.blockZ AS "BlkZ",
  r.regs AS "Reg/Trd",
  r.ssmem AS "StcSMem:mem_B",
  r.dsmem AS "DymSMem:mem_B",
  r.bytes AS "Bytes:mem_B",
  CASE WHEN r.bytes IS NULL THEN NULL ELSE r.bytes * (1000000000 / r.duration) END
    AS "Throughput:thru_B",
  r.srckind AS "SrcMemKd",
  r.dstkind AS "DstMemKd",
  coalesce(g.name || ' ', '') || '(' || r.deviceId || ')' AS "Device",
  r.contextId AS "Ctx",
  nullif(r.greenContextId, 0) AS "GreenCtx",
  r.streamId AS "Strm",
  r.name AS "Name"
FROM recs AS r
LEFT JOIN gpus AS g ON g.id = r.deviceId
ORDER BY r.start, r.corr, r.name
