-- Partial: CTE `launches`: each kernel joined to its launch API call (same correlationId, same
-- process: correlation ids repeat across processes), with pid/tid, durations and names.
{{>kernels}},
{{>api_name}},
  launches AS (
    SELECT (r.globalTid >> 24) & 0xFFFFFF AS pid, r.globalTid & 0xFFFFFF AS tid,
           k.deviceId AS deviceId, r.start AS apiStart, r.end - r.start AS apiDur,
           iif(k.start - r.end >= 0, r.end, NULL) AS queStart,
           iif(k.start - r.end >= 0, k.start - r.end, NULL) AS queDur,
           k.start AS kernStart, k.end - k.start AS kernDur,
           max(r.end, k.end) - r.start AS totalDur,
           an.name AS apiName, kn.name AS kernName,
           printf('%4d %4d %4d', k.gridX, k.gridY, k.gridZ) AS grid,
           printf('%4d %4d %4d', k.blockX, k.blockY, k.blockZ) AS block
    FROM ({{>kernel_rows}}) AS k
    JOIN {{>launch_calls}} AS r
      ON r.correlationId = k.correlationId AND r.globalPid = k.globalPid
    LEFT JOIN api_names AS an ON an.nameId = r.nameId
    LEFT JOIN names AS kn ON kn.nameKey = k.nameKey
  )
