-- Partial: CTEs `copy_kinds(id, label)` (ENUM_CUDA_MEMCPY_OPER) and `mem_kinds(id, label)`
-- (ENUM_CUDA_MEM_KIND). The values are identical in every export version; spelling them out
-- keeps the reports working on exports that lack the ENUM tables (2020.x).
  copy_kinds(id, label) AS (VALUES
    (0, 'Unknown'), (1, 'Host-to-Device'), (2, 'Device-to-Host'), (3, 'Host-to-Array'),
    (4, 'Array-to-Host'), (5, 'Array-to-Array'), (6, 'Array-to-Device'), (7, 'Device-to-Array'),
    (8, 'Device-to-Device'), (9, 'Host-to-Host'), (10, 'Peer-to-Peer'),
    (11, 'Unified Host-to-Device'), (12, 'Unified Device-to-Host'),
    (13, 'Unified Device-to-Device')),
  mem_kinds(id, label) AS (VALUES
    (0, 'Pageable'), (1, 'Pinned'), (2, 'Device'), (3, 'Array'), (4, 'Managed'),
    (5, 'Device Static'), (6, 'Managed Static'), (7, 'Unknown'))
