-- _api_match: joins GPU row `m` to its launching runtime call `r` by correlationId within the same
-- process (ids repeat across processes; nsys joins on correlationId alone). The runtime table is
-- read from main, unfiltered, as nsys does, so a copy inside the window keeps its API name.
JOIN main.CUPTI_ACTIVITY_KIND_RUNTIME AS r
  ON r.correlationId = m.correlationId
 AND (m.globalPid IS NULL OR (r.globalTid & ~0xFFFFFF) = m.globalPid)
JOIN sid ON sid.id = r.nameId
