-- _launch_calls (a FROM item, name it with AS): the runtime rows of main (unfiltered, as nsys
-- reads them) that GPU work joins to, one per (process, correlationId): the earliest call.
-- Columns start, end, globalTid, globalPid (globalTid & ~0xFFFFFF), correlationId, nameId. A
-- real report names one call per id and process; a damaged one can repeat an id, and joining
-- every repeat with every GPU row of that id made the rules quadratic and inflated their counts.
-- Where the data check found no repeat (unique_correlation), the table itself, without a sort.
{{#unique_correlation}}
(SELECT r.start, r.end, r.globalTid, r.globalTid & ~0xFFFFFF AS globalPid, r.correlationId,
        r.nameId
 FROM main.CUPTI_ACTIVITY_KIND_RUNTIME AS r WHERE r.correlationId IS NOT NULL)
{{/unique_correlation}}
{{^unique_correlation}}
(SELECT start, end, globalTid, globalPid, correlationId, nameId FROM (
   SELECT r.start, r.end, r.globalTid, r.globalTid & ~0xFFFFFF AS globalPid, r.correlationId,
          r.nameId,
          row_number() OVER (PARTITION BY r.globalTid & ~0xFFFFFF, r.correlationId
                             ORDER BY r.start, r.end, r.globalTid) AS nth
   FROM main.CUPTI_ACTIVITY_KIND_RUNTIME AS r WHERE r.correlationId IS NOT NULL)
 WHERE nth = 1)
{{/unique_correlation}}
