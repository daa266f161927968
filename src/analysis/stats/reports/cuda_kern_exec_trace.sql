-- cuda_kern_exec_trace[:nvtx-name][:base|:mangled]: one row per kernel with its launch API call.
-- Queue Start/Dur are empty when the kernel started before the API call returned.
-- Order: API Start, Kernel Start.
{{#nvtx_name}}
{{>kernels_nvtx_setup}}
{{/nvtx_name}}
WITH
{{>kernel_launches}}
SELECT
  apiStart AS "API Start:ts_ns", apiDur AS "API Dur:dur_ns",
  queStart AS "Queue Start:ts_ns", queDur AS "Queue Dur:dur_ns",
  kernStart AS "Kernel Start:ts_ns", kernDur AS "Kernel Dur:dur_ns",
  totalDur AS "Total Dur:dur_ns",
  pid AS "PID", tid AS "TID", deviceId AS "DevId",
  apiName AS "API Function", grid AS "GridXYZ", block AS "BlockXYZ", kernName AS "Kernel Name"
FROM launches
ORDER BY apiStart, kernStart, kernName
