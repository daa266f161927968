-- _gpu_ops: CTEs `gpu_base` (kernels, memcpys and memsets with start > 0, as pid/deviceId/
-- contextId) and `ops` (gpu_base plus the CUDA profiling overheads of each process, duplicated on
-- every device of that process and kept only strictly inside the device's [first start, last end],
-- so profiler flushes are not blamed on the application). nsys's gpustats.GPUOperation.
gpu_base AS (
  SELECT start, end, (globalPid >> 24) & 0x00FFFFFF AS pid, deviceId, contextId
  FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0
  UNION ALL
  SELECT start, end, (globalPid >> 24) & 0x00FFFFFF, deviceId, contextId
  FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE start > 0
  UNION ALL
  SELECT start, end, (globalPid >> 24) & 0x00FFFFFF, deviceId, contextId
  FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE start > 0
),
{{#has:PROFILER_OVERHEAD}}
gpu_range AS (
  SELECT pid, deviceId, min(start) AS start, max(end) AS end, min(contextId) AS contextId
  FROM gpu_base GROUP BY deviceId, pid
),
gpu_overhead AS (
  SELECT po.start, po.end, (po.globalTid >> 24) & 0x00FFFFFF AS pid
  FROM PROFILER_OVERHEAD AS po JOIN StringIds AS s ON s.id = po.nameId
  WHERE s.value IN ('CUDA profiling data flush overhead', 'CUDA profiling stop overhead',
                    'CUDA profiling overhead')
),
ops AS (
  SELECT o.start, o.end, o.pid, r.deviceId, r.contextId
  FROM gpu_overhead AS o JOIN gpu_range AS r
    ON o.pid = r.pid AND o.start > r.start AND o.end < r.end
  UNION ALL
  SELECT * FROM gpu_base
)
{{/has:PROFILER_OVERHEAD}}
{{^has:PROFILER_OVERHEAD}}
ops AS (SELECT * FROM gpu_base)
{{/has:PROFILER_OVERHEAD}}
