-- cuda_api_callers: where the GPU work comes from. Each CUDA API call with a backtrace
-- (--cudabacktrace / --python-backtrace) is attributed to its call site: the innermost native
-- frame outside the CUDA libraries and gsys, and the innermost Python frame outside the
-- standard library and site-packages (the user's line; else the innermost Python frame). Sites
-- are ranked by the GPU time of the kernels, copies and memsets their calls launched (API rows
-- joined to GPU rows by correlationId per process). Time (%) is relative to all GPU work.
WITH
  gpu AS (
    SELECT correlationId, globalPid, end - start AS dur FROM CUPTI_ACTIVITY_KIND_KERNEL
    UNION ALL SELECT correlationId, globalPid, end - start FROM CUPTI_ACTIVITY_KIND_MEMCPY
    UNION ALL SELECT correlationId, globalPid, end - start FROM CUPTI_ACTIVITY_KIND_MEMSET
  ),
  native_depth AS (
    SELECT c.id, min(c.stackDepth) AS depth
    FROM CUDA_CALLCHAINS AS c JOIN StringIds AS m ON m.id = c.module
    WHERE m.value NOT GLOB '*/libcuda.so*' AND m.value NOT GLOB '*/libcudart.so*'
      AND m.value NOT GLOB '*/libcupti.so*' AND m.value NOT GLOB '*/libgsys-inject.so*'
    GROUP BY c.id
  ),
  native AS (
    SELECT d.id, s.value AS symbol, m.value AS module
    FROM native_depth AS d
    JOIN CUDA_CALLCHAINS AS c ON c.id = d.id AND c.stackDepth = d.depth
    JOIN StringIds AS s ON s.id = c.symbol
    JOIN StringIds AS m ON m.id = c.module
  ),
  py_frames AS (
    SELECT p.id, p.stackDepth, f.value AS frame,
           (fi.value GLOB '*/site-packages/*' OR fi.value GLOB '*/dist-packages/*'
            OR fi.value GLOB '*/lib/python3*' OR fi.value GLOB '<frozen *') AS library
    FROM GSYS_PYTHON_CALLCHAINS AS p
    JOIN StringIds AS f ON f.id = p.frameId
    JOIN StringIds AS fi ON fi.id = p.fileId
  ),
  py_depth AS (
    SELECT id, coalesce(min(CASE WHEN NOT library THEN stackDepth END), min(stackDepth)) AS depth
    FROM py_frames GROUP BY id
  ),
  py AS (
    SELECT d.id, f.frame FROM py_depth AS d JOIN py_frames AS f ON f.id = d.id AND f.stackDepth = d.depth
  ),
  calls AS (
    SELECT r.callchainId AS cc, r.correlationId, r.globalTid & ~0xFFFFFF AS gpid
    FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
    WHERE r.callchainId IS NOT NULL
  ),
  -- GPU rows summed per (correlationId, process) before the join: a damaged report that repeats
  -- an id on both sides would otherwise join every call with every GPU row of it.
  gpu_per_corr AS (
    SELECT correlationId, globalPid, count(dur) AS ops, sum(dur) AS gpu FROM gpu
    GROUP BY correlationId, globalPid
  ),
  per_call AS (
    SELECT c.cc, coalesce(sum(g.ops), 0) AS ops, coalesce(sum(g.gpu), 0) AS gpu
    FROM calls AS c
    LEFT JOIN gpu_per_corr AS g ON g.correlationId = c.correlationId AND g.globalPid = c.gpid
    GROUP BY c.cc, c.correlationId, c.gpid
  ),
  sites AS (
    SELECT coalesce(py.frame, '') AS python, coalesce(n.symbol, '') AS symbol,
           coalesce(n.module, '') AS module,
           sum(pc.gpu) AS gpu, sum(pc.ops) AS ops, count(*) AS calls
    FROM per_call AS pc
    LEFT JOIN native AS n ON n.id = pc.cc
    LEFT JOIN py ON py.id = pc.cc
    GROUP BY 1, 2, 3
  ),
  totals AS (SELECT sum(dur) AS total FROM gpu)
SELECT
  round(s.gpu * 100.0 / nullif((SELECT total FROM totals), 0), 1) AS "Time:ratio_%",
  s.gpu AS "GPU Time:dur_ns",
  s.ops AS "GPU Ops",
  s.calls AS "API Calls",
  s.python AS "Python Site",
  s.symbol AS "Native Site",
  s.module AS "Module"
FROM sites AS s
ORDER BY s.gpu DESC, s.calls DESC, s.python, s.symbol
