-- low_sm_activity: sampled GPU metrics (--gpu-metrics-devices; GPM's SM activity needs Hopper or
-- newer) in which NVML calls the GPU busy (gpuUtilization >= busy= %) while its SMs were active
-- for at most sm= % of the sample period. NVML's utilization (what nvidia-smi shows) counts any
-- time a kernel runs, so small grids, one-kernel-at-a-time launch streams and memory-bound
-- kernels look fully busy there. Reported per device when such samples are at least threshold= %
-- of its busy samples.
WITH
  busy AS (
    SELECT deviceId, gpuUtilization, smActivePercent, smOccupancyPercent, tensorActivePercent,
           dramBandwidthPercent
    FROM GSYS_GPU_METRICS
    WHERE gpuUtilization >= {{busy}} AND smActivePercent IS NOT NULL
  ),
  per_device AS (SELECT deviceId, count(*) AS n FROM busy GROUP BY deviceId),
  low AS (SELECT * FROM busy WHERE smActivePercent <= {{sm}})
SELECT
  count(*) AS "Samples",
  p.n AS "Busy Samples",
  round(count(*) * 100.0 / p.n, 1) AS "Of Busy:ratio_%",
  round(avg(l.gpuUtilization), 1) AS "NVML Util %",
  round(avg(l.smActivePercent), 1) AS "SM Active %",
  round(avg(l.smOccupancyPercent), 1) AS "SM Occupancy %",
  round(avg(l.tensorActivePercent), 1) AS "Tensor Active %",
  round(avg(l.dramBandwidthPercent), 1) AS "DRAM BW %",
  l.deviceId AS "Device ID",
  d.name AS "GPU"
FROM low AS l
JOIN per_device AS p ON p.deviceId = l.deviceId
LEFT JOIN GSYS_GPU_METRICS_DEVICES AS d ON d.deviceId = l.deviceId
GROUP BY l.deviceId
HAVING count(*) * 100.0 >= {{threshold}} * p.n
ORDER BY 1 DESC, 9
LIMIT {{rows}}
