-- cuda_api_trace: one row per CUDA runtime/driver API call. Result = returnValue, T-Pri = thread
-- priority (ThreadNames). Order: Start, then CorrID.
WITH
{{>api_name}},
  threads AS (
    SELECT globalTid, min(priority) AS priority, min(nameId) AS nameId
    FROM ThreadNames GROUP BY globalTid
  )
SELECT
  r.start AS "Start:ts_ns",
  r.end - r.start AS "Duration:dur_ns",
  n.name AS "Name",
  r.returnValue AS "Result",
  r.correlationId AS "CorrID",
  (r.globalTid >> 24) & 0xFFFFFF AS "Pid",
  r.globalTid & 0xFFFFFF AS "Tid",
  t.priority AS "T-Pri",
  tn.value AS "Thread Name"
FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
LEFT JOIN api_names AS n ON n.nameId = r.nameId
LEFT JOIN threads AS t ON t.globalTid = r.globalTid
LEFT JOIN StringIds AS tn ON tn.id = t.nameId
ORDER BY r.start, r.correlationId
