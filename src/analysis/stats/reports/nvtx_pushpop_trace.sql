-- nvtx_pushpop_trace: one row per push/pop range with its stack state. DurChild = sum of the
-- direct children's durations; RangeId = NVTX_EVENTS rowid; RangeStack = ":<root id>:...:<id>";
-- NameTree = name indented with "--" per level. Order: Start, Duration, RangeId.
{{>nvtx_tree_setup}}
WITH RECURSIVE
  children AS (
    SELECT parentId AS rid, sum(end - start) AS childDur, count(*) AS childNum
    FROM gsys_stats_nvtx_tree WHERE parentId IS NOT NULL GROUP BY parentId
  ),
  stacks(rid, stack, tab) AS (
    SELECT rid, ':' || rid, '' FROM gsys_stats_nvtx_tree WHERE parentId IS NULL
    UNION ALL
    SELECT t.rid, s.stack || ':' || t.rid, s.tab || '--'
    FROM stacks AS s JOIN gsys_stats_nvtx_tree AS t ON t.parentId = s.rid
  )
SELECT
  t.start AS "Start:ts_ns",
  t.end AS "End:ts_ns",
  t.end - t.start AS "Duration:dur_ns",
  coalesce(c.childDur, 0) AS "DurChild:dur_ns",
  t.end - t.start - coalesce(c.childDur, 0) AS "DurNonChild:dur_ns",
  t.name AS "Name",
  (t.tid >> 24) & 0xFFFFFF AS "PID",
  t.tid & 0xFFFFFF AS "TID",
  t.level AS "Lvl",
  coalesce(c.childNum, 0) AS "NumChild",
  t.rid AS "RangeId",
  t.parentId AS "ParentId",
  s.stack AS "RangeStack",
  s.tab || t.name AS "NameTree"
FROM gsys_stats_nvtx_tree AS t
JOIN stacks AS s ON s.rid = t.rid
LEFT JOIN children AS c ON c.rid = t.rid
ORDER BY t.start, t.end - t.start, t.rid
