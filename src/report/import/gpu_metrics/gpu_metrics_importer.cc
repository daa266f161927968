// SPDX-License-Identifier: Apache-2.0
#include "report/import/gpu_metrics/gpu_metrics_importer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "format/gpu_metrics_file.h"
#include "format/session_files.h"

namespace gsys::report {
namespace {

// Opens a side file and reads its version from the first line. Returns false when there is
// nothing to read: no file, an empty one, or one this gsys cannot read (then counted and said
// in `out`). `*first` holds the first line when it is data (a version-1 file without header).
bool OpenSideFile(const std::string& dir, const char* name, const char* kind, std::ifstream* in,
                  format::GpuMetricsFileVersion* version, std::string* first,
                  GpuMetricsFiles* out) {
  // O_NONBLOCK and O_NOFOLLOW, then a regular file only: a FIFO at this name in a hostile
  // session directory hung the import, a link to /dev/zero would read one endless line.
  std::string path = dir + "/" + name;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    int err = errno;
    if (fd >= 0) ::close(fd);
    if (fd < 0 && err == ENOENT) return false;
    ++out->unreadable_files;
    out->warnings.push_back("gpu metrics: " + std::string(name) + " is not a regular file (" +
                            (fd < 0 ? std::string(std::strerror(err))
                                    : "a FIFO, device or "
                                      "directory") +
                            "); not read");
    return false;
  }
  // The file checked, through its descriptor (/proc); by name only where /proc is missing.
  in->open("/proc/self/fd/" + std::to_string(fd));
  if (!*in) in->open(path);
  ::close(fd);
  if (!*in || !std::getline(*in, *first)) return false;
  *version = format::ReadGpuMetricsVersion(*first, kind);
  if (!version->readable()) {
    ++out->unreadable_files;
    out->warnings.push_back(
        "gpu metrics: " + std::string(name) + " is not readable by this gsys (" +
        (version->version == 0 ? std::string("unrecognized header")
                               : "format version " + std::to_string(version->version)) +
        ", this gsys reads " + std::to_string(format::kMinReadableGpuMetricsVersion) + " to " +
        std::to_string(format::kGpuMetricsVersion) + "); its rows are not imported");
    return false;
  }
  if (version->header) first->clear();
  return true;
}

Status ImportDevices(Database& db, const std::string& dir, GpuMetricsFiles* out) {
  std::ifstream in;
  format::GpuMetricsFileVersion version;
  std::string line;
  if (!OpenSideFile(dir, format::kGpuMetricsDevicesFile, format::kGpuMetricsDevicesKind, &in,
                    &version, &line, out)) {
    return OkStatus();
  }
  GSYS_ASSIGN_OR_RETURN(Statement s,
                        db.Prepare("INSERT OR REPLACE INTO GSYS_GPU_METRICS_DEVICES"
                                   "(deviceId, name, uuid, busId) VALUES(?,?,?,NULL)"));
  do {
    auto d = format::ParseGpuMetricsDevice(line);
    if (!d) continue;
    GSYS_RETURN_IF_ERROR(s.BindInt(1, d->index));
    GSYS_RETURN_IF_ERROR(s.BindText(2, d->name));
    GSYS_RETURN_IF_ERROR(s.BindText(3, d->uuid));
    GSYS_RETURN_IF_ERROR(s.Step().status());
    GSYS_RETURN_IF_ERROR(s.Reset());
  } while (std::getline(in, line));
  return OkStatus();
}

}  // namespace

Result<GpuMetricsFiles> ImportGpuMetrics(Database& db, const std::string& session_dir,
                                         int64_t origin_ns) {
  GpuMetricsFiles out;
  GSYS_RETURN_IF_ERROR(ImportDevices(db, session_dir, &out));
  std::ifstream in;
  format::GpuMetricsFileVersion version;
  std::string line;
  if (!OpenSideFile(session_dir, format::kGpuMetricsFile, format::kGpuMetricsKind, &in, &version,
                    &line, &out)) {
    return out;
  }
  GSYS_ASSIGN_OR_RETURN(
      Statement s,
      db.Prepare(
          "INSERT INTO GSYS_GPU_METRICS(timestamp, deviceId, gpuUtilization, memoryUtilization, "
          "smClockMHz, memoryClockMHz, memoryUsedBytes, memoryTotalBytes, powerMilliwatts, "
          "temperatureC, pcieTxKBps, pcieRxKBps, nvlinkTxBytes, nvlinkRxBytes, smActivePercent, "
          "smOccupancyPercent, tensorActivePercent, dramBandwidthPercent)"
          " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  do {
    // A line that is no sample (cut short by a killed launcher) is skipped.
    auto sample = format::ParseGpuMetricsSample(line, version.version);
    if (!sample) continue;
    GSYS_RETURN_IF_ERROR(s.BindInt(1, sample->timestamp_ns - origin_ns));
    GSYS_RETURN_IF_ERROR(s.BindInt(2, sample->device));
    int col = 3;
    for (const auto& c : sample->counters) {
      GSYS_RETURN_IF_ERROR(c ? s.BindInt(col, *c) : s.BindNull(col));
      ++col;
    }
    for (const auto& p : sample->percents) {
      GSYS_RETURN_IF_ERROR(p ? s.BindDouble(col, *p) : s.BindNull(col));
      ++col;
    }
    GSYS_RETURN_IF_ERROR(s.Step().status());
    GSYS_RETURN_IF_ERROR(s.Reset());
    ++out.rows;
  } while (std::getline(in, line));
  return out;
}

}  // namespace gsys::report
