#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""--gpu-metrics-devices / --gpu-metrics-frequency without a GPU (issue 10 item 3): gsys profile
samples a fake NVML (progs/fake_nvml.cc through GSYS_NVML_LIBRARY) and GSYS_GPU_METRICS holds its
exact values, per device, on the session timeline, never faster than the requested rate.
No NVML → one notice and the profile goes on; bad values → one-line error, exit code 2."""
import argparse, os, sqlite3, subprocess, sys, tempfile

FAILURES = []


def check(cond, msg):
    print(("ok:   " if cond else "FAIL: ") + msg)
    if not cond:
        FAILURES.append(msg)


def profile(args, tmp, name, flags, nvml=None, cmd=("sleep", "1")):
    env = dict(os.environ)
    env["GSYS_NVML_LIBRARY"] = nvml or args.nvml
    report = os.path.join(tmp, name + ".gsys-rep")
    r = subprocess.run([args.gsys, "profile", "-t", "osrt", "-f", "true", "-o", report, *flags, *cmd],
                       capture_output=True, text=True, env=env, timeout=120)
    return r, report


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--nvml", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gsys-metrics-") as tmp:
        hz = 20
        r, report = profile(args, tmp, "all", ["--gpu-metrics-devices=all", "--gpu-metrics-frequency=%d" % hz])
        check(r.returncode == 0, "profile exit %d %s" % (r.returncode, r.stderr[-800:]))
        db = sqlite3.connect(report)
        rows = db.execute("SELECT deviceId, count(*) FROM GSYS_GPU_METRICS GROUP BY 1").fetchall()
        check(len(rows) == 2 and rows[0][1] == rows[1][1] and rows[0][1] >= 2, "both devices sampled equally: %s" % rows)
        want = {d: (40 + d, 10 + d, 1980, 2619, (d + 1) << 30, 80 << 30, 123456, 50 + d, 1000, 2000) for d in (0, 1)}
        bad = [row for row in db.execute(
            "SELECT deviceId, gpuUtilization, memoryUtilization, smClockMHz, memoryClockMHz, memoryUsedBytes, "
            "memoryTotalBytes, powerMilliwatts, temperatureC, pcieTxKBps, pcieRxKBps FROM GSYS_GPU_METRICS")
            if tuple(row[1:]) != want[row[0]]]
        check(not bad, "every sample has the fake NVML's values (%d differ)" % len(bad))
        # NVLink bytes since the start (fake: +5/+7 KiB per read on GPU 0, none on GPU 1) and the
        # GPM percentages (fake: fixed on GPU 0, unsupported on GPU 1).
        link = db.execute("SELECT nvlinkTxBytes, nvlinkRxBytes FROM GSYS_GPU_METRICS WHERE deviceId = 0 "
                          "ORDER BY timestamp").fetchall()
        check(link == [(5 * 1024 * i, 7 * 1024 * i) for i in range(1, len(link) + 1)],
              "GPU 0 NVLink bytes since start: %s" % link[:3])
        gpm = db.execute("SELECT DISTINCT smActivePercent, smOccupancyPercent, tensorActivePercent, "
                         "dramBandwidthPercent FROM GSYS_GPU_METRICS WHERE deviceId = 0").fetchall()
        check(gpm == [(61.5, 33.25, 12.5, 44.0)], "GPU 0 GPM percentages: %s" % gpm)
        nulls = db.execute("SELECT count(*) FROM GSYS_GPU_METRICS WHERE deviceId = 1 AND coalesce(nvlinkTxBytes, "
                           "nvlinkRxBytes, smActivePercent, smOccupancyPercent, tensorActivePercent, "
                           "dramBandwidthPercent) IS NOT NULL").fetchone()[0]
        check(nulls == 0, "GPU 1 without NVLink or GPM: NULL (%d rows not)" % nulls)
        # The summary page charts and tabulates them.
        page = os.path.join(tmp, "all.html")
        rs = subprocess.run([args.gsys, "summary", report, "-o", page], capture_output=True, text=True, timeout=120)
        html = open(page, encoding="utf-8").read() if rs.returncode == 0 else ""
        check(rs.returncode == 0 and "Sampled GPU metrics" in html and "GPU 0 (Fake GPU 0): activity (%)" in html
              and "SM active" in html and "NVLink TX" in html, "summary page shows the sampled metrics (%d)" % rs.returncode)
        devices = db.execute("SELECT deviceId, name, uuid FROM GSYS_GPU_METRICS_DEVICES ORDER BY 1").fetchall()
        check(devices == [(0, "Fake GPU 0", "GPU-fake-0"), (1, "Fake GPU 1", "GPU-fake-1")], "devices %s" % devices)
        ts = [t for (t,) in db.execute("SELECT timestamp FROM GSYS_GPU_METRICS WHERE deviceId = 0 ORDER BY rowid")]
        check(all(b > a for a, b in zip(ts, ts[1:])), "timestamps strictly increase")
        duration = db.execute("SELECT duration FROM ANALYSIS_DETAILS").fetchone()[0]
        check(ts[0] >= 0 and ts[-1] <= duration + 10**9, "samples on the session timeline (0..%d): %d..%d" % (duration, ts[0], ts[-1]))
        # Never faster than asked (the sampler sleeps to absolute deadlines and never bursts).
        span = (ts[-1] - ts[0]) / 1e9
        rate = (len(ts) - 1) / span if span > 0 else 0
        check(rate <= hz * 1.05, "rate %.1f Hz <= %d Hz" % (rate, hz))
        check("GPU metrics: %d samples" % (2 * len(ts)) in r.stderr, "summary line: " + r.stderr[-300:])

        r, report = profile(args, tmp, "one", ["--gpu-metrics-devices=1"])
        rows = sqlite3.connect(report).execute("SELECT DISTINCT deviceId FROM GSYS_GPU_METRICS").fetchall()
        check(r.returncode == 0 and rows == [(1,)], "--gpu-metrics-devices=1 samples only GPU 1: %s" % rows)

        r, report = profile(args, tmp, "nolib", ["--gpu-metrics-devices=all"], nvml="/nonexistent/libnvidia-ml.so.1")
        notices = [l for l in r.stderr.splitlines() if "GPU metrics are not sampled" in l]
        check(r.returncode == 0 and len(notices) == 1 and os.path.exists(report),
              "no NVML: one notice, report written (%s)" % notices)

        r, report = profile(args, tmp, "nodev", ["--gpu-metrics-devices=5"])
        check(r.returncode == 0 and "GPU 5 does not exist" in r.stderr, "missing GPU: notice, profile goes on")

        for flag in ("--gpu-metrics-frequency=0", "--gpu-metrics-devices=x"):
            r, _ = profile(args, tmp, "bad", [flag])
            lines = [l for l in r.stderr.splitlines() if l.strip()]
            check(r.returncode != 0 and len(lines) == 1 and "profile:" in lines[0], "%s: one-line error (%s)" % (flag, lines))
    print("%d failure(s)" % len(FAILURES) if FAILURES else "ok")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
