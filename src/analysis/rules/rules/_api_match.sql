-- _api_match: joins GPU row `m` to its launching runtime call `r` by correlationId within the same
-- process (ids repeat across processes; nsys joins on correlationId alone). The runtime table is
-- read from main, unfiltered, as nsys does, so a copy inside the window keeps its API name; one
-- call per id and process (_launch_calls.sql).
JOIN {{>launch_calls}} AS r
  ON r.correlationId = m.correlationId
 AND (m.globalPid IS NULL OR r.globalPid = m.globalPid)
JOIN sid ON sid.id = r.nameId
