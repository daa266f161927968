// SPDX-License-Identifier: Apache-2.0
// The SQL that names NVTX ranges for `--filter-nvtx` (the reader's first-instance window and the
// recipes' every-instance windows): a WITH clause defining `ranges(rid, start, end, eventType,
// globalTid, name, domain)`: push/pop and start/end ranges (eventType 59, 60, 70, 71) with a
// start, their text (inline or from StringIds) and the name of their domain, taken from the
// NvtxDomainCreate row (eventType 75) of the same process and domainId (NULL for the default
// domain). Append a SELECT over `ranges`.
#pragma once

namespace gsys::report {

inline constexpr const char* kNvtxRangesCte = R"sql(
WITH domains AS MATERIALIZED (
  SELECT domainId, globalTid >> 24 AS proc,
         coalesce(text, (SELECT value FROM main."StringIds" WHERE id = textId)) AS name
  FROM main."NVTX_EVENTS" WHERE eventType = 75
),
ranges AS (
  SELECT e.rowid AS rid, e.start, e."end", e.eventType, e.globalTid,
         coalesce(e.text, (SELECT value FROM main."StringIds" WHERE id = e.textId)) AS name,
         (SELECT d.name FROM domains AS d
          WHERE d.domainId = e.domainId AND d.proc = (e.globalTid >> 24) LIMIT 1) AS domain
  FROM main."NVTX_EVENTS" AS e
  WHERE e.eventType IN (59, 60, 70, 71) AND e.start IS NOT NULL
)
)sql";

}  // namespace gsys::report
