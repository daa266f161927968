// SPDX-License-Identifier: Apache-2.0
#include "capture/cupti/activity_adapter.h"

#include <cstring>

#include "format/cuda_records.h"

namespace gsys::capture::cupti {
namespace fmt = gsys::format;

namespace {
// CUPTI_API_VERSION from 13.0 on is 130000+; 12.x used small integers (12.8 = 26).
constexpr uint32_t kCupti13 = 130000;

template <typename T>
const T& As(const CUpti_Activity* r) {
  return *reinterpret_cast<const T*>(r);
}
}  // namespace

void ActivityAdapter::Handle(const CUpti_Activity* record) {
  ++stats_.records;
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
      return OnApi(As<CUpti_ActivityAPI>(record), CUPTI_CB_DOMAIN_RUNTIME_API);
    case CUPTI_ACTIVITY_KIND_DRIVER:
    case CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API:
      return OnApi(As<CUpti_ActivityAPI>(record), CUPTI_CB_DOMAIN_DRIVER_API);
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return OnKernel(As<CUpti_ActivityKernel10>(record));
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return OnMemcpy(As<CUpti_ActivityMemcpy6>(record));
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return OnMemcpyPeer(As<CUpti_ActivityMemcpyPtoP4>(record));
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return OnMemset(As<CUpti_ActivityMemset4>(record));
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return OnSync(As<CUpti_ActivitySynchronization2>(record));
    case CUPTI_ACTIVITY_KIND_GRAPH_TRACE:
      return OnGraph(As<CUpti_ActivityGraphTrace2>(record));
    case CUPTI_ACTIVITY_KIND_MEMORY2:
      return OnMemory(As<CUpti_ActivityMemory4>(record));
    case CUPTI_ACTIVITY_KIND_DEVICE:
      return OnDevice(As<CUpti_ActivityDevice5>(record));
    case CUPTI_ACTIVITY_KIND_CONTEXT:
      return OnContext(As<CUpti_ActivityContext3>(record));
    case CUPTI_ACTIVITY_KIND_STREAM:
      return OnStream(As<CUpti_ActivityStream>(record));
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      return OnOverhead(As<CUpti_ActivityOverhead3>(record));
    default:
      ++stats_.ignored;
      return;
  }
}

uint32_t ActivityAdapter::EmitString(const std::string& text) {
  auto [it, inserted] = strings_.try_emplace(text, next_string_id_);
  if (!inserted) return it->second;
  fmt::CudaStringBody body{next_string_id_, static_cast<uint32_t>(text.size())};
  ++next_string_id_;
  Emit(fmt::kCudaString, 0, body, text.data(), text.size());
  return body.id;
}

uint32_t ActivityAdapter::InternKernelName(const char* name) {
  if (name == nullptr || *name == '\0') return 0;
  auto it = kernel_names_by_ptr_.find(name);
  // The pointer is shared by every record of one kernel; compare the text too, since a
  // module unload may reuse the address for another name.
  if (it != kernel_names_by_ptr_.end() && it->second.text == name) return it->second.id;
  std::string text(name);
  uint32_t id = EmitString(text);
  kernel_names_by_ptr_[name] = NameEntry{std::move(text), id};
  return id;
}

uint32_t ActivityAdapter::InternApiName(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  uint64_t key = (static_cast<uint64_t>(domain) << 32) | cbid;
  auto it = api_names_.find(key);
  if (it != api_names_.end()) return it->second;
  const char* name = names_ != nullptr ? names_(names_ctx_, domain, cbid) : nullptr;
  std::string text =
      name != nullptr ? std::string(name)
                      : (domain == CUPTI_CB_DOMAIN_DRIVER_API ? "cuda_driver_" : "cuda_runtime_") +
                            std::to_string(cbid);
  uint32_t id = EmitString(text);
  api_names_.emplace(key, id);
  return id;
}

void ActivityAdapter::OnApi(const CUpti_ActivityAPI& r, CUpti_CallbackDomain domain) {
  fmt::CudaApiBody b{};
  b.start = static_cast<int64_t>(r.start);
  b.end = static_cast<int64_t>(r.end);
  b.correlation_id = r.correlationId;
  b.cbid = r.cbid;
  b.name_id = InternApiName(domain, r.cbid);
  b.return_value = static_cast<int32_t>(r.returnValue);
  b.domain =
      static_cast<uint8_t>(domain == CUPTI_CB_DOMAIN_DRIVER_API ? fmt::CudaApiDomain::kDriver
                                                                : fmt::CudaApiDomain::kRuntime);
  Emit(fmt::kCudaApi, r.threadId, b);
}

void ActivityAdapter::OnKernel(const CUpti_ActivityKernel10& r) {
  fmt::CudaKernelBody b{};
  b.start = static_cast<int64_t>(r.start);
  b.end = static_cast<int64_t>(r.end);
  b.grid_id = r.gridId;
  b.graph_node_id = r.graphNodeId;
  b.local_memory_total = r.localMemoryTotal_v2 != 0 ? r.localMemoryTotal_v2 : r.localMemoryTotal;
  b.device_id = r.deviceId;
  b.context_id = r.contextId;
  b.stream_id = r.streamId;
  b.correlation_id = r.correlationId;
  b.name_id = InternKernelName(r.name);
  b.graph_id = r.graphId;
  b.grid[0] = r.gridX;
  b.grid[1] = r.gridY;
  b.grid[2] = r.gridZ;
  b.block[0] = r.blockX;
  b.block[1] = r.blockY;
  b.block[2] = r.blockZ;
  b.cluster[0] = r.clusterX;
  b.cluster[1] = r.clusterY;
  b.cluster[2] = r.clusterZ;
  b.static_shared_memory = r.staticSharedMemory;
  b.dynamic_shared_memory = r.dynamicSharedMemory;
  b.local_memory_per_thread = r.localMemoryPerThread;
  b.shared_memory_executed = r.sharedMemoryExecuted;
  b.registers_per_thread = r.registersPerThread;
  b.launch_type = r.launchType;
  b.cache_config = r.cacheConfig.config.requested;
  b.shmem_limit_config = static_cast<uint8_t>(r.shmemLimitConfig);
  b.is_device_launched = cupti_version_ >= kCupti13 ? r.isDeviceLaunched : 0;
  Emit(fmt::kCudaKernel, 0, b);
}

void ActivityAdapter::OnMemcpy(const CUpti_ActivityMemcpy6& r) {
  fmt::CudaMemcpyBody b{};
  b.start = static_cast<int64_t>(r.start);
  b.end = static_cast<int64_t>(r.end);
  b.bytes = r.bytes;
  b.graph_node_id = r.graphNodeId;
  b.copy_count = cupti_version_ >= kCupti13 && r.copyCount != 0 ? r.copyCount : 1;
  b.device_id = r.deviceId;
  b.context_id = r.contextId;
  b.stream_id = r.streamId;
  b.correlation_id = r.correlationId;
  b.runtime_correlation_id = r.runtimeCorrelationId;
  b.src_device_id = b.dst_device_id = r.deviceId;
  b.src_context_id = b.dst_context_id = r.contextId;
  b.copy_kind = r.copyKind;
  b.src_kind = r.srcKind;
  b.dst_kind = r.dstKind;
  b.flags = r.flags;
  Emit(fmt::kCudaMemcpy, 0, b);
}

void ActivityAdapter::OnMemcpyPeer(const CUpti_ActivityMemcpyPtoP4& r) {
  fmt::CudaMemcpyBody b{};
  b.start = static_cast<int64_t>(r.start);
  b.end = static_cast<int64_t>(r.end);
  b.bytes = r.bytes;
  b.graph_node_id = r.graphNodeId;
  b.copy_count = 1;
  b.device_id = r.deviceId;
  b.context_id = r.contextId;
  b.stream_id = r.streamId;
  b.correlation_id = r.correlationId;
  b.src_device_id = r.srcDeviceId;
  b.src_context_id = r.srcContextId;
  b.dst_device_id = r.dstDeviceId;
  b.dst_context_id = r.dstContextId;
  b.copy_kind = r.copyKind;
  b.src_kind = r.srcKind;
  b.dst_kind = r.dstKind;
  b.flags = r.flags;
  b.is_peer = 1;
  Emit(fmt::kCudaMemcpy, 0, b);
}

void ActivityAdapter::OnMemset(const CUpti_ActivityMemset4& r) {
  fmt::CudaMemsetBody b{};
  b.start = static_cast<int64_t>(r.start);
  b.end = static_cast<int64_t>(r.end);
  b.bytes = r.bytes;
  b.graph_node_id = r.graphNodeId;
  b.device_id = r.deviceId;
  b.context_id = r.contextId;
  b.stream_id = r.streamId;
  b.correlation_id = r.correlationId;
  b.value = r.value;
  b.memory_kind = r.memoryKind;
  b.flags = r.flags;
  Emit(fmt::kCudaMemset, 0, b);
}

void ActivityAdapter::OnSync(const CUpti_ActivitySynchronization2& r) {
  fmt::CudaSyncBody b{};
  b.start = static_cast<int64_t>(r.start);
  b.end = static_cast<int64_t>(r.end);
  b.event_sync_id = r.cudaEventSyncId;
  b.context_id = r.contextId;
  b.stream_id = r.streamId;
  b.correlation_id = r.correlationId;
  b.event_id = r.cudaEventId;
  b.type = static_cast<uint32_t>(r.type);
  Emit(fmt::kCudaSync, 0, b);
}

void ActivityAdapter::OnGraph(const CUpti_ActivityGraphTrace2& r) {
  fmt::CudaGraphBody b{};
  b.start = static_cast<int64_t>(r.start);
  b.end = static_cast<int64_t>(r.end);
  b.device_id = r.deviceId;
  b.context_id = r.contextId;
  b.stream_id = r.streamId;
  b.correlation_id = r.correlationId;
  b.graph_id = r.graphId;
  Emit(fmt::kCudaGraphLaunch, 0, b);
}

void ActivityAdapter::OnMemory(const CUpti_ActivityMemory4& r) {
  fmt::CudaMemoryBody b{};
  b.timestamp = static_cast<int64_t>(r.timestamp);
  b.address = r.address;
  b.bytes = r.bytes;
  b.pc = r.PC;
  b.device_id = r.deviceId;
  b.context_id = r.contextId;
  b.stream_id = r.streamId;
  b.correlation_id = r.correlationId;
  b.operation = static_cast<uint32_t>(r.memoryOperationType);
  b.memory_kind = static_cast<uint32_t>(r.memoryKind);
  b.is_async = r.isAsync;
  Emit(fmt::kCudaMemory, 0, b);
}

void ActivityAdapter::OnDevice(const CUpti_ActivityDevice5& r) {
  fmt::CudaDeviceBody b{};
  b.global_memory_bandwidth = r.globalMemoryBandwidth;
  b.global_memory_size = r.globalMemorySize;
  std::memcpy(b.uuid, &r.uuid, sizeof(b.uuid));
  b.id = r.id;
  b.constant_memory_size = r.constantMemorySize;
  b.l2_cache_size = r.l2CacheSize;
  b.threads_per_warp = r.numThreadsPerWarp;
  b.core_clock_rate = r.coreClockRate;
  b.memcpy_engines = r.numMemcpyEngines;
  b.multiprocessors = r.numMultiprocessors;
  b.max_ipc = r.maxIPC;
  b.max_warps_per_sm = r.maxWarpsPerMultiprocessor;
  b.max_blocks_per_sm = r.maxBlocksPerMultiprocessor;
  b.max_shared_memory_per_sm = r.maxSharedMemoryPerMultiprocessor;
  b.max_registers_per_sm = r.maxRegistersPerMultiprocessor;
  b.max_registers_per_block = r.maxRegistersPerBlock;
  b.max_shared_memory_per_block = r.maxSharedMemoryPerBlock;
  b.max_threads_per_block = r.maxThreadsPerBlock;
  b.max_block_dim[0] = r.maxBlockDimX;
  b.max_block_dim[1] = r.maxBlockDimY;
  b.max_block_dim[2] = r.maxBlockDimZ;
  b.max_grid_dim[0] = r.maxGridDimX;
  b.max_grid_dim[1] = r.maxGridDimY;
  b.max_grid_dim[2] = r.maxGridDimZ;
  b.compute_major = r.computeCapabilityMajor;
  b.compute_minor = r.computeCapabilityMinor;
  size_t len = r.name != nullptr ? std::strlen(r.name) : 0;
  if (len > format::kMaxTextBytes) len = format::kMaxTextBytes;
  b.name_len = static_cast<uint32_t>(len);
  Emit(fmt::kCudaDevice, 0, b, r.name, len);
}

void ActivityAdapter::OnContext(const CUpti_ActivityContext3& r) {
  fmt::CudaContextBody b{};
  b.context_id = r.contextId;
  b.device_id = r.deviceId;
  b.null_stream_id = r.nullStreamId;
  b.parent_context_id = r.parentContextId;
  b.is_green_context = r.isGreenContext;
  Emit(fmt::kCudaContext, 0, b);
}

void ActivityAdapter::OnStream(const CUpti_ActivityStream& r) {
  fmt::CudaStreamBody b{};
  b.context_id = r.contextId;
  b.stream_id = r.streamId;
  b.priority = r.priority;
  b.flag = static_cast<uint32_t>(r.flag);
  b.correlation_id = r.correlationId;
  Emit(fmt::kCudaStream, 0, b);
}

void ActivityAdapter::OnOverhead(const CUpti_ActivityOverhead3& r) {
  fmt::CudaOverheadBody b{};
  b.start = static_cast<int64_t>(r.start);
  b.end = static_cast<int64_t>(r.end);
  b.overhead_kind = static_cast<uint32_t>(r.overheadKind);
  b.object_kind = static_cast<uint32_t>(r.objectKind);
  b.object_id = r.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? r.objectId.pt.threadId
                                                             : r.objectId.dcs.deviceId;
  b.correlation_id = r.correlationId;
  Emit(fmt::kCudaOverhead, 0, b);
}

}  // namespace gsys::capture::cupti
