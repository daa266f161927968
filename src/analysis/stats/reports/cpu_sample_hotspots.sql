-- cpu_sample_hotspots: the functions CPU samples (-s process-tree) landed in, per thread: the
-- innermost frame of each sample (COMPOSITE_EVENTS + SAMPLING_CALLCHAINS at stackDepth 0).
-- Self (%) is the share of the thread's samples; unresolved frames count once per module.
-- Order: thread (most samples first), then samples descending.
WITH
  leaf AS (
    SELECT e.globalTid, CASE WHEN c.unresolved = 1 THEN NULL ELSE c.symbol END AS symbol, c.module
    FROM COMPOSITE_EVENTS AS e
    JOIN SAMPLING_CALLCHAINS AS c ON c.id = e.id AND c.stackDepth = 0
  ),
  per_fn AS (
    SELECT globalTid, symbol, module, count(*) AS samples FROM leaf GROUP BY 1, 2, 3
  ),
  per_thread AS (SELECT globalTid, sum(samples) AS total FROM per_fn GROUP BY 1),
  threads AS (SELECT globalTid, min(nameId) AS nameId FROM ThreadNames GROUP BY globalTid)
SELECT
  round(f.samples * 100.0 / t.total, 1) AS "Self:ratio_%",
  f.samples AS "Samples",
  t.total AS "Thread Samples",
  (f.globalTid >> 24) & 0xFFFFFF AS "Pid",
  f.globalTid & 0xFFFFFF AS "Tid",
  tn.value AS "Thread Name",
  coalesce(s.value, '[unresolved]') AS "Function",
  m.value AS "Module"
FROM per_fn AS f
JOIN per_thread AS t ON t.globalTid = f.globalTid
LEFT JOIN threads AS th ON th.globalTid = f.globalTid
LEFT JOIN StringIds AS tn ON tn.id = th.nameId
LEFT JOIN StringIds AS s ON s.id = f.symbol
LEFT JOIN StringIds AS m ON m.id = f.module
ORDER BY t.total DESC, f.globalTid, f.samples DESC, s.value
