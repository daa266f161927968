-- Partial (WITH part, after the nvtx_ranges partial; needs the nvtx_tree_setup partial): CTE
-- `projections(rid, name, style, tid, origStart, origEnd, projStart, projEnd, numOps, level,
-- numChild, parentId)`. A GPU op (kernel, memcpy, memset) belongs to every range on its launching
-- thread that contains its launch API call (same correlationId and process) and begins and ends
-- on that thread. Projected range = [first op start, last op end]; ranges without ops are left
-- out. Level comes from the push/pop tree (0 for start/end ranges), children count projected
-- child ranges only. numOps counts
-- launch calls, as nsys 2025.3.1 does: a CUDA graph launched in node mode is one GPU op however
-- many kernels it runs (tests/parity, cuda_graph_node).
  gpu_ops AS (
    SELECT globalPid, correlationId, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL
{{#has:CUPTI_ACTIVITY_KIND_MEMCPY}}
    UNION ALL SELECT globalPid, correlationId, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY
{{/has:CUPTI_ACTIVITY_KIND_MEMCPY}}
{{#has:CUPTI_ACTIVITY_KIND_MEMSET}}
    UNION ALL SELECT globalPid, correlationId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET
{{/has:CUPTI_ACTIVITY_KIND_MEMSET}}
  ),
  op_calls AS MATERIALIZED (
    SELECT r.globalTid & ~0xFFFFFF AS pid, r.correlationId AS corr, r.globalTid AS tid,
           r.start AS apiStart, r.end AS apiEnd, 1 AS numOps, min(o.start) AS opStart,
           max(o.end) AS opEnd
    FROM gpu_ops AS o
    JOIN {{>launch_calls}} AS r
      ON r.correlationId = o.correlationId AND r.globalPid = o.globalPid
    GROUP BY 1, 2, 3, 4, 5
  ),
  calls AS (
    SELECT row_number() OVER () AS callKey, tid, apiStart, apiEnd, numOps, opStart, opEnd
    FROM op_calls
  ),
{{>nvtx_enclosing}},
  projected AS (
    SELECT e.rid, e.name, e.style, e.tid, e.start AS origStart, e.end AS origEnd,
           min(c.opStart) AS projStart, max(c.opEnd) AS projEnd, sum(c.numOps) AS numOps,
           coalesce(t.level, 0) AS level, t.parentId AS parentId
    FROM enclosing AS e
    JOIN calls AS c ON c.callKey = e.callKey
    LEFT JOIN gsys_stats_nvtx_tree AS t ON t.rid = e.rid AND e.style = 'PushPop'
    GROUP BY e.rid, e.tid, e.start, e.end, e.name, e.style
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
