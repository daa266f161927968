-- Partial: CTE `mpi_events(source, start, end, globalTid, textId, tag, peerRank, rootRank, size,
-- collSendSize, collRecvSize)` over the MPI tables present.
  mpi_events AS (
    SELECT NULL AS source, NULL AS start, NULL AS end, NULL AS globalTid, NULL AS textId,
           NULL AS tag, NULL AS peerRank, NULL AS rootRank, NULL AS size, NULL AS collSendSize,
           NULL AS collRecvSize WHERE 0
{{#has:MPI_P2P_EVENTS}}
    UNION ALL
    SELECT 'p2p', start, end, globalTid, textId, tag, remoteRank, NULL, size, NULL, NULL
    FROM MPI_P2P_EVENTS
{{/has:MPI_P2P_EVENTS}}
{{#has:MPI_START_WAIT_EVENTS}}
    UNION ALL
    SELECT 'start-wait', start, end, globalTid, textId, NULL, NULL, NULL, NULL, NULL, NULL
    FROM MPI_START_WAIT_EVENTS
{{/has:MPI_START_WAIT_EVENTS}}
{{#has:MPI_OTHER_EVENTS}}
    UNION ALL
    SELECT 'other', start, end, globalTid, textId, NULL, NULL, NULL, NULL, NULL, NULL
    FROM MPI_OTHER_EVENTS
{{/has:MPI_OTHER_EVENTS}}
{{#has:MPI_COLLECTIVES_EVENTS}}
    UNION ALL
    SELECT 'collectives', start, end, globalTid, textId, NULL, NULL, rootRank, NULL, size,
           recvSize
    FROM MPI_COLLECTIVES_EVENTS
{{/has:MPI_COLLECTIVES_EVENTS}}
  )
