-- Partial, setup statements (include before the report's WITH): TEMP TABLE gsys_stats_nvtx_tree
-- (rid, ord, start, end, tid, style, name, level, parentId, rawEnd, endTid, text) over the push/pop
-- ranges, indexed by parentId and by (tid, start). Built in O(n log n) without a pairwise
-- containment join:
--   ord    pre-order position on the thread: start ASC, end DESC
--   level  ranges started before it on the thread minus ranges ended at or before its start
--          (pp_events says how equal times count)
--   parent the latest range (by ord) one level up on the same thread
-- rid is the NVTX_EVENTS rowid (nsys's RangeId), or a row number where the table is a view.
DROP TABLE IF EXISTS temp.gsys_stats_nvtx_tree;
CREATE TEMP TABLE gsys_stats_nvtx_tree AS
WITH
{{>nvtx_ranges}},
  pp AS MATERIALIZED (
    SELECT coalesce(r.rid, row_number() OVER (ORDER BY r.start, r.tid, r.end)) AS rid,
           r.start, r.end, r.tid, r.style, r.name, r.rawEnd, r.endTid, r.text,
           row_number() OVER (PARTITION BY r.tid ORDER BY r.start, r.end DESC, r.rid) AS ord
    FROM nvtx_ranges AS r WHERE r.eventType IN (59, 70)
  ),
  -- At equal times a range's end comes before the starts (a range popped at T is not the parent
  -- of one pushed at T), except the end of a range that lasts no time (or ends before it starts,
  -- a damaged row): that comes right after its own start, so it is never counted before it.
  pp_events AS (
    SELECT tid, start AS ts, 1 AS tie, ord, 0 AS isEnd, rid FROM pp
    UNION ALL
    SELECT tid, max(start, end), CASE WHEN end > start THEN 0 ELSE 1 END, ord, 1, NULL FROM pp
  ),
  pp_ended AS (
    SELECT rid, sum(isEnd) OVER (PARTITION BY tid ORDER BY ts, tie, ord, isEnd
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
  pp_parent_ord AS MATERIALIZED (
    SELECT child, tid,
           max(CASE WHEN candidate IS NOT NULL THEN ord END)
             OVER (PARTITION BY tid, slot ORDER BY ord ROWS UNBOUNDED PRECEDING) AS parentOrd
    FROM pp_links
  )
SELECT l.rid AS rid, l.ord AS ord, l.start AS start, l.end AS end, l.tid AS tid,
       l.style AS style, l.name AS name, l.level AS level, par.rid AS parentId,
       l.rawEnd AS rawEnd, l.endTid AS endTid, l.text AS text
FROM pp_levels AS l
LEFT JOIN pp_parent_ord AS po ON po.child = l.rid
LEFT JOIN pp_levels AS par ON par.tid = po.tid AND par.ord = po.parentOrd;
CREATE UNIQUE INDEX temp.gsys_stats_nvtx_tree_rid ON gsys_stats_nvtx_tree(rid);
CREATE INDEX temp.gsys_stats_nvtx_tree_parent ON gsys_stats_nvtx_tree(parentId);
CREATE INDEX temp.gsys_stats_nvtx_tree_start ON gsys_stats_nvtx_tree(tid, start, ord);
