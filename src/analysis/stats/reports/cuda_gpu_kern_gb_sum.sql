-- cuda_gpu_kern_gb_sum[:nvtx-name][:base|:mangled]: kernels grouped by name, grid and block.
-- GridXYZ/BlockXYZ are printf('%4d %4d %4d'). Order: Total Time DESC, Instances, Name, grid, block.
{{#nvtx_name}}
{{>kernels_nvtx_setup}}
{{/nvtx_name}}
WITH
{{>kernels}},
  summary AS (
    SELECT nameKey, gridX, gridY, gridZ, blockX, blockY, blockZ,
           sum(end - start) AS total, count(*) AS num, avg(end - start) AS avg,
           median(end - start) AS med, min(end - start) AS min, max(end - start) AS max,
           stdev(end - start) AS stddev, lower_quartile(end - start) AS q1,
           upper_quartile(end - start) AS q3
    FROM ({{>kernel_rows}})
    GROUP BY nameKey, gridX, gridY, gridZ, blockX, blockY, blockZ
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
  printf('%4d %4d %4d', s.gridX, s.gridY, s.gridZ) AS "GridXYZ",
  printf('%4d %4d %4d', s.blockX, s.blockY, s.blockZ) AS "BlockXYZ",
  n.name AS "Name",
  s.q1 AS "_Q1",
  s.q3 AS "_Q3"
FROM summary AS s
LEFT JOIN names AS n ON n.nameKey = s.nameKey
ORDER BY s.total DESC, s.num, n.name, s.gridX, s.gridY, s.gridZ, s.blockX, s.blockY, s.blockZ
