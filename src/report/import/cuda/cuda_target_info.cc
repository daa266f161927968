// SPDX-License-Identifier: Apache-2.0
// CudaImporter: devices (TARGET_INFO_GPU), streams (TARGET_INFO_CUDA_STREAM) and the CUDA
// data-quality counters (GSYS_DIAGNOSTICS).
#include <cstdio>
#include <string>

#include "format/cuda_records.h"
#include "report/import/cuda/cuda_importer.h"
#include "report/import/tick_clock.h"

namespace gsys::report {
namespace fmt = gsys::format;

namespace {

std::string Uuid(const uint8_t* u) {
  char buf[64];
  std::snprintf(buf, sizeof(buf),
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                u[14], u[15]);
  return buf;
}

Status AddDiagnostic(Database* db, const char* name, const char* severity, int64_t value,
                     const std::string& help) {
  if (value == 0) return OkStatus();
  return db->Exec("INSERT INTO GSYS_DIAGNOSTICS (name, severity, value, help) VALUES (" +
                  QuoteLiteral(name) + "," + QuoteLiteral(severity) + "," + std::to_string(value) +
                  "," + QuoteLiteral(help) +
                  ") ON CONFLICT(name) DO UPDATE SET value = value + excluded.value");
}

}  // namespace

Status CudaImporter::AddDevice(const CudaStreamContext& c, const fmt::RecordView& r) {
  fmt::CudaDeviceBody b;
  std::string_view name;
  if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.name_len, &name)) {
    ++stats_.malformed;
    return OkStatus();
  }
  if (!devices_written_.insert(b.id).second) return OkStatus();
  GSYS_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare("INSERT INTO TARGET_INFO_GPU (vmId, id, name, isDiscrete, l2CacheSize, "
                   "totalMemory, memoryBandwidth, clockRate, smCount, uuid, cuDevice, "
                   "constantMemory, maxIPC, maxRegistersPerBlock, maxShmemPerBlock, "
                   "maxShmemPerSm, maxRegistersPerSm, threadsPerWarp, asyncEngines, "
                   "maxWarpsPerSm, maxBlocksPerSm, maxThreadsPerBlock, maxBlockDimX, "
                   "maxBlockDimY, maxBlockDimZ, maxGridDimX, maxGridDimY, maxGridDimZ, "
                   "computeMajor, computeMinor, smMajor, smMinor) VALUES "
                   "(?,?,?,1,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  int64_t ints_a[] = {c.global_pid >> 48, b.id};
  int i = 1;
  for (int64_t v : ints_a) GSYS_RETURN_IF_ERROR(st.BindInt(i++, v));
  GSYS_RETURN_IF_ERROR(st.BindText(i++, name));
  int64_t ints_b[] = {b.l2_cache_size, static_cast<int64_t>(b.global_memory_size),
                      SaturatingMul(static_cast<int64_t>(b.global_memory_bandwidth), 1000),
                      SaturatingMul(static_cast<int64_t>(b.core_clock_rate), 1000),
                      b.multiprocessors};
  for (int64_t v : ints_b) GSYS_RETURN_IF_ERROR(st.BindInt(i++, v));
  GSYS_RETURN_IF_ERROR(st.BindText(i++, Uuid(b.uuid)));
  int64_t ints_c[] = {b.id,
                      b.constant_memory_size,
                      b.max_ipc,
                      b.max_registers_per_block,
                      b.max_shared_memory_per_block,
                      b.max_shared_memory_per_sm,
                      b.max_registers_per_sm,
                      b.threads_per_warp,
                      b.memcpy_engines,
                      b.max_warps_per_sm,
                      b.max_blocks_per_sm,
                      b.max_threads_per_block,
                      b.max_block_dim[0],
                      b.max_block_dim[1],
                      b.max_block_dim[2],
                      b.max_grid_dim[0],
                      b.max_grid_dim[1],
                      b.max_grid_dim[2],
                      b.compute_major,
                      b.compute_minor,
                      b.compute_major,
                      b.compute_minor};
  for (int64_t v : ints_c) GSYS_RETURN_IF_ERROR(st.BindInt(i++, v));
  GSYS_ASSIGN_OR_RETURN(bool row, st.Step());
  (void)row;
  return OkStatus();
}

Status CudaImporter::Finish() {
  for (const auto& [key, s] : stream_rows_) {
    const ProcessState& p = processes_[s.pid];
    GSYS_RETURN_IF_ERROR(db_->Exec(
        "INSERT INTO TARGET_INFO_CUDA_STREAM (streamId, hwId, vmId, processId, contextId, "
        "priority, flag) VALUES (" +
        std::to_string(s.stream) + ",0," + std::to_string(p.global_pid >> 48) + "," +
        std::to_string(s.pid) + "," + std::to_string(s.context) + "," + std::to_string(s.priority) +
        "," + std::to_string(s.flag) + ")"));
  }
  for (auto& [pid, p] : processes_) stats_.unmatched_gpu += p.gpu_correlations.size();
  GSYS_RETURN_IF_ERROR(AddDiagnostic(
      db_, "cuda_dropped_records", "data_loss", static_cast<int64_t>(stats_.dropped_by_cupti),
      "CUPTI dropped activity records (its buffers were full); the GPU timeline has gaps"));
  GSYS_RETURN_IF_ERROR(AddDiagnostic(
      db_, "cuda_buffer_pool_exhausted", "data_loss", static_cast<int64_t>(stats_.pool_exhausted),
      "all CUPTI buffers were in use, so CUPTI dropped records; the writer fell behind"));
  GSYS_RETURN_IF_ERROR(AddDiagnostic(db_, "cuda_other_cupti_client", "data_loss",
                                     stats_.other_subscriber.empty() ? 0 : 1,
                                     "another CUPTI client (" + stats_.other_subscriber +
                                         ") was attached, so CUDA was not traced in that process"));
  GSYS_RETURN_IF_ERROR(AddDiagnostic(
      db_, "cuda_unmatched_gpu_records", "info", static_cast<int64_t>(stats_.unmatched_gpu),
      "GPU records whose launching API call was not recorded (outside the capture range, "
      "or a driver call that is not traced)"));
  GSYS_RETURN_IF_ERROR(AddDiagnostic(db_, "cuda_malformed_records", "error",
                                     static_cast<int64_t>(stats_.malformed),
                                     "CUDA records too short for their kind (a bug or damage)"));
  return OkStatus();
}

}  // namespace gsys::report
