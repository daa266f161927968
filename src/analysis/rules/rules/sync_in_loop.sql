-- sync_in_loop: host-blocking CUDA calls (device/stream/event synchronize, synchronous copies and
-- memsets, runtime and driver API) inside an NVTX range that repeats at least iterations= times
-- (a loop body such as a training step), reported per range when there is on average at least one
-- such call per iteration. Push/pop ranges hold the calls of their thread, start/end ranges those
-- of their process. Ranges are indexed by (thread, start) so each call looks at nearby ranges only.
DROP TABLE IF EXISTS temp.gsys_rule_loop_ranges;
CREATE TEMP TABLE gsys_rule_loop_ranges AS
WITH
  ranges AS (
    SELECT n.start, n.end, n.globalTid, n.eventType IN (59, 70) AS pushpop,
           coalesce(n.text, s.value) AS name, n.domainId
    FROM NVTX_EVENTS AS n LEFT JOIN StringIds AS s ON s.id = n.textId
    WHERE n.eventType IN (59, 60, 70, 71) AND n.end IS NOT NULL
  ),
  repeated AS (
    SELECT name, domainId, count(*) AS iters FROM ranges GROUP BY name, domainId
    HAVING count(*) >= {{iterations}}
  )
SELECT r.start, r.end, CASE WHEN r.pushpop THEN r.globalTid ELSE r.globalTid >> 24 END AS owner,
       r.pushpop, r.name, r.domainId, rep.iters
FROM ranges AS r JOIN repeated AS rep ON rep.name IS r.name AND rep.domainId IS r.domainId;
CREATE INDEX temp.gsys_rule_loop_ranges_idx ON gsys_rule_loop_ranges(pushpop, owner, start);
WITH
  sync_names AS (
    SELECT id, value FROM StringIds
    WHERE value LIKE 'cudaDeviceSynchronize%' OR value LIKE 'cudaStreamSynchronize%'
       OR value LIKE 'cudaEventSynchronize%' OR value LIKE 'cuCtxSynchronize%'
       OR value LIKE 'cuStreamSynchronize%' OR value LIKE 'cuEventSynchronize%'
       OR ((value LIKE 'cudaMemcpy%' OR value LIKE 'cudaMemset%' OR value LIKE 'cuMemcpy%'
            OR value LIKE 'cuMemset%') AND value NOT LIKE '%Async%')
  ),
  syncs AS (
    SELECT r.start, r.end, r.globalTid, n.value AS api
    FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r JOIN sync_names AS n ON n.id = r.nameId
  ),
  longest AS (SELECT coalesce(max(end - start), 0) AS len FROM gsys_rule_loop_ranges),
  hits AS (
    SELECT l.name, l.domainId, l.iters, l.start AS rstart, l.owner, s.end - s.start AS dur, s.api
    FROM syncs AS s, longest
    JOIN gsys_rule_loop_ranges AS l
      ON ((l.pushpop = 1 AND l.owner = s.globalTid) OR (l.pushpop = 0 AND l.owner = s.globalTid >> 24))
     AND l.start BETWEEN s.start - longest.len AND s.start
     AND s.end <= l.end
  ),
  per_range AS (
    SELECT name, domainId, iters, count(*) AS calls, sum(dur) AS total,
           count(DISTINCT rstart || ':' || owner) AS with_sync
    FROM hits GROUP BY name, domainId
  ),
  top_api AS (
    SELECT name, domainId, api,
           ROW_NUMBER() OVER (PARTITION BY name, domainId ORDER BY count(*) DESC, api) AS rn
    FROM hits GROUP BY name, domainId, api
  )
SELECT
  p.iters AS "Iterations",
  p.with_sync AS "With Sync",
  p.calls AS "Sync Calls",
  round(p.calls * 1.0 / p.iters, 1) AS "Per Iter",
  p.total AS "Sync Time:dur_ns",
  round(p.total * 1.0 / p.iters, 1) AS "Per Iter Time:dur_ns",
  t.api AS "Top API",
  p.name AS "Range"
FROM per_range AS p
JOIN top_api AS t ON t.name IS p.name AND t.domainId IS p.domainId AND t.rn = 1
WHERE p.calls >= p.iters
ORDER BY 5 DESC, 3 DESC, 8
LIMIT {{rows}}
