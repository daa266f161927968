-- Partial (include after the nvtx_ranges and nvtx_tree partials): CTE `projections(rid, name, style, tid,
-- origStart, origEnd, projStart, projEnd, numOps, level, numChild, parentId)`.
-- A GPU op (kernel, memcpy, memset) belongs to every range on its launching thread that contains
-- its launch API call (same correlationId and process); only ranges that begin and end on the
-- same thread count. Projected range = [first op start, last op end]; ranges without ops are
-- left out. Level/children come from the push/pop tree (0 for start/end ranges).
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
    SELECT r.globalTid AS tid, r.start AS apiStart, r.end AS apiEnd, o.start, o.end
    FROM gpu_ops AS o
    JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r
      ON r.correlationId = o.correlationId AND (r.globalTid & ~0xFFFFFF) = o.globalPid
  ),
  same_thread_ranges AS (
    SELECT nr.* FROM nvtx_ranges AS nr JOIN NVTX_EVENTS AS ne ON ne.rowid = nr.rid
    WHERE ne.end IS NOT NULL AND ne.endGlobalTid IS NULL
  ),
  tree_children AS (
    SELECT parentId AS rid, count(*) AS numChild FROM nvtx_tree
    WHERE parentId IS NOT NULL GROUP BY parentId
  ),
  projections AS (
    SELECT nr.rid, nr.name, nr.style, nr.tid, nr.start AS origStart, nr.end AS origEnd,
           min(oc.start) AS projStart, max(oc.end) AS projEnd, count(*) AS numOps,
           coalesce(t.level, 0) AS level, coalesce(tc.numChild, 0) AS numChild,
           t.parentId AS parentId
    FROM same_thread_ranges AS nr
    JOIN op_calls AS oc
      ON oc.tid = nr.tid AND oc.apiStart >= nr.start AND oc.apiEnd <= nr.end
    LEFT JOIN nvtx_tree AS t ON t.rid = nr.rid
    LEFT JOIN tree_children AS tc ON tc.rid = nr.rid
    GROUP BY nr.rid
  )
