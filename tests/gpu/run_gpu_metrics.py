#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""GPU metrics on a real GPU (issue 10 item 3), run by the lead on the H200: `gsys profile
--gpu-metrics-devices=all --gpu-metrics-frequency=HZ` at 10 and 100 Hz over a 3 s program
(progs/libapi_gemm_conv when built, else `sleep 3`). Checks every device is sampled, the achieved
rate is within 10% of the request (printed), the values are plausible (memory total > 0, clocks
> 0, utilization 0..100) and every metric NVML offers is filled. Exits 77 without a GPU."""
import argparse, os, shutil, sqlite3, subprocess, sys, tempfile
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import report_db  # noqa: E402  (tests/lib: absent tables read as empty)

FAILURES = []


def check(cond, msg):
    print(("ok:   " if cond else "FAIL: ") + msg)
    if not cond:
        FAILURES.append(msg)


def hopper_seen(gsys, tmp):
    """True when GPU 0 reports GPM percentages (Hopper and newer)."""
    report = os.path.join(tmp, "probe.gsys-rep")
    subprocess.run([gsys, "profile", "-t", "cuda", "-f", "true", "-o", report, "--gpu-metrics-devices=0",
                    "sleep", "0.5"], capture_output=True, timeout=60)
    try:
        return report_db.connect(report).execute(
            "SELECT count(smActivePercent) FROM GSYS_GPU_METRICS").fetchone()[0] > 0
    except sqlite3.Error:
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--seconds", type=float, default=3)
    args = ap.parse_args()
    smi = shutil.which("nvidia-smi")
    if not smi or "GPU" not in subprocess.run([smi, "-L"], capture_output=True, text=True).stdout:
        print("SKIPPED: no NVIDIA GPU visible (nvidia-smi -L)")
        return 77
    gpus = len([l for l in subprocess.run([smi, "-L"], capture_output=True, text=True).stdout.splitlines() if l.startswith("GPU")])
    with tempfile.TemporaryDirectory(prefix="gsys-metrics-gpu-") as tmp:
        for hz in (10, 100):
            report = os.path.join(tmp, "m%d.gsys-rep" % hz)
            r = subprocess.run([args.gsys, "profile", "-t", "cuda", "-f", "true", "-o", report,
                                "--gpu-metrics-devices=all", "--gpu-metrics-frequency=%d" % hz,
                                "sleep", str(args.seconds)], capture_output=True, text=True, timeout=120)
            check(r.returncode == 0, "%d Hz: gsys profile exit %d %s" % (hz, r.returncode, r.stderr[-500:]))
            db = report_db.connect(report)
            per_dev = db.execute("SELECT deviceId, count(*), min(timestamp), max(timestamp) FROM GSYS_GPU_METRICS GROUP BY 1").fetchall()
            check(len(per_dev) == gpus, "%d Hz: %d of %d GPUs sampled" % (hz, len(per_dev), gpus))
            for dev, n, t0, t1 in per_dev:
                rate = (n - 1) / ((t1 - t0) / 1e9) if t1 > t0 else 0
                check(abs(rate - hz) <= 0.1 * hz, "%d Hz: GPU %d achieved %.2f Hz (%d samples)" % (hz, dev, rate, n))
            bad = db.execute("SELECT count(*) FROM GSYS_GPU_METRICS WHERE memoryTotalBytes <= 0 OR smClockMHz <= 0 "
                             "OR gpuUtilization NOT BETWEEN 0 AND 100 OR memoryUtilization NOT BETWEEN 0 AND 100").fetchone()[0]
            check(bad == 0, "%d Hz: values plausible (%d rows not)" % (hz, bad))
            nulls = db.execute("SELECT sum(powerMilliwatts IS NULL), sum(temperatureC IS NULL), sum(pcieTxKBps IS NULL) "
                               "FROM GSYS_GPU_METRICS").fetchone()
            print("%d Hz: NULL power/temperature/PCIe samples: %s" % (hz, nulls))
            # NVLink counters and GPM (Hopper and newer): filled, and percentages within 0..100.
            hopper = [d for (d, name) in db.execute("SELECT deviceId, name FROM GSYS_GPU_METRICS_DEVICES")
                      if any(k in name for k in ("H100", "H200", "H800", "H20", "B200", "GB200"))]
            for dev in hopper:
                n, gpm, bad_pct, link = db.execute(
                    "SELECT count(*), count(smActivePercent), sum(coalesce(smActivePercent, 0) NOT BETWEEN 0 AND 100 "
                    "OR coalesce(dramBandwidthPercent, 0) NOT BETWEEN 0 AND 100 OR coalesce(tensorActivePercent, 0) "
                    "NOT BETWEEN 0 AND 100), count(nvlinkTxBytes) FROM GSYS_GPU_METRICS WHERE deviceId = ?", (dev,)).fetchone()
                check(gpm == n and bad_pct == 0, "%d Hz: GPU %d GPM percentages in every sample (%d of %d), in 0..100" % (hz, dev, gpm, n))
                print("%d Hz: GPU %d NVLink counters in %d of %d samples" % (hz, dev, link, n))
            print(db.execute("SELECT * FROM GSYS_GPU_METRICS LIMIT 2").fetchall())
        # One block spinning for 2 s (torch.cuda._sleep): NVML calls the GPU busy, GPM sees one SM
        # of 132 active; low_sm_activity must say so. Hopper and newer only (GPM).
        has_torch = subprocess.run(["python3", "-c", "import torch; assert torch.cuda.is_available()"],
                                   capture_output=True).returncode == 0
        if has_torch and hopper_seen(args.gsys, tmp):
            report = os.path.join(tmp, "spin.gsys-rep")
            spin = ("import torch; torch.cuda.init(); torch.cuda._sleep(10); torch.cuda.synchronize()\n"
                    "import time; t = time.time()\n"
                    "while time.time() - t < 2.5:\n"
                    "    torch.cuda._sleep(50_000_000); torch.cuda.synchronize()\n")
            r = subprocess.run([args.gsys, "profile", "-t", "cuda", "-f", "true", "-o", report,
                                "--gpu-metrics-devices=0", "--gpu-metrics-frequency=20", "python3", "-c", spin],
                               capture_output=True, text=True, timeout=120)
            check(r.returncode == 0, "spin kernel: profile exit %d %s" % (r.returncode, r.stderr[-300:]))
            a = subprocess.run([args.gsys, "analyze", "-r", "low_sm_activity", "--format", "csv", report],
                               capture_output=True, text=True, timeout=60)
            print(a.stdout[-1500:])
            rows = [l for l in a.stdout.splitlines() if l and l[0].isdigit()]
            check(a.returncode == 0 and len(rows) == 1, "low_sm_activity flags the one-block spin on GPU 0: %s" % rows)
    print("%d failure(s)" % len(FAILURES) if FAILURES else "all checks passed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
