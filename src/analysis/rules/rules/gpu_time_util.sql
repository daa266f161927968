-- gpu_time_util (nsys rule): per process and device, [first op start, last op end] is cut into
-- chunks= equal chunks (length rounded up to whole ns, so the last chunk may be cut short by the
-- end); a chunk's in-use % is the sum of its overlap with every op (concurrent ops add up, so it
-- may exceed 100) over its length. Chunks below threshold= % are kept and consecutive ones merged
-- into one row with the length-weighted average. Integer chunk arithmetic equals nsys's
-- ceil(float) below 2^53 ns. With clean data the rule runs as a C++ pass instead
-- (native/gpu_time_util_stage.cc) and finishes with the same partial (_gpu_time_util_native.sql).
WITH RECURSIVE
  chunk_ids(rangeId) AS (
    SELECT 0 UNION ALL SELECT rangeId + 1 FROM chunk_ids WHERE rangeId + 1 < {{chunks}}
  ),
  {{>gpu_ops}},
  span AS (
    SELECT pid, deviceId, min(start) AS start, max(end) AS end, min(contextId) AS contextId,
           (max(end) - min(start) + {{chunks}} - 1) / {{chunks}} AS chunkSize
    FROM ops GROUP BY deviceId, pid
  ),
  chunk AS (
    SELECT c.rangeId, c.rangeId * s.chunkSize + s.start AS cstart,
           min(c.rangeId * s.chunkSize + s.start + s.chunkSize, s.end) AS cend,
           s.pid, s.deviceId, s.contextId
    FROM chunk_ids AS c JOIN span AS s
    WHERE c.rangeId * s.chunkSize + s.start < min(c.rangeId * s.chunkSize + s.start + s.chunkSize, s.end)
  ),
  -- Each op against only the chunks it can overlap (usually one), not every chunk against every
  -- op: candidates k in [first, last] from the op's ends; the overlap condition below is the
  -- exact one, so a generous candidate range changes nothing.
  op_span AS (
    SELECT o.pid, o.deviceId, o.start, o.end,
           max(0, (o.start - s.start) / s.chunkSize) AS first,
           min({{chunks}} - 1, (o.end - s.start) / s.chunkSize) AS last
    FROM ops AS o JOIN span AS s ON s.pid = o.pid AND s.deviceId = o.deviceId
    WHERE o.end > s.start
  ),
  op_chunks(pid, deviceId, start, end, k, last) AS (
    SELECT pid, deviceId, start, end, first, last FROM op_span WHERE first <= last
    UNION ALL
    SELECT pid, deviceId, start, end, k + 1, last FROM op_chunks WHERE k < last
  ),
  busy AS (
    SELECT ch.rangeId, ch.pid, ch.deviceId,
           sum(CAST(min(oc.end, ch.cend) - max(oc.start, ch.cstart) AS REAL)) AS busy
    FROM op_chunks AS oc
    JOIN chunk AS ch ON ch.rangeId = oc.k AND ch.pid = oc.pid AND ch.deviceId = oc.deviceId
    WHERE oc.start < ch.cend AND oc.end > ch.cstart
    GROUP BY ch.rangeId, ch.deviceId, ch.pid
  ),
  utilization AS (
    SELECT ch.rangeId, ch.cstart AS start, ch.cend AS end, ch.cend - ch.cstart AS size,
           coalesce(b.busy, 0.0) / (ch.cend - ch.cstart) * 100 AS pct,
           ch.pid, ch.deviceId, ch.contextId
    FROM chunk AS ch
    LEFT JOIN busy AS b ON b.rangeId = ch.rangeId AND b.deviceId = ch.deviceId AND b.pid = ch.pid
    WHERE coalesce(b.busy, 0.0) / (ch.cend - ch.cstart) * 100 < {{threshold}}
  ),
{{>gpu_time_util_rows}}
