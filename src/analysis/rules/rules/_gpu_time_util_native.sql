-- _gpu_time_util_native: gpu_time_util's last step after its C++ stage
-- (native/gpu_time_util_stage.cc) wrote the chunks below the threshold to temp.gsys_rule_util.
WITH
  utilization AS (
    SELECT rangeId, start, end, size, pct, pid, deviceId, contextId FROM temp.gsys_rule_util
  ),
{{>gpu_time_util_rows}}
