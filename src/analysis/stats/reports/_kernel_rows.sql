-- Partial, an inline subquery (see _kernels.sql): kernel rows with their grouping key `nameKey`.
{{#nvtx_name}}SELECT * FROM kernels_nvtx{{/nvtx_name}}{{^nvtx_name}}SELECT *, {{kernel_name}} AS nameKey FROM CUPTI_ACTIVITY_KIND_KERNEL{{/nvtx_name}}
