-- osrt_sum: calls in OSRT_API grouped by nameId (gsys_group_stats: hash grouping, then names).
-- nsys's zero-length "OS runtime profiling started/finished" markers (eventClass 31 and 32,
-- name id 0 = [Unknown]) are not calls: nsys 2025.3.1 leaves them out (tests/parity).
WITH
  grouped AS (SELECT gsys_group_stats(nameId, end - start) AS j FROM OSRT_API
              WHERE eventClass IS NULL OR eventClass NOT IN (31, 32)),
{{>call_summary}}
