-- Partial: CTE `api_names(nameId, name)`: CUDA API names without CUPTI's version suffix. As in
-- nsys, the last 6 characters are dropped only when they start with "_v" (cudaMemcpyAsync_v3020
-- -> cudaMemcpyAsync, while cudaStreamIsCapturing_v10000 and cuGetProcAddress_v2 stay).
  api_names(nameId, name) AS (
    SELECT id,
           CASE substr(value, -6, 2) WHEN '_v' THEN substr(value, 1, length(value) - 6)
                                     ELSE value END
    FROM StringIds
  )
