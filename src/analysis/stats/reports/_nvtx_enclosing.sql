-- Partial (WITH part; needs the nvtx_tree_setup and nvtx_ranges partials and a CTE `calls(callKey,
-- tid, apiStart, apiEnd)`): CTE `enclosing(callKey, rid, start, end, name, style, tid, rawEnd,
-- endTid, text)`: every NVTX range on the call's thread that contains the call and begins and ends
-- on that thread. Push/pop ranges: the last range started at or before the call and its ancestors
-- (with proper nesting every enclosing range is one of them), found through the (tid, start) index,
-- then kept when they reach the end of the call. Start/end ranges (not nested): a direct
-- containment join.
  call_candidates AS (
    SELECT c.callKey, c.apiEnd,
           (SELECT t.rid FROM gsys_stats_nvtx_tree AS t
            WHERE t.tid = c.tid AND t.start <= c.apiStart
            ORDER BY t.start DESC, t.ord DESC LIMIT 1) AS rid
    FROM calls AS c
  ),
  call_chain(callKey, apiEnd, rid) AS (
    SELECT callKey, apiEnd, rid FROM call_candidates WHERE rid IS NOT NULL
    UNION ALL
    SELECT cc.callKey, cc.apiEnd, t.parentId
    FROM call_chain AS cc JOIN gsys_stats_nvtx_tree AS t ON t.rid = cc.rid
    WHERE t.parentId IS NOT NULL
  ),
  startend_ranges AS (
    SELECT nr.* FROM nvtx_ranges AS nr
    WHERE nr.eventType IN (60, 71) AND nr.rawEnd IS NOT NULL AND nr.endTid IS NULL
  ),
  enclosing AS (
    SELECT cc.callKey, t.rid, t.start, t.end, t.name, t.style, t.tid, t.rawEnd, t.endTid, t.text
    FROM call_chain AS cc JOIN gsys_stats_nvtx_tree AS t ON t.rid = cc.rid
    WHERE t.end >= cc.apiEnd
    UNION ALL
    SELECT c.callKey, sr.rid, sr.start, sr.end, sr.name, sr.style, sr.tid, sr.rawEnd, sr.endTid,
           sr.text
    FROM calls AS c
    JOIN startend_ranges AS sr
      ON sr.tid = c.tid AND sr.start <= c.apiStart AND sr.end >= c.apiEnd
  )
