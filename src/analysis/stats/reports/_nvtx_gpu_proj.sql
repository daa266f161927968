-- Partial (WITH part, after the nvtx_ranges partial; needs the nvtx_tree_setup and
-- nvtx_gpu_proj_setup partials): CTE `projections(rid, name, style, tid, origStart, origEnd,
-- projStart, projEnd, numOps, level, numChild, parentId)`. A GPU op (kernel, memcpy, memset)
-- belongs to every range on its launching thread that contains its launch API call and begins
-- and ends on that thread. Projected range = [first op start, last op end]; ranges without ops
-- are left out. Level comes from the push/pop tree (0 for start/end ranges), children count
-- projected child ranges only.
-- How: each range reads the calls of its thread that start inside it from the covering index of
-- gsys_stats_proj_calls, in rid order so the grouping needs no sort. The work is the number of
-- (range, call) pairs, as before, but as ordered index reads: a report of 1 000 ranges nested
-- 1 000 deep around 1 000 launches went from 7.7 s to 0.25 s, 5 000 x 5 000 from over 300 s to
-- 3.6 s (bench/nvtx/deep_nesting.sh). tests/cli/test_nvtx_projection.py checks the result
-- against containment on random stacks.
  startend_ranges AS (
    SELECT nr.* FROM nvtx_ranges AS nr
    WHERE nr.eventType IN (60, 71) AND nr.rawEnd IS NOT NULL AND nr.endTid IS NULL
  ),
  projected AS (
    SELECT t.rid AS rid, t.name AS name, t.style AS style, t.tid AS tid, t.start AS origStart,
           t.end AS origEnd, min(c.opStart) AS projStart, max(c.opEnd) AS projEnd,
           sum(c.numOps) AS numOps, t.level AS level, t.parentId AS parentId
    FROM gsys_stats_nvtx_tree AS t INDEXED BY gsys_stats_nvtx_tree_rid
    JOIN gsys_stats_proj_calls AS c
      ON c.tid = t.tid AND c.apiStart >= t.start AND c.apiStart <= t.end AND c.apiEnd <= t.end
    GROUP BY t.rid
    UNION ALL
    SELECT sr.rid, sr.name, sr.style, sr.tid, sr.start, sr.end, min(c.opStart), max(c.opEnd),
           sum(c.numOps), 0, NULL
    FROM startend_ranges AS sr
    JOIN gsys_stats_proj_calls AS c
      ON c.tid = sr.tid AND c.apiStart >= sr.start AND c.apiStart <= sr.end
         AND c.apiEnd <= sr.end
    GROUP BY sr.rid, sr.tid, sr.start, sr.end, sr.name, sr.style
  ),
  -- Children that are projected themselves, as nsys 2025.3.1 counts them (a child range that
  -- launched no GPU work is not counted; tests/parity, torch_train).
  projected_children AS (
    SELECT parentId AS rid, count(*) AS numChild FROM projected
    WHERE parentId IS NOT NULL GROUP BY parentId
  ),
  projections AS (
    SELECT p.rid, p.name, p.style, p.tid, p.origStart, p.origEnd, p.projStart, p.projEnd,
           p.numOps, p.level, coalesce(pc.numChild, 0) AS numChild, p.parentId
    FROM projected AS p LEFT JOIN projected_children AS pc ON pc.rid = p.rid
  )
