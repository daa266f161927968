// SPDX-License-Identifier: Apache-2.0
#include "launcher/gpu_metrics.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <optional>

#include "format/gpu_metrics_file.h"
#include "format/session_files.h"
#include "launcher/launcher.h"

namespace gsys::launcher {

// The NVML entry points used (nvml.h's signatures, with opaque handles and plain structs).
struct GpuMetricsSampler::Api {
  struct Utilization {
    unsigned int gpu, memory;
  };
  struct Memory {
    unsigned long long total, free, used;
  };
  int (*init)();
  int (*shutdown)();
  int (*count)(unsigned int*);
  int (*handle)(unsigned int, void**);
  int (*name)(void*, char*, unsigned int);
  int (*uuid)(void*, char*, unsigned int);
  int (*utilization)(void*, Utilization*);
  int (*clock)(void*, int, unsigned int*);
  int (*memory)(void*, Memory*);
  int (*power)(void*, unsigned int*);
  int (*temperature)(void*, int, unsigned int*);
  int (*pcie)(void*, int, unsigned int*);
};

namespace {

template <typename F>
bool Load(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  return *out != nullptr;
}

// `v` when the NVML call succeeded, else not reported (NULL in the report).
std::optional<int64_t> Field(int rc, unsigned long long v) {
  return rc == 0 ? std::optional<int64_t>(static_cast<int64_t>(v)) : std::nullopt;
}
// A cached reading: not reported while unread or unsupported (negative).
std::optional<int64_t> Field(int64_t cached) {
  return cached >= 0 ? std::optional<int64_t>(cached) : std::nullopt;
}

void WriteAll(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = write(fd, s.data() + off, s.size() - off);
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

}  // namespace

bool GpuMetricsSampler::Start(const GpuMetricsOptions& o, std::string* why) {
  lib_ = dlopen(o.nvml_library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib_ == nullptr) {
    *why = "cannot load " + o.nvml_library + " (no NVIDIA driver?)";
    return false;
  }
  api_ = new Api();
  Api& a = *api_;
  bool ok = Load(lib_, "nvmlInit_v2", &a.init) && Load(lib_, "nvmlShutdown", &a.shutdown) &&
            Load(lib_, "nvmlDeviceGetCount_v2", &a.count) &&
            Load(lib_, "nvmlDeviceGetHandleByIndex_v2", &a.handle) &&
            Load(lib_, "nvmlDeviceGetName", &a.name) && Load(lib_, "nvmlDeviceGetUUID", &a.uuid) &&
            Load(lib_, "nvmlDeviceGetUtilizationRates", &a.utilization) &&
            Load(lib_, "nvmlDeviceGetClockInfo", &a.clock) &&
            Load(lib_, "nvmlDeviceGetMemoryInfo", &a.memory) &&
            Load(lib_, "nvmlDeviceGetPowerUsage", &a.power) &&
            Load(lib_, "nvmlDeviceGetTemperature", &a.temperature) &&
            Load(lib_, "nvmlDeviceGetPcieThroughput", &a.pcie);
  unsigned int count = 0;
  if (!ok || a.init() != 0 || a.count(&count) != 0 || count == 0) {
    *why = ok ? "NVML sees no GPU" : "NVML lacks a function gsys needs";
    return false;
  }
  std::vector<int> wanted = o.devices;
  if (wanted.empty()) {
    for (unsigned int i = 0; i < count; ++i) wanted.push_back(static_cast<int>(i));
  }
  std::string devices = format::GpuMetricsHeader(format::kGpuMetricsDevicesKind);
  for (int i : wanted) {
    void* h = nullptr;
    if (i < 0 || static_cast<unsigned int>(i) >= count ||
        a.handle(static_cast<unsigned int>(i), &h) != 0) {
      *why =
          "GPU " + std::to_string(i) + " does not exist (NVML sees " + std::to_string(count) + ")";
      return false;
    }
    handles_.push_back(h);
    indexes_.push_back(i);
    char name[96] = {}, uuid[96] = {};
    a.name(h, name, sizeof(name));
    a.uuid(h, uuid, sizeof(uuid));
    devices += format::FormatGpuMetricsDevice({i, name, uuid});
  }
  std::string dir = o.session_dir + "/";
  std::string devices_path = dir + format::kGpuMetricsDevicesFile;
  int dfd = open(devices_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (dfd >= 0) {
    WriteAll(dfd, devices);
    close(dfd);
  }
  std::string samples_path = dir + format::kGpuMetricsFile;
  fd_ = open(samples_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    *why = "cannot create " + samples_path;
    return false;
  }
  WriteAll(fd_, format::GpuMetricsHeader(format::kGpuMetricsKind));
  period_ns_ = 1000000000LL / (o.frequency_hz > 0 ? o.frequency_hz : 10);
  pcie_tx_ = std::make_unique<std::atomic<int64_t>[]>(handles_.size());
  pcie_rx_ = std::make_unique<std::atomic<int64_t>[]>(handles_.size());
  for (size_t d = 0; d < handles_.size(); ++d) {
    pcie_tx_[d] = -1;
    pcie_rx_[d] = -1;
  }
  ReadPcieOnce();
  activity_.Begin(lib_, handles_);
  pcie_thread_ = std::thread([this] { RunPcie(); });
  thread_ = std::thread([this] { Run(); });
  return true;
}

void GpuMetricsSampler::ReadPcieOnce() {
  for (size_t d = 0; d < handles_.size(); ++d) {
    unsigned int tx = 0, rx = 0;
    int txrc = api_->pcie(handles_[d], 0, &tx), rxrc = api_->pcie(handles_[d], 1, &rx);
    pcie_tx_[d].store(txrc == 0 ? static_cast<int64_t>(tx) : -1, std::memory_order_relaxed);
    pcie_rx_[d].store(rxrc == 0 ? static_cast<int64_t>(rx) : -1, std::memory_order_relaxed);
  }
}

void GpuMetricsSampler::RunPcie() {
  constexpr int64_t kPcieEveryNs = 250000000;
  while (!stop_.load(std::memory_order_relaxed)) {
    for (int64_t slept = 0; slept < kPcieEveryNs && !stop_.load(std::memory_order_relaxed);
         slept += 10000000) {
      timespec ts{0, 10000000};
      nanosleep(&ts, nullptr);
    }
    if (!stop_.load(std::memory_order_relaxed)) ReadPcieOnce();
  }
}

void GpuMetricsSampler::Run() {
  Api& a = *api_;
  int64_t next = MonotonicNowNs();
  while (!stop_.load(std::memory_order_relaxed)) {
    std::string lines;
    int64_t now = MonotonicNowNs();
    for (size_t d = 0; d < handles_.size(); ++d) {
      void* h = handles_[d];
      Api::Utilization u{};
      Api::Memory m{};
      unsigned int sm = 0, mem = 0, power = 0, temp = 0;
      // Every call before any value is read: argument evaluation order is unspecified.
      int urc = a.utilization(h, &u);
      int src = a.clock(h, 1, &sm), mrc_clock = a.clock(h, 2, &mem);
      int mrc = a.memory(h, &m);
      int prc = a.power(h, &power), trc = a.temperature(h, 0, &temp);
      int64_t tx = pcie_tx_[d].load(std::memory_order_relaxed);
      int64_t rx = pcie_rx_[d].load(std::memory_order_relaxed);
      format::GpuMetricsSample s;
      s.timestamp_ns = now;
      s.device = indexes_[d];
      const std::optional<int64_t> counters[] = {Field(urc, u.gpu),  Field(urc, u.memory),
                                                 Field(src, sm),     Field(mrc_clock, mem),
                                                 Field(mrc, m.used), Field(mrc, m.total),
                                                 Field(prc, power),  Field(trc, temp),
                                                 Field(tx),          Field(rx)};
      std::copy(std::begin(counters), std::end(counters), s.counters);
      activity_.Read(d, &s);  // NVLink (the last two counters) and the GPM percentages
      lines += format::FormatGpuMetricsSample(s);
    }
    WriteAll(fd_, lines);
    ++samples_;
    next += period_ns_;
    int64_t wait = next - MonotonicNowNs();
    if (wait < 0) {
      next = MonotonicNowNs();  // fell behind (slow NVML call): do not burst to catch up
      continue;
    }
    timespec ts{static_cast<time_t>(wait / 1000000000), static_cast<long>(wait % 1000000000)};
    nanosleep(&ts, nullptr);
  }
}

uint64_t GpuMetricsSampler::Stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  if (pcie_thread_.joinable()) pcie_thread_.join();
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  activity_.End();
  if (api_ != nullptr && api_->shutdown != nullptr && !handles_.empty()) api_->shutdown();
  handles_.clear();
  delete api_;
  api_ = nullptr;
  if (lib_ != nullptr) dlclose(lib_);
  lib_ = nullptr;
  return samples_;
}

}  // namespace gsys::launcher
