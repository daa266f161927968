-- gpu_gaps (nsys rule): per process and device, the idle intervals longer than gap= ms between
-- the first and the last GPU operation. nsys pairs the j-th end with the (j+1)-th start (ends and
-- starts sorted separately) and keeps end < start; that is exactly "the (j+1)-th op by start
-- begins after the latest end of the j ops before it", computed here with one window pass
-- (O(n log n) instead of a join of two numbered lists). Context ID is the context of the op that
-- ends the gap (nsys: of the op whose end begins it; ops of one device and process share one).
-- Unlike nsys 2024 (which applies LIMIT before ranking), the row limit keeps the longest gaps.
-- With clean data the rule runs as a C++ sweep instead (native/gpu_gaps_stage.cc) and ranks its
-- rows with the same partial (_gpu_gaps_native.sql).
WITH
  {{>gpu_ops}},
  prior AS (
    SELECT start, pid, deviceId, contextId,
           max(end) OVER (PARTITION BY pid, deviceId ORDER BY start
                          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prevEnd
    FROM ops
  ),
  gaps AS (
    SELECT start - prevEnd AS duration, prevEnd AS gapStart, pid, deviceId, contextId
    FROM prior
    WHERE start - prevEnd > {{gap}} * 1000000
  )
{{>gpu_gaps_rows}}
