-- _gpu_gaps_native: gpu_gaps' last step after its C++ stage (native/gpu_gaps_stage.cc) wrote the
-- gaps, in the order gpu_gaps.sql's window yields them, to temp.gsys_rule_gaps.
WITH gaps AS (SELECT duration, gapStart, pid, deviceId, contextId FROM temp.gsys_rule_gaps)
{{>gpu_gaps_rows}}
