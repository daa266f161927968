#!/usr/bin/env bash
# make demo: profile the bundled workload with gsys (NVTX + OS runtime; CUDA when a GPU is
# present), then print the default stats of the report.
set -euo pipefail
build=${1:-build}
gsys="$build/bin/gsys"
out="$build/demo"
mkdir -p "$out"
echo "== gsys profile -o $out/demo -- $build/bin/gsys_demo_workload"
"$gsys" profile --force-overwrite true -o "$out/demo" -- "$build/bin/gsys_demo_workload"
echo
echo "== gsys stats $out/demo.gsys-rep"
"$gsys" stats -r nvtx_sum,osrt_sum,cuda_api_sum,cuda_gpu_kern_sum "$out/demo.gsys-rep"
echo "== the report is SQLite in nsys's export schema:"
echo "   sqlite3 $out/demo.gsys-rep 'SELECT count(*) FROM NVTX_EVENTS'"
