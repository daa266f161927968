-- Partial: CTE `nvtx_ranges(rid, eventType, start, end, tid, style, name, rawEnd, endTid, text)`:
-- push/pop and start/end ranges (eventType 59/60 and NVTXT 70/71). A range without end lasts until
-- the last NVTX timestamp. name = "<domain>:<text>" (default domain: ":<text>"); domains are per
-- process. rid is the NVTX_EVENTS rowid (nsys's RangeId). text = the range's own text without
-- domain.
  nvtx_domains AS MATERIALIZED (
    SELECT ne.domainId AS id, ne.globalTid & 0x0000FFFFFF000000 AS pid,
           coalesce(sid.value, ne.text) AS name, min(ne.start)
    FROM NVTX_EVENTS AS ne LEFT JOIN StringIds AS sid ON sid.id = ne.textId
    WHERE ne.eventType = 75
    GROUP BY 1, 2
  ),
  nvtx_maxts AS MATERIALIZED (SELECT max(max(start), max(end)) AS m FROM NVTX_EVENTS),
  nvtx_ranges AS NOT MATERIALIZED (
    SELECT ne.rowid AS rid, ne.eventType AS eventType, ne.start AS start,
           coalesce(ne.end, (SELECT m FROM nvtx_maxts)) AS end, ne.globalTid AS tid,
           CASE WHEN ne.eventType IN (59, 70) THEN 'PushPop' ELSE 'StartEnd' END AS style,
           coalesce(d.name, '') || ':' || coalesce(sid.value, ne.text, '') AS name,
           ne.end AS rawEnd, ne.endGlobalTid AS endTid, coalesce(ne.text, sid.value) AS text
    FROM NVTX_EVENTS AS ne
    LEFT JOIN nvtx_domains AS d
      ON d.id = ne.domainId AND d.pid = (ne.globalTid & 0x0000FFFFFF000000)
    LEFT JOIN StringIds AS sid ON sid.id = ne.textId
    WHERE ne.eventType IN (59, 60, 70, 71)
  )
