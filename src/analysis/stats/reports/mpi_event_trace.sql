-- mpi_event_trace: one row per MPI event. Rank comes from MPI_RANKS (by thread) when present.
-- Order: Start, Event.
WITH
{{>mpi_events}},
  ranks AS (
{{#has:MPI_RANKS}}
    SELECT globalTid, min(rank) AS rank FROM MPI_RANKS GROUP BY globalTid
{{/has:MPI_RANKS}}
{{^has:MPI_RANKS}}
    SELECT NULL AS globalTid, NULL AS rank WHERE 0
{{/has:MPI_RANKS}}
  )
SELECT
  e.start AS "Start:ts_ns",
  e.end AS "End:ts_ns",
  e.end - e.start AS "Duration:dur_ns",
  n.value AS "Event",
  (e.globalTid >> 24) & 0xFFFFFF AS "Pid",
  e.globalTid & 0xFFFFFF AS "Tid",
  e.tag AS "Tag",
  r.rank AS "Rank",
  e.peerRank AS "PeerRank",
  e.rootRank AS "RootRank",
  e.size AS "Size:mem_B",
  e.collSendSize AS "CollSendSize:mem_B",
  e.collRecvSize AS "CollRecvSize:mem_B"
FROM mpi_events AS e
LEFT JOIN StringIds AS n ON n.id = e.textId
LEFT JOIN ranks AS r ON r.globalTid = e.globalTid
ORDER BY e.start, n.value
