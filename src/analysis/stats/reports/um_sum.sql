-- um_sum[:rows=N]: unified memory per virtual address: migrations (MEMCPY copyKind 11 = HtoD,
-- 12 = DtoH) and CPU/GPU page faults. Throughput = bytes * (1e9 / duration) with integer
-- division, as nsys. Order: Migration Throughput DESC, address; at most `rows` rows (default 10).
WITH
  cpu AS (
    SELECT address, count(*) AS num FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS GROUP BY address
  ),
  gpu AS (
    SELECT address, sum(numberOfPageFaults) AS num FROM CUDA_UM_GPU_PAGE_FAULT_EVENTS
    GROUP BY address
  ),
  migrations AS (
    SELECT virtualAddress AS address,
           sum(iif(copyKind = 11, bytes, NULL)) AS h2d,
           sum(iif(copyKind = 12, bytes, NULL)) AS d2h,
           sum(end - start) AS duration
    FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind IN (11, 12)
    GROUP BY virtualAddress
  ),
  addresses AS (
    SELECT address FROM cpu UNION SELECT address FROM gpu UNION SELECT address FROM migrations
  )
SELECT
  a.address AS "Virtual Address:addr_uint",
  m.h2d AS "HtoD Migration Size:mem_B",
  m.d2h AS "DtoH Migration Size:mem_B",
  c.num AS "CPU Page Faults",
  g.num AS "GPU Page Faults",
  (coalesce(m.h2d, 0) + coalesce(m.d2h, 0)) * (1000000000 / m.duration)
    AS "Migration Throughput:thru_B"
FROM addresses AS a
LEFT JOIN migrations AS m ON m.address = a.address
LEFT JOIN cpu AS c ON c.address = a.address
LEFT JOIN gpu AS g ON g.address = a.address
ORDER BY 6 DESC, 1
LIMIT {{rows}}
