-- mpi_event_sum: MPI events grouped by source table (p2p, start-wait, other, collectives) and
-- name. Order: Total Time DESC, Source, Name.
WITH
{{>mpi_events}},
  summary AS (
    SELECT source, textId, sum(end - start) AS total, count(*) AS num, avg(end - start) AS avg,
           median(end - start) AS med, min(end - start) AS min, max(end - start) AS max,
           stdev(end - start) AS stddev
    FROM mpi_events GROUP BY source, textId
  ),
  totals AS (SELECT sum(total) AS total FROM summary)
SELECT
  round(s.total * 100.0 / (SELECT total FROM totals), 1) AS "Time:ratio_%",
  s.total AS "Total Time:dur_ns",
  s.num AS "Instances",
  round(s.avg, 1) AS "Avg:dur_ns",
  round(s.med, 1) AS "Med:dur_ns",
  s.min AS "Min:dur_ns",
  s.max AS "Max:dur_ns",
  round(s.stddev, 1) AS "StdDev:dur_ns",
  s.source AS "Source",
  n.value AS "Name"
FROM summary AS s LEFT JOIN StringIds AS n ON n.id = s.textId
ORDER BY s.total DESC, s.source, n.value
