-- Partial (include after the nvtx_ranges partial): CTE `nvtx_tree(rid, start, end, tid, style, name, level,
-- parentId)` over the push/pop ranges, in O(n log n) (no pairwise containment join):
--   ord    pre-order position on the thread: start ASC, end DESC
--   level  ranges started before it on the thread minus ranges ended at or before its start
--   parent the latest range (by ord) one level up on the same thread
  pp AS MATERIALIZED (
    SELECT r.*, row_number() OVER (PARTITION BY tid ORDER BY start, end DESC, rid) AS ord
    FROM nvtx_ranges AS r WHERE eventType IN (59, 70)
  ),
  pp_events AS (
    SELECT tid, start AS ts, 1 AS isStart, rid FROM pp
    UNION ALL
    SELECT tid, end AS ts, 0 AS isStart, NULL FROM pp
  ),
  pp_ended AS (
    SELECT rid, sum(1 - isStart) OVER (PARTITION BY tid ORDER BY ts, isStart
                                       ROWS UNBOUNDED PRECEDING) AS endedBefore
    FROM pp_events
  ),
  pp_levels AS MATERIALIZED (
    SELECT p.*, p.ord - 1 - e.endedBefore AS level
    FROM pp AS p JOIN pp_ended AS e ON e.rid = p.rid
  ),
  pp_links AS (
    SELECT tid, level + 1 AS slot, ord, rid AS candidate, NULL AS child FROM pp_levels
    UNION ALL
    SELECT tid, level AS slot, ord, NULL, rid FROM pp_levels WHERE level > 0
  ),
  pp_parent_ord AS (
    SELECT child, tid,
           max(CASE WHEN candidate IS NOT NULL THEN ord END)
             OVER (PARTITION BY tid, slot ORDER BY ord ROWS UNBOUNDED PRECEDING) AS parentOrd
    FROM pp_links
  ),
  nvtx_tree AS MATERIALIZED (
    SELECT l.rid, l.start, l.end, l.tid, l.style, l.name, l.level, par.rid AS parentId
    FROM pp_levels AS l
    LEFT JOIN pp_parent_ord AS po ON po.child = l.rid
    LEFT JOIN pp_levels AS par ON par.tid = po.tid AND par.ord = po.parentOrd
  )
