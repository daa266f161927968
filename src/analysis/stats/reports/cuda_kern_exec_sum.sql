-- cuda_kern_exec_sum[:nvtx-name][:base|:mangled]: per pid, tid, device, launch API and kernel:
-- T = total (API start to the later of API end and kernel end), A = API, Q = queue (API end to
-- kernel start, only when >= 0; QCount counts those), K = kernel. Order: TAvg DESC, then keys.
{{#nvtx_name}}
{{>kernels_nvtx_setup}}
{{/nvtx_name}}
WITH
{{>kernel_launches}}
SELECT
  pid AS "PID", tid AS "TID", deviceId AS "DevId",
  count(*) AS "Count", count(queDur) AS "QCount",
  round(avg(totalDur), 1) AS "TAvg:dur_ns", round(median(totalDur), 1) AS "TMed:dur_ns",
  min(totalDur) AS "TMin:dur_ns", max(totalDur) AS "TMax:dur_ns",
  round(stdev(totalDur), 1) AS "TStdDev:dur_ns",
  round(avg(apiDur), 1) AS "AAvg:dur_ns", round(median(apiDur), 1) AS "AMed:dur_ns",
  min(apiDur) AS "AMin:dur_ns", max(apiDur) AS "AMax:dur_ns",
  round(stdev(apiDur), 1) AS "AStdDev:dur_ns",
  round(avg(queDur), 1) AS "QAvg:dur_ns", round(median(queDur), 1) AS "QMed:dur_ns",
  min(queDur) AS "QMin:dur_ns", max(queDur) AS "QMax:dur_ns",
  -- nsys 2025.3.1 prints 0.0 where no launch of the group queued (QAvg..QMax stay empty).
  coalesce(round(stdev(queDur), 1), 0.0) AS "QStdDev:dur_ns",
  round(avg(kernDur), 1) AS "KAvg:dur_ns", round(median(kernDur), 1) AS "KMed:dur_ns",
  min(kernDur) AS "KMin:dur_ns", max(kernDur) AS "KMax:dur_ns",
  round(stdev(kernDur), 1) AS "KStdDev:dur_ns",
  apiName AS "API Name", kernName AS "Kernel Name"
FROM launches
GROUP BY pid, tid, deviceId, apiName, kernName
ORDER BY 6 DESC, pid, tid, deviceId, apiName, kernName
