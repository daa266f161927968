-- Partial (a FROM item, name it with AS): the CUPTI_ACTIVITY_KIND_RUNTIME rows that GPU work
-- joins to, one per (process, correlationId): the earliest call. Columns start, end, globalTid,
-- globalPid (globalTid & ~0xFFFFFF), correlationId, nameId, callchainId. A real report names one
-- call per id and process, so this is the table; a damaged one can repeat an id, and joining
-- every repeat with every GPU row of that id multiplied the rows (quadratic: 41 s on a 600 KB
-- report, and inflated counts). The reader counts repeats and warns (report/reader/data_check.h);
-- where it found none (unique_correlation), the table itself, without sorting every call.
{{#unique_correlation}}
(SELECT r.start, r.end, r.globalTid, r.globalTid & ~0xFFFFFF AS globalPid, r.correlationId,
        r.nameId, r.callchainId
 FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
 WHERE r.correlationId IS NOT NULL AND r.globalTid IS NOT NULL)
{{/unique_correlation}}
{{^unique_correlation}}
(SELECT start, end, globalTid, globalPid, correlationId, nameId, callchainId FROM (
   SELECT r.start, r.end, r.globalTid, r.globalTid & ~0xFFFFFF AS globalPid, r.correlationId,
          r.nameId, r.callchainId,
          row_number() OVER (PARTITION BY r.globalTid & ~0xFFFFFF, r.correlationId
                             ORDER BY r.start, r.end, r.globalTid) AS nth
   FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
   WHERE r.correlationId IS NOT NULL AND r.globalTid IS NOT NULL)
 WHERE nth = 1)
{{/unique_correlation}}
