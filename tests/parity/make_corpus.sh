#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates the parity corpus (tests/parity/README.md) in one GPU-machine call, from the
# repository root, with gsys's release binaries carried in parity-bin/ (bin/gsys, lib/*) and
# libdw/libelf for nsys's importer in third_party_dl/root:
#   bash tests/parity/make_corpus.sh OUTDIR
# For every program of CAPTURES it captures once with nsys (then `nsys export`-equivalent
# --export sqlite) and once with gsys, the same options, and runs nsys's `stats` (every report as
# csv, one file per report; the default console text) and `analyze` (every rule as csv; the
# console text) on both files. OUTDIR gets corpus.tar.xz (tests/parity/corpus/ as committed) and
# a log; nothing is timed here.
set -u
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
ROOT=$PWD
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
NSYS_LIBS=$ROOT/third_party_dl/root/usr/lib/x86_64-linux-gnu
GSYS=$ROOT/parity-bin/bin/gsys
W=$(mktemp -d /tmp/gsys-parity-XXXXXX)
C=$W/corpus
mkdir -p "$W/progs" "$C"
LOG=$OUT/make_corpus.log
log() { echo "$*" | tee -a "$LOG"; }
# The device machine may lack the sqlite3, xz and bc tools: Python does those steps.
compact_xz() { python3 -c 'import lzma, shutil, sqlite3, sys
db = sqlite3.connect(sys.argv[1]); db.execute("VACUUM"); db.close()
with open(sys.argv[1], "rb") as f, lzma.open(sys.argv[2], "wb", preset=9) as out: shutil.copyfileobj(f, out)' "$1" "$2"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# A command, not a function: `timeout` runs it. Only nsys gets the libraries.
NSYSRUN="env LD_LIBRARY_PATH=$NSYS_LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} $NSYS"
nsys() { $NSYSRUN "$@"; }

P=$ROOT/tests/parity/progs
for prog in nvtx_shapes copies_streams cuda_graph two_process cublas_gemm; do
  extra=""; [ "$prog" = cublas_gemm ] && extra=-lcublas
  nvcc -O2 -std=c++17 -o "$W/progs/$prog" "$P/$prog.cu" $extra >> "$LOG" 2>&1 || log "build $prog FAILED"
done
cp "$P/torch_train.py" "$W/progs/"

# name | trace list | other capture options (both tools) | command (in $W/progs)
CAPTURES=(
  "nvtx_shapes|cuda,nvtx||./nvtx_shapes"
  "copies_streams|cuda,nvtx,osrt||./copies_streams"
  "cuda_graph_graph|cuda,nvtx|--cuda-graph-trace=graph|./cuda_graph"
  "cuda_graph_node|cuda,nvtx|--cuda-graph-trace=node|./cuda_graph"
  "two_process|cuda,nvtx,osrt||./two_process"
  "cublas_gemm|cuda,nvtx,cublas||./cublas_gemm"
  "torch_train|cuda,nvtx,osrt,cudnn,cublas|--pytorch=autograd-nvtx|python3 torch_train.py 6"
)

{ nvidia-smi -L; nsys --version; "$GSYS" --version; git -C "$ROOT" rev-parse --short HEAD
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'; } > "$C/MACHINE.txt" 2>&1
cat "$C/MACHINE.txt" | tee -a "$LOG"

# Reports: every built-in report of this nsys, plus the name variants users pass.
REPORTS=$(nsys stats --help-reports 2>/dev/null | sed -n 's/^  \([a-z0-9_]\+\)\(\[.*\)\? .*/\1/p' | sort -u | tr '\n' ',')
nsys stats --help-reports > "$C/nsys_help_reports.txt" 2>&1
nsys analyze --help-rules > "$C/nsys_help_rules.txt" 2>&1
if [ "$(echo "$REPORTS" | tr ',' '\n' | grep -c .)" -lt 30 ]; then  # the help's layout changed
  REPORTS="cuda_api_gpu_sum,cuda_api_sum,cuda_api_trace,cuda_gpu_kern_gb_sum,cuda_gpu_kern_sum,cuda_gpu_mem_size_sum,cuda_gpu_mem_time_sum,cuda_gpu_sum,cuda_gpu_trace,cuda_kern_exec_sum,cuda_kern_exec_trace,dx11_pix_sum,dx12_gpu_marker_sum,dx12_pix_sum,mpi_event_sum,mpi_event_trace,mpi_msg_size_sum,network_congestion,nvtx_gpu_proj_sum,nvtx_gpu_proj_trace,nvtx_kern_sum,nvtx_pushpop_sum,nvtx_pushpop_trace,nvtx_startend_sum,nvtx_sum,nvvideo_api_sum,openacc_sum,opengl_khr_gpu_range_sum,opengl_khr_range_sum,openmp_sum,osrt_sum,syscall_sum,um_cpu_page_faults_sum,um_sum,um_total_sum,vulkan_api_sum,vulkan_api_trace,vulkan_gpu_marker_sum,vulkan_marker_sum,wddm_queue_sum,"
fi
REPORTS=${REPORTS}cuda_gpu_kern_sum:base,cuda_gpu_kern_sum:nvtx-name,cuda_gpu_trace:nvtx-name
log "reports: $REPORTS"
RULES=$(nsys analyze --help-rules 2>/dev/null | sed -n 's/^  \([a-z0-9_]\+\) .*/\1/p' | sort -u | tr '\n' ',' | sed 's/,$//')
[ -n "$RULES" ] || RULES=cuda_memcpy_async,cuda_memcpy_sync,cuda_memset_sync,cuda_api_sync,gpu_gaps,gpu_time_util
log "rules: $RULES"

# nsys's outputs on one SQLite file: run beside it with its bare name, so the console text names
# no directory.
client_outputs() {  # DIR FILE.sqlite
  local dir=$1 file=$2
  mkdir -p "$dir/stats" "$dir/analyze"
  ( cd "$dir" && cp "$3" "$file" &&
    timeout 240 $NSYSRUN stats -r "$REPORTS" -f csv -o stats/r --force-overwrite true "$file" > stats_run.txt 2>&1
    echo "rc=$?" >> stats_run.txt
    timeout 120 $NSYSRUN stats "$file" > stats_console.txt 2>&1; echo "rc=$?" >> stats_console.txt
    timeout 120 $NSYSRUN analyze -r "$RULES" -f csv -o analyze/r --force-overwrite true "$file" > analyze_run.txt 2>&1
    echo "rc=$?" >> analyze_run.txt
    timeout 120 $NSYSRUN analyze "$file" > analyze_console.txt 2>&1; echo "rc=$?" >> analyze_console.txt
    rm -f "$file" )
}

pids=()
for entry in "${CAPTURES[@]}"; do
  IFS='|' read -r name trace opts cmd <<< "$entry"
  d=$C/$name
  mkdir -p "$d"
  echo "nsys profile -t $trace -s none --cpuctxsw none $opts -- $cmd" > "$d/CAPTURE.txt"
  echo "gsys profile -t $trace $opts -- $cmd" >> "$d/CAPTURE.txt"
  t0=$(now_ms)
  (cd "$W/progs" && timeout 180 $NSYSRUN profile -t "$trace" -s none --cpuctxsw none $opts -f true \
     -o "$W/n_$name" --export sqlite $cmd) > "$d/nsys_profile.txt" 2>&1
  t1=$(now_ms)
  (cd "$W/progs" && timeout 180 "$GSYS" profile -t "$trace" $opts -f true -o "$W/g_$name" $cmd) \
     > "$d/gsys_profile.txt" 2>&1
  t2=$(now_ms)
  log "$name: nsys $(test -s "$W/n_$name.sqlite" && echo ok || echo MISSING) $((t1 - t0)) ms," \
      "gsys $(test -s "$W/g_$name.gsys-rep" && echo ok || echo MISSING) $((t2 - t1)) ms"
  # The corpus keeps the files compacted and xz-compressed (tests/parity/corpus.py reads them).
  if [ -s "$W/n_$name.sqlite" ]; then
    compact_xz "$W/n_$name.sqlite" "$d/nsys.sqlite.xz"
    client_outputs "$d/nsys-on-nsys" "$name.sqlite" "$W/n_$name.sqlite" &
    pids+=($!)
  fi
  if [ -s "$W/g_$name.gsys-rep" ]; then
    compact_xz "$W/g_$name.gsys-rep" "$d/gsys.gsys-rep.xz"
    client_outputs "$d/nsys-on-gsys" "$name.sqlite" "$W/g_$name.gsys-rep" &
    pids+=($!)
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
log "clients done"
for d in "$C"/*/; do
  for client in nsys-on-nsys nsys-on-gsys; do
    [ -d "$d$client" ] || continue
    log "$(basename "$d") $client: $(ls "$d$client/stats" | wc -l) stats files, $(ls "$d$client/analyze" | wc -l) analyze files, $(grep -h '^rc=' "$d$client"/*.txt | tr '\n' ' ')"
  done
done
# Overhead side by side: wall time of the whole run (tool start-up and report writing included),
# no tool / gsys / nsys interleaved, 5 repetitions, on two of the programs; medians in the log.
for rep in 1 2 3 4 5; do
  for prog in nvtx_shapes copies_streams; do
    for tool in none gsys nsys; do
      t0=$(now_ms)
      case $tool in
        none) (cd "$W/progs" && ./$prog) > /dev/null 2>&1 ;;
        gsys) (cd "$W/progs" && "$GSYS" profile -t cuda,nvtx,osrt -f true -o "$W/ovh_g" ./$prog) > /dev/null 2>&1 ;;
        nsys) (cd "$W/progs" && $NSYSRUN profile -t cuda,nvtx,osrt -s none --cpuctxsw none -f true \
                 -o "$W/ovh_n" ./$prog) > /dev/null 2>&1 ;;
      esac
      echo "$prog $tool $rep $(( $(now_ms) - t0 ))" >> "$OUT/overhead.txt"
    done
  done
done
python3 - "$OUT/overhead.txt" <<'PY' | tee -a "$LOG"
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    prog, tool, _, ms = line.split()
    runs[(prog, tool)].append(int(ms))
for prog in sorted({p for p, _ in runs}):
    print(prog, " ".join(f"{t} {statistics.median(runs[(prog, t)])} ms" for t in ("none", "gsys", "nsys")),
          "(median wall time of 5, whole run)")
PY
du -sh "$C" | tee -a "$LOG"
tar -C "$W" -cf - corpus | python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(sys.stdin.buffer, lzma.open(sys.argv[1], "wb", preset=6))' "$OUT/corpus.tar.xz"
ls -la "$OUT" | tee -a "$LOG"
