-- um_total_sum: totals of unified memory migrations (MEMCPY copyKind 11/12) and page faults, and
-- the lowest and highest virtual address involved.
WITH
  cpu AS (
    SELECT count(*) AS num, min(address) AS lo, max(address) AS hi
    FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS
  ),
  gpu AS (
    SELECT sum(numberOfPageFaults) AS num, min(address) AS lo, max(address) AS hi
    FROM CUDA_UM_GPU_PAGE_FAULT_EVENTS
  ),
  migrations AS (
    SELECT sum(iif(copyKind = 11, bytes, NULL)) AS h2d, sum(iif(copyKind = 12, bytes, NULL)) AS d2h,
           min(virtualAddress) AS lo, max(virtualAddress) AS hi
    FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind IN (11, 12)
  )
SELECT
  m.h2d AS "Total HtoD Migration Size:mem_B",
  m.d2h AS "Total DtoH Migration Size:mem_B",
  c.num AS "Total CPU Page Faults",
  g.num AS "Total GPU Page Faults",
  min(coalesce(c.lo, g.lo, m.lo), coalesce(g.lo, c.lo, m.lo), coalesce(m.lo, c.lo, g.lo))
    AS "Minimum Virtual Address:addr_uint",
  max(coalesce(c.hi, g.hi, m.hi), coalesce(g.hi, c.hi, m.hi), coalesce(m.hi, c.hi, g.hi))
    AS "Maximum Virtual Address:addr_uint"
FROM cpu AS c, gpu AS g, migrations AS m
