#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Serving mode on a GPU (issue 7): a small PyTorch HTTP server (one NVTX range and a few CUDA
# kernels per request) under `gsys wrap`, driven by a load generator before, during and after
# one capture window. Prints requests ok/failed, the report, its kernel and NVTX counts, and
# whether the server still answered after the window.
#
# usage: bench/serving_gpu.sh BUILD_DIR OUT_DIR      (needs python3 with torch and a GPU)
set -euo pipefail
BUILD=$(realpath "$1")
OUT=$(realpath -m "$2")
mkdir -p "$OUT"
rm -rf "$OUT/reports" "$OUT/upload" "$OUT/sessions" "$OUT/port"
mkdir -p "$OUT/reports"

cat > "$OUT/torch_server.py" <<'PY'
import http.server, os, sys, torch
port_file = sys.argv[1]
dev = torch.device("cuda")
model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 1024)).to(dev)
x = torch.randn(64, 1024, device=dev)
with torch.no_grad():
    for _ in range(20):
        model(x)
torch.cuda.synchronize()

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    def do_GET(self):
        torch.cuda.nvtx.range_push("request")
        with torch.no_grad():
            y = model(x).sum().item()
        torch.cuda.nvtx.range_pop()
        body = ("%f\n" % y).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass

srv = http.server.HTTPServer(("127.0.0.1", 0), H)
with open(port_file + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(port_file + ".tmp", port_file)
srv.serve_forever()
PY

export GSYS_SESSIONS_DIR="$OUT/sessions"
GSYS_PROFILE=1 GSYS_PROFILE_DELAY=${DELAY:-20} GSYS_PROFILE_DURATION=${DURATION:-5} \
GSYS_PROFILE_OUTPUT="$OUT/reports/" GSYS_PROFILE_UPLOAD="file://$OUT/upload/" \
  "$BUILD/bin/gsys" wrap -- python3 "$OUT/torch_server.py" "$OUT/port" \
  > "$OUT/server.stdout" 2> "$OUT/gsys.stderr" &
GSYS_PID=$!

python3 - "$OUT" "$GSYS_PID" <<'PY'
import glob, http.client, os, signal, sqlite3, sys, time
out, gsys_pid = sys.argv[1], int(sys.argv[2])
deadline = time.time() + 180
while not os.path.exists(os.path.join(out, "port")):
    if time.time() > deadline:
        sys.exit("server did not start (see gsys.stderr)")
    time.sleep(0.2)
port = int(open(os.path.join(out, "port")).read())
ok = failed = after_ok = 0
conn = None
def one():
    global conn
    try:
        if conn is None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/infer")
        r = conn.getresponse()
        r.read()
        return r.status == 200
    except OSError:
        conn = None
        return False
report = None
while time.time() < deadline:
    if one(): ok += 1
    else: failed += 1
    reps = glob.glob(os.path.join(out, "reports", "*.gsys-rep"))
    if reps:
        report = reps[0]
        break
t_end = time.time() + 3  # after the window: the server must keep answering
while time.time() < t_end:
    if one():
        ok += 1
        after_ok += 1
    else:
        failed += 1
os.kill(gsys_pid, signal.SIGTERM)
print(f"requests ok: {ok}  failed: {failed}  answered after the window: {after_ok}")
if report is None:
    sys.exit("no report was written (see gsys.stderr)")
db = sqlite3.connect(report)
def count(sql):
    try:
        return db.execute(sql).fetchone()[0]
    except sqlite3.Error:
        return 0
print(f"report: {report}")
print(f"kernels in the report: {count('SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')}")
print(f"CUDA API calls: {count('SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME')}")
print(f"request ranges (NVTX): {count('SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59')}")
PY
set +e
wait "$GSYS_PID"
echo "gsys wrap exit code: $?"
echo "uploaded: $(ls "$OUT/upload" 2>/dev/null | tr '\n' ' ')"
echo "--- gsys.stderr"
cat "$OUT/gsys.stderr"
