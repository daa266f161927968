// SPDX-License-Identifier: Apache-2.0
#include "report/import/cuda/cuda_importer.h"

#include <string>

#include "format/cuda_records.h"
#include "report/import/cuda/cuda_names.h"
#include "report/import/tick_clock.h"

namespace gsys::report {
namespace fmt = gsys::format;
using Opt = std::optional<int64_t>;

namespace {

// CUpti_ActivityMemoryKind (0 unknown, 1 pageable, ...) -> ENUM_CUDA_MEM_KIND (0 pageable, ...,
// 7 unknown).
int64_t MemKind(uint32_t cupti) { return cupti == 0 || cupti > 7 ? 7 : cupti - 1; }
Opt NonZero(uint64_t v) { return v == 0 ? Opt() : Opt(static_cast<int64_t>(v)); }

constexpr const char* kInsertRuntime =
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, "
    "nameId, returnValue) VALUES (?,?,?,?,?,?,?)";
constexpr const char* kInsertKernel =
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, "
    "streamId, correlationId, globalPid, demangledName, shortName, mangledName, launchType, "
    "cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
    "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, "
    "sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig, graphId, clusterX, clusterY, "
    "clusterZ) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kInsertMemcpy =
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, greenContextId, "
    "streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind, srcDeviceId, "
    "srcContextId, dstDeviceId, dstContextId, graphNodeId, copyCount) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kInsertMemset =
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, greenContextId, "
    "streamId, correlationId, globalPid, value, bytes, graphNodeId, memKind) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kInsertSync =
    "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, "
    "streamId, correlationId, globalPid, deprecatedSyncType, syncType, eventId, eventSyncId) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kInsertGraph =
    "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start, end, deviceId, contextId, "
    "greenContextId, streamId, correlationId, globalPid, graphId, graphExecId) "
    "VALUES (?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kInsertMemory =
    "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId, contextId, address, "
    "pc, bytes, memKind, memoryOperationType, correlationId, streamId) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?)";

constexpr const char* kInsertOverhead =
    "INSERT INTO PROFILER_OVERHEAD (start, end, globalTid, nameId, returnValue) VALUES (?,?,?,?,?)";

// CUpti_ActivityOverheadKind -> the names nsys gives CUPTI's overhead rows.
std::string_view OverheadName(uint32_t kind) {
  switch (kind) {
    case 1:
      return "CUPTI: Driver compiler";
    case 1u << 16:
      return "CUPTI: Buffer flush";
    case 2u << 16:
      return "CUPTI: Instrumentation";
    case 3u << 16:
      return "CUPTI: Resource";
    case 4u << 16:
      return "CUPTI: Runtime triggered module loading";
    case 5u << 16:
      return "CUPTI: Lazy function loading";
    case 6u << 16:
      return "CUPTI: Command buffer full";
    case 7u << 16:
      return "CUPTI: Activity buffer request";
    case 8u << 16:
      return "CUPTI: UVM activity init";
    default:
      return "CUPTI: Unknown";
  }
}

}  // namespace

CudaImporter::~CudaImporter() = default;

Status CudaImporter::Begin() {
  struct {
    std::unique_ptr<Statement>* stmt;
    const char* sql;
  } stmts[] = {{&runtime_, kInsertRuntime}, {&kernel_, kInsertKernel},    {&memcpy_, kInsertMemcpy},
               {&memset_, kInsertMemset},   {&sync_, kInsertSync},        {&graph_, kInsertGraph},
               {&memory_, kInsertMemory},   {&overhead_, kInsertOverhead}};
  for (auto& s : stmts) {
    GSYS_ASSIGN_OR_RETURN(Statement st, db_->Prepare(s.sql));
    *s.stmt = std::make_unique<Statement>(std::move(st));
  }
  return OkStatus();
}

Status CudaImporter::Insert(Statement* stmt, std::initializer_list<Opt> values) {
  return stmt->InsertRow(values);
}

Status CudaImporter::Add(const CudaStreamContext& ctx, const fmt::RecordView& r) {
  StreamState& s = streams_[ctx.stream_id];
  ProcessState& p = processes_[ctx.pid];
  p.global_pid = ctx.global_pid;
  p.pid = ctx.pid;
  switch (static_cast<uint16_t>(r.kind)) {
    case static_cast<uint16_t>(fmt::kCudaString):
      return AddString(s, r);
    case static_cast<uint16_t>(fmt::kCudaApi):
      return AddApi(ctx, s, p, r);
    case static_cast<uint16_t>(fmt::kCudaKernel):
      return AddKernel(ctx, s, p, r);
    case static_cast<uint16_t>(fmt::kCudaMemcpy):
      return AddMemcpy(ctx, p, r);
    case static_cast<uint16_t>(fmt::kCudaMemset):
      return AddMemset(ctx, p, r);
    case static_cast<uint16_t>(fmt::kCudaSync):
      return AddSync(ctx, p, r);
    case static_cast<uint16_t>(fmt::kCudaGraphLaunch):
      return AddGraph(ctx, p, r);
    case static_cast<uint16_t>(fmt::kCudaMemory):
      return AddMemory(ctx, r);
    case static_cast<uint16_t>(fmt::kCudaOverhead):
      return AddOverhead(ctx, r);
    case static_cast<uint16_t>(fmt::kCudaDevice):
      return AddDevice(ctx, r);
    case static_cast<uint16_t>(fmt::kCudaContext): {
      fmt::CudaContextBody b;
      if (!r.Body(&b)) break;
      p.context_device[b.context_id] = b.device_id;
      stream_rows_[{ctx.pid, b.context_id, b.null_stream_id}] =
          StreamRow{ctx.pid, b.context_id, b.null_stream_id, 0, 3};  // 3 = Null stream
      return db_->Exec(
          "INSERT INTO TARGET_INFO_CUDA_CONTEXT_INFO VALUES (" + std::to_string(b.null_stream_id) +
          ",0," + std::to_string(ctx.global_pid >> 48) + "," + std::to_string(ctx.pid) + "," +
          std::to_string(b.device_id) + "," + std::to_string(b.context_id) + "," +
          std::to_string(b.parent_context_id) + "," + std::to_string(b.is_green_context) + ")");
    }
    case static_cast<uint16_t>(fmt::kCudaStream): {
      fmt::CudaStreamBody b;
      if (!r.Body(&b)) break;
      auto key = std::make_tuple(ctx.pid, b.context_id, b.stream_id);
      if (stream_rows_.count(key) == 0) {  // the context's null stream keeps flag 3
        stream_rows_[key] = StreamRow{ctx.pid, b.context_id, b.stream_id, b.priority, b.flag};
      }
      return OkStatus();
    }
    case static_cast<uint16_t>(fmt::kCudaNotice):
      AddNotice(r);
      return OkStatus();
    case static_cast<uint16_t>(fmt::kCudaProfilerRange):
      ++stats_.profiler_ranges;
      return OkStatus();
    default:
      return OkStatus();  // future kinds
  }
  ++stats_.malformed;
  return OkStatus();
}

Status CudaImporter::AddString(StreamState& s, const fmt::RecordView& r) {
  fmt::CudaStringBody b;
  std::string_view text;
  if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.text_len, &text)) {
    ++stats_.malformed;
    return OkStatus();
  }
  s.strings[b.id] = std::string(text);
  return OkStatus();
}

void CudaImporter::NoteGpuCorrelation(ProcessState& p, uint32_t correlation) {
  if (correlation == 0 || p.api_correlations.count(correlation) != 0) return;
  p.gpu_correlations.insert(correlation);  // API record may come later (another buffer)
}

Status CudaImporter::AddApi(const CudaStreamContext& c, StreamState& s, ProcessState& p,
                            const fmt::RecordView& r) {
  fmt::CudaApiBody b;
  if (!r.Body(&b)) return (++stats_.malformed, OkStatus());
  auto it = s.string_ids.find(b.name_id);
  if (it == s.string_ids.end()) {
    auto text = s.strings.find(b.name_id);
    if (text == s.strings.end()) ++stats_.unknown_strings;
    int64_t id = intern_(text != s.strings.end() ? std::string_view(text->second)
                                                 : std::string_view("unknown"));
    it = s.string_ids.emplace(b.name_id, id).first;
  }
  p.api_correlations.insert(b.correlation_id);
  p.gpu_correlations.erase(b.correlation_id);
  ++stats_.api;
  int64_t event_class = b.domain == static_cast<uint8_t>(fmt::CudaApiDomain::kDriver) ? 1 : 0;
  int64_t start = SaturatingSub(b.start, c.time_origin), end = SaturatingSub(b.end, c.time_origin);
  return Insert(runtime_.get(), {start, end, event_class, c.global_pid | r.tid, b.correlation_id,
                                 it->second, b.return_value});
}

CudaImporter::KernelNames CudaImporter::NamesFor(StreamState& s, uint32_t id) {
  auto it = s.kernel_names.find(id);
  if (it != s.kernel_names.end()) return it->second;
  auto text = s.strings.find(id);
  if (text == s.strings.end()) ++stats_.unknown_strings;
  std::string mangled = text != s.strings.end() ? text->second : "unknown";
  std::string demangled = DemangleKernelName(mangled);
  KernelNames names{intern_(demangled), intern_(KernelShortName(demangled)), intern_(mangled)};
  s.kernel_names.emplace(id, names);
  return names;
}

Status CudaImporter::AddKernel(const CudaStreamContext& c, StreamState& s, ProcessState& p,
                               const fmt::RecordView& r) {
  fmt::CudaKernelBody b;
  if (!r.Body(&b)) return (++stats_.malformed, OkStatus());
  KernelNames n = NamesFor(s, b.name_id);
  NoteGpuCorrelation(p, b.correlation_id);
  ++stats_.kernels;
  int64_t start = SaturatingSub(b.start, c.time_origin), end = SaturatingSub(b.end, c.time_origin);
  return Insert(kernel_.get(), {start,
                                end,
                                b.device_id,
                                b.context_id,
                                0,
                                b.stream_id,
                                b.correlation_id,
                                c.global_pid,
                                n.demangled,
                                n.short_name,
                                n.mangled,
                                b.launch_type + 1,
                                b.cache_config,
                                b.registers_per_thread,
                                b.grid[0],
                                b.grid[1],
                                b.grid[2],
                                b.block[0],
                                b.block[1],
                                b.block[2],
                                b.static_shared_memory,
                                b.dynamic_shared_memory,
                                b.local_memory_per_thread,
                                static_cast<int64_t>(b.local_memory_total),
                                b.grid_id,
                                b.shared_memory_executed,
                                NonZero(b.graph_node_id),
                                b.shmem_limit_config,
                                NonZero(b.graph_id),
                                b.cluster[0],
                                b.cluster[1],
                                b.cluster[2]});
}

Status CudaImporter::AddMemcpy(const CudaStreamContext& c, ProcessState& p,
                               const fmt::RecordView& r) {
  fmt::CudaMemcpyBody b;
  if (!r.Body(&b)) return (++stats_.malformed, OkStatus());
  // nsys's correlationId is the runtime call's when there is one (cudaMemcpy*), else the
  // driver call's.
  uint32_t corr = b.runtime_correlation_id != 0 ? b.runtime_correlation_id : b.correlation_id;
  NoteGpuCorrelation(p, corr);
  ++stats_.memcpys;
  int64_t start = SaturatingSub(b.start, c.time_origin), end = SaturatingSub(b.end, c.time_origin);
  return Insert(memcpy_.get(),
                {start, end, b.device_id, b.context_id, 0, b.stream_id, corr, c.global_pid,
                 static_cast<int64_t>(b.bytes), b.copy_kind, MemKind(b.src_kind),
                 MemKind(b.dst_kind), b.src_device_id, b.src_context_id, b.dst_device_id,
                 b.dst_context_id, NonZero(b.graph_node_id), static_cast<int64_t>(b.copy_count)});
}

Status CudaImporter::AddMemset(const CudaStreamContext& c, ProcessState& p,
                               const fmt::RecordView& r) {
  fmt::CudaMemsetBody b;
  if (!r.Body(&b)) return (++stats_.malformed, OkStatus());
  NoteGpuCorrelation(p, b.correlation_id);
  ++stats_.memsets;
  int64_t start = SaturatingSub(b.start, c.time_origin), end = SaturatingSub(b.end, c.time_origin);
  return Insert(
      memset_.get(),
      {start, end, b.device_id, b.context_id, 0, b.stream_id, b.correlation_id, c.global_pid,
       b.value, static_cast<int64_t>(b.bytes), NonZero(b.graph_node_id), MemKind(b.memory_kind)});
}

Status CudaImporter::AddSync(const CudaStreamContext& c, ProcessState& p,
                             const fmt::RecordView& r) {
  fmt::CudaSyncBody b;
  if (!r.Body(&b)) return (++stats_.malformed, OkStatus());
  auto dev = p.context_device.find(b.context_id);
  ++stats_.syncs;
  int64_t start = SaturatingSub(b.start, c.time_origin), end = SaturatingSub(b.end, c.time_origin);
  return Insert(sync_.get(), {start, end, dev != p.context_device.end() ? dev->second : 0,
                              b.context_id, b.stream_id, b.correlation_id, c.global_pid, b.type,
                              b.type, b.event_id, NonZero(b.event_sync_id)});
}

Status CudaImporter::AddGraph(const CudaStreamContext& c, ProcessState& p,
                              const fmt::RecordView& r) {
  fmt::CudaGraphBody b;
  if (!r.Body(&b)) return (++stats_.malformed, OkStatus());
  NoteGpuCorrelation(p, b.correlation_id);
  ++stats_.graphs;
  int64_t start = SaturatingSub(b.start, c.time_origin), end = SaturatingSub(b.end, c.time_origin);
  return Insert(graph_.get(), {start, end, b.device_id, b.context_id, 0, b.stream_id,
                               b.correlation_id, c.global_pid, b.graph_id, b.graph_id});
}

Status CudaImporter::AddMemory(const CudaStreamContext& c, const fmt::RecordView& r) {
  fmt::CudaMemoryBody b;
  if (!r.Body(&b)) return (++stats_.malformed, OkStatus());
  ++stats_.memory;
  // CUPTI: 1 allocation, 2 release -> ENUM_CUDA_DEV_MEM_EVENT_OPER 0, 1.
  int64_t at = SaturatingSub(b.timestamp, c.time_origin);
  return Insert(memory_.get(),
                {at, c.global_pid, b.device_id, b.context_id, static_cast<int64_t>(b.address),
                 static_cast<int64_t>(b.pc), static_cast<int64_t>(b.bytes), MemKind(b.memory_kind),
                 b.operation == 2 ? 1 : 0, NonZero(b.correlation_id), b.stream_id});
}

Status CudaImporter::AddOverhead(const CudaStreamContext& c, const fmt::RecordView& r) {
  fmt::CudaOverheadBody b;
  if (!r.Body(&b)) return (++stats_.malformed, OkStatus());
  ++stats_.overheads;
  constexpr uint32_t kObjectThread = 2;  // CUPTI_ACTIVITY_OBJECT_THREAD
  Opt tid = b.object_kind == kObjectThread ? Opt(c.global_pid | b.object_id) : Opt();
  int64_t start = SaturatingSub(b.start, c.time_origin), end = SaturatingSub(b.end, c.time_origin);
  return Insert(overhead_.get(), {start, end, tid, intern_(OverheadName(b.overhead_kind)), 0});
}

void CudaImporter::AddNotice(const fmt::RecordView& r) {
  fmt::CudaNoticeBody b;
  if (!r.Body(&b)) return;
  std::string_view text;
  r.Text(sizeof(b), 0, b.text_len, &text);
  switch (static_cast<fmt::CudaNotice>(b.notice)) {
    case fmt::CudaNotice::kDroppedRecords:  // cumulative per process
      if (b.value > stats_.dropped_by_cupti) stats_.dropped_by_cupti = b.value;
      break;
    case fmt::CudaNotice::kBufferPoolExhausted:
      stats_.pool_exhausted = b.value;
      break;
    case fmt::CudaNotice::kOtherSubscriber:
      stats_.other_subscriber = std::string(text);
      break;
    default:
      break;
  }
}

}  // namespace gsys::report
