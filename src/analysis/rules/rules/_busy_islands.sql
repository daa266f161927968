-- _busy_islands: the SELECT body of a table of disjoint busy intervals (pid, deviceId, start, end)
-- merged from the rows of CTE `busy_src` (pid, deviceId, start, end): sorted by start, a row opens
-- a new island when it starts after every earlier row of its group has ended.
busy_prev AS (
  SELECT *, max(end) OVER (PARTITION BY pid, deviceId ORDER BY start, end
                           ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prevMax
  FROM busy_src
),
busy_num AS (
  SELECT *, sum(CASE WHEN prevMax IS NULL OR start > prevMax THEN 1 ELSE 0 END)
              OVER (PARTITION BY pid, deviceId ORDER BY start, end ROWS UNBOUNDED PRECEDING) AS island
  FROM busy_prev
)
SELECT pid, deviceId, min(start) AS start, max(end) AS end
FROM busy_num GROUP BY pid, deviceId, island
