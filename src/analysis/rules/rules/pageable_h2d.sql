-- pageable_h2d: host-to-device and device-to-host copies (copyKind 1, 2) of at least size= bytes
-- with pageable host memory (srcKind or dstKind 0), per process, direction and API: the driver
-- stages them through a pinned buffer, so they run at a fraction of the bus speed and the host
-- blocks for them. "API Time" is the host time spent in the issuing calls.
WITH
  copies AS (
    SELECT m.*, r.end - r.start AS adur, r.nameId AS apiId
    FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m
    LEFT JOIN {{>launch_calls}} AS r
      ON r.correlationId = m.correlationId
     AND (m.globalPid IS NULL OR r.globalPid = m.globalPid)
    WHERE m.copyKind IN (1, 2) AND (m.srcKind = 0 OR m.dstKind = 0) AND m.bytes >= {{size}}
  )
SELECT
  count(*) AS "Copies",
  sum(c.bytes) AS "Total:mem_B",
  sum(c.end - c.start) AS "GPU Time:dur_ns",
  sum(c.adur) AS "API Time:dur_ns",
  CAST(sum(c.bytes) * 1e9 / max(sum(c.end - c.start), 1) AS INTEGER) AS "Throughput:thru_B",
  (c.globalPid >> 24) & 0x00FFFFFF AS "PID",
  coalesce(o.label, c.copyKind) AS "Direction",
  a.value AS "API Name"
FROM copies AS c
LEFT JOIN ENUM_CUDA_MEMCPY_OPER AS o ON o.id = c.copyKind
LEFT JOIN StringIds AS a ON a.id = c.apiId
GROUP BY 6, c.copyKind, c.apiId
ORDER BY 4 DESC, 3 DESC, 6, 7
LIMIT {{rows}}
