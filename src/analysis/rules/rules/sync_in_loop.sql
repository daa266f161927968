-- sync_in_loop: host-blocking CUDA calls (device/stream/event synchronize, synchronous copies and
-- memsets, runtime and driver API) inside an NVTX range that repeats at least iterations= times
-- (a loop body such as a training step), reported per range when there is on average at least one
-- such call per iteration. Push/pop ranges hold the calls of their thread, start/end ranges those
-- of their process. Ranges are grouped by (name, domain, style, owner) and indexed by (group,
-- start); a call looks, in each group of its thread and process, only at ranges that start within
-- that group's longest range before it (a loop's iterations follow each other: one or two), not
-- at every range within the longest range of any name (255 s at 1 M calls and 200 k ranges).
DROP TABLE IF EXISTS temp.gsys_rule_loop_ranges;
DROP TABLE IF EXISTS temp.gsys_rule_loop_groups;
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
       r.pushpop, r.name, r.domainId, rep.iters,
       dense_rank() OVER (ORDER BY r.name, r.domainId, r.pushpop,
                          CASE WHEN r.pushpop THEN r.globalTid ELSE r.globalTid >> 24 END) AS gid
FROM ranges AS r JOIN repeated AS rep ON rep.name IS r.name AND rep.domainId IS r.domainId;
CREATE INDEX temp.gsys_rule_loop_ranges_idx ON gsys_rule_loop_ranges(gid, start);
CREATE TEMP TABLE gsys_rule_loop_groups AS
SELECT gid, pushpop, owner, max(end - start) AS len FROM gsys_rule_loop_ranges GROUP BY gid;
CREATE INDEX temp.gsys_rule_loop_groups_idx ON gsys_rule_loop_groups(pushpop, owner);
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
  -- The groups of each call's thread (push/pop) and process (start/end).
  call_groups AS (
    SELECT s.*, g.gid, g.len FROM syncs AS s
    JOIN gsys_rule_loop_groups AS g ON g.pushpop = 1 AND g.owner = s.globalTid
    UNION ALL
    SELECT s.*, g.gid, g.len FROM syncs AS s
    JOIN gsys_rule_loop_groups AS g ON g.pushpop = 0 AND g.owner = s.globalTid >> 24
  ),
  -- A range that holds the call starts at most its group's longest length before the call's end
  -- (and, as before, the longest of all before its start: the same rows for any call).
  hits AS (
    SELECT l.name, l.domainId, l.iters, l.start AS rstart, l.owner, c.end - c.start AS dur, c.api
    FROM call_groups AS c, longest
    JOIN gsys_rule_loop_ranges AS l
      ON l.gid = c.gid
     AND l.start BETWEEN min(c.start, c.end) - c.len AND c.start
     AND l.start >= c.start - longest.len
     AND c.end <= l.end
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
