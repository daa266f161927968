-- nccl_exposed: NCCL kernels (name containing "nccl", or launched inside an NVTX push/pop range of
-- the NCCL domain) and the part of their run time that no other kernel of the same process and
-- device overlaps: communication the GPU waits for instead of hiding it behind compute. Reported
-- per collective kernel when its exposed share reaches threshold= %.
DROP TABLE IF EXISTS temp.gsys_rule_nccl_calls;
CREATE TEMP TABLE gsys_rule_nccl_calls AS
WITH
  nccl_domains AS (
    SELECT DISTINCT domainId, globalTid >> 24 AS p FROM NVTX_EVENTS
    WHERE eventType = 75 AND text = 'NCCL'
  ),
  nccl_ranges AS (
    SELECT n.start, n.end, n.globalTid FROM NVTX_EVENTS AS n
    JOIN nccl_domains AS d ON d.domainId = n.domainId AND d.p = n.globalTid >> 24
    WHERE n.eventType IN (59, 70) AND n.end IS NOT NULL
  )
SELECT DISTINCT r.correlationId, r.globalTid & ~0xFFFFFF AS gpid
FROM nccl_ranges AS nr JOIN main.CUPTI_ACTIVITY_KIND_RUNTIME AS r
  ON r.globalTid = nr.globalTid AND r.start >= nr.start AND r.end <= nr.end;
CREATE INDEX temp.gsys_rule_nccl_calls_idx ON gsys_rule_nccl_calls(correlationId);
DROP TABLE IF EXISTS temp.gsys_rule_nccl;
CREATE TEMP TABLE gsys_rule_nccl AS
SELECT k.start, k.end, (k.globalPid >> 24) & 0x00FFFFFF AS pid, k.deviceId, k.shortName,
       (s.value LIKE '%nccl%' OR EXISTS (
          SELECT 1 FROM gsys_rule_nccl_calls AS c
          WHERE c.correlationId = k.correlationId
            AND (k.globalPid IS NULL OR c.gpid = k.globalPid))) AS is_nccl
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k LEFT JOIN StringIds AS s ON s.id = k.shortName
WHERE k.start > 0;
DROP TABLE IF EXISTS temp.gsys_rule_compute;
CREATE TEMP TABLE gsys_rule_compute AS
WITH busy_src AS (SELECT pid, deviceId, start, end FROM gsys_rule_nccl WHERE NOT is_nccl),
{{>busy_islands}};
CREATE INDEX temp.gsys_rule_compute_idx ON gsys_rule_compute(pid, deviceId, start);
WITH
  longest AS (SELECT coalesce(max(end - start), 0) AS len FROM gsys_rule_compute),
  per_kernel AS (
    SELECT k.pid, k.deviceId, k.shortName, k.end - k.start AS dur,
           coalesce((SELECT sum(min(c.end, k.end) - max(c.start, k.start))
                     FROM gsys_rule_compute AS c
                     WHERE c.pid = k.pid AND c.deviceId = k.deviceId
                       AND c.start BETWEEN k.start - longest.len AND k.end - 1
                       AND c.end > k.start), 0) AS covered
    FROM gsys_rule_nccl AS k, longest WHERE k.is_nccl
  ),
  per_collective AS (
    SELECT pid, deviceId, shortName, count(*) AS n, sum(dur) AS total,
           sum(dur - min(covered, dur)) AS exposed
    FROM per_kernel GROUP BY pid, deviceId, shortName
  )
SELECT
  p.n AS "Count",
  p.total AS "Total Time:dur_ns",
  p.exposed AS "Exposed Time:dur_ns",
  round(p.exposed * 100.0 / max(p.total, 1), 1) AS "Exposed:ratio_%",
  round(p.exposed * 1.0 / p.n, 1) AS "Avg Exposed:dur_ns",
  p.pid AS "PID",
  p.deviceId AS "Device ID",
  n.value AS "Collective"
FROM per_collective AS p LEFT JOIN StringIds AS n ON n.id = p.shortName
WHERE p.exposed * 100.0 >= {{threshold}} * p.total AND p.exposed > 0
ORDER BY 3 DESC, 8
LIMIT {{rows}}
