// SPDX-License-Identifier: Apache-2.0
// CUDA capture records (RecordKind 128..255, reserved for CUDA in record.h). Written by
// capture/cupti from CUPTI activity records, read by report/import/cuda_*.
//
// Bodies are fixed-size, 8-byte aligned, little-endian. Timestamps are CLOCK_MONOTONIC ns
// (CUPTI is given a MONOTONIC timestamp callback). The RecordHeader's `tid` is the Linux tid
// of the thread that made the API call (API records) and 0 for GPU-side records.
//
// Names are interned per stream: a kCudaString record (CudaStringBody + text) defines an id
// before any record uses it. Kernel names are stored once, mangled as CUPTI reports them; the
// importer derives demangled and base names, so the capture side never demangles.
#pragma once

#include <cstdint>

#include "format/record.h"

namespace gsys::format {

inline constexpr RecordKind kCudaString = static_cast<RecordKind>(128);  // CudaStringBody + text
inline constexpr RecordKind kCudaApi = static_cast<RecordKind>(129);     // CudaApiBody
inline constexpr RecordKind kCudaKernel = static_cast<RecordKind>(130);  // CudaKernelBody
inline constexpr RecordKind kCudaMemcpy = static_cast<RecordKind>(131);  // CudaMemcpyBody
inline constexpr RecordKind kCudaMemset = static_cast<RecordKind>(132);  // CudaMemsetBody
inline constexpr RecordKind kCudaSync = static_cast<RecordKind>(133);    // CudaSyncBody
inline constexpr RecordKind kCudaGraphLaunch = static_cast<RecordKind>(134);  // CudaGraphBody
inline constexpr RecordKind kCudaMemory = static_cast<RecordKind>(135);       // CudaMemoryBody
inline constexpr RecordKind kCudaDevice = static_cast<RecordKind>(136);    // CudaDeviceBody + name
inline constexpr RecordKind kCudaContext = static_cast<RecordKind>(137);   // CudaContextBody
inline constexpr RecordKind kCudaStream = static_cast<RecordKind>(138);    // CudaStreamBody
inline constexpr RecordKind kCudaOverhead = static_cast<RecordKind>(139);  // CudaOverheadBody
inline constexpr RecordKind kCudaNotice = static_cast<RecordKind>(140);    // CudaNoticeBody + text
inline constexpr RecordKind kCudaProfilerRange = static_cast<RecordKind>(141);  // CudaRangeBody

// CudaApiBody::domain
enum class CudaApiDomain : uint8_t { kRuntime = 0, kDriver = 1 };

struct CudaStringBody {
  uint32_t id;        // >= 1, unique within the stream
  uint32_t text_len;  // bytes of text after the body
};
static_assert(sizeof(CudaStringBody) == 8);

struct CudaApiBody {
  int64_t start;
  int64_t end;
  uint32_t correlation_id;
  uint32_t cbid;     // CUPTI callback id within `domain`
  uint32_t name_id;  // kCudaString id of the versioned function name (cudaLaunchKernel_v7000)
  int32_t return_value;
  uint8_t domain;  // CudaApiDomain
  uint8_t reserved[7];
};
static_assert(sizeof(CudaApiBody) == 40);

struct CudaKernelBody {
  int64_t start;
  int64_t end;
  int64_t grid_id;
  uint64_t graph_node_id;  // 0 when not launched from a graph
  uint64_t local_memory_total;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t correlation_id;
  uint32_t name_id;  // kCudaString id of the (mangled) name CUPTI reports
  uint32_t graph_id;
  int32_t grid[3];
  int32_t block[3];
  uint32_t cluster[3];
  int32_t static_shared_memory;
  int32_t dynamic_shared_memory;
  uint32_t local_memory_per_thread;
  uint32_t shared_memory_executed;
  uint16_t registers_per_thread;
  uint8_t launch_type;   // CUpti_ActivityLaunchType (0 regular, 1 coop single, 2 coop multi)
  uint8_t cache_config;  // requested cache config (low 4 bits of CUPTI's field)
  uint8_t shmem_limit_config;
  uint8_t is_device_launched;
  uint8_t reserved[6];
};
static_assert(sizeof(CudaKernelBody) == 128);

struct CudaMemcpyBody {
  int64_t start;
  int64_t end;
  uint64_t bytes;
  uint64_t graph_node_id;
  uint64_t copy_count;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t correlation_id;          // driver API correlation
  uint32_t runtime_correlation_id;  // runtime API correlation (0 for peer copies)
  uint32_t src_device_id;           // peer copies only, else = device_id
  uint32_t src_context_id;
  uint32_t dst_device_id;
  uint32_t dst_context_id;
  uint8_t copy_kind;  // CUpti_ActivityMemcpyKind (same numbering as ENUM_CUDA_MEMCPY_OPER)
  uint8_t src_kind;   // CUpti_ActivityMemoryKind
  uint8_t dst_kind;
  uint8_t flags;    // CUpti_ActivityFlag (bit 0: async)
  uint8_t is_peer;  // from CUPTI_ACTIVITY_KIND_MEMCPY2
  uint8_t reserved[7];
};
static_assert(sizeof(CudaMemcpyBody) == 88);

struct CudaMemsetBody {
  int64_t start;
  int64_t end;
  uint64_t bytes;
  uint64_t graph_node_id;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t correlation_id;
  uint32_t value;
  uint16_t memory_kind;  // CUpti_ActivityMemoryKind
  uint16_t flags;
};
static_assert(sizeof(CudaMemsetBody) == 56);

struct CudaSyncBody {
  int64_t start;
  int64_t end;
  uint64_t event_sync_id;
  uint32_t context_id;
  uint32_t stream_id;  // 0xFFFFFFFF when not stream-specific
  uint32_t correlation_id;
  uint32_t event_id;  // 0xFFFFFFFF when no event is involved
  uint32_t type;      // CUpti_ActivitySynchronizationType
  uint32_t reserved;
};
static_assert(sizeof(CudaSyncBody) == 48);

struct CudaGraphBody {  // one launch of a whole graph (--cuda-graph-trace=graph)
  int64_t start;
  int64_t end;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t correlation_id;
  uint32_t graph_id;
  uint32_t reserved;
};
static_assert(sizeof(CudaGraphBody) == 40);

struct CudaMemoryBody {  // allocation or free (--cuda-memory-usage)
  int64_t timestamp;
  uint64_t address;
  uint64_t bytes;
  uint64_t pc;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t correlation_id;
  uint32_t operation;    // CUpti_ActivityMemoryOperationType (1 allocation, 2 release)
  uint32_t memory_kind;  // CUpti_ActivityMemoryKind
  uint32_t is_async;
  uint32_t reserved;
};
static_assert(sizeof(CudaMemoryBody) == 64);

struct CudaDeviceBody {
  uint64_t global_memory_bandwidth;  // kB/s as CUPTI reports it
  uint64_t global_memory_size;
  uint8_t uuid[16];
  uint32_t id;
  uint32_t constant_memory_size;
  uint32_t l2_cache_size;
  uint32_t threads_per_warp;
  uint32_t core_clock_rate;  // kHz
  uint32_t memcpy_engines;
  uint32_t multiprocessors;
  uint32_t max_ipc;
  uint32_t max_warps_per_sm;
  uint32_t max_blocks_per_sm;
  uint32_t max_shared_memory_per_sm;
  uint32_t max_registers_per_sm;
  uint32_t max_registers_per_block;
  uint32_t max_shared_memory_per_block;
  uint32_t max_threads_per_block;
  uint32_t max_block_dim[3];
  uint32_t max_grid_dim[3];
  uint32_t compute_major;
  uint32_t compute_minor;
  uint32_t name_len;  // bytes of device name after the body
};
static_assert(sizeof(CudaDeviceBody) == 128);

struct CudaContextBody {
  uint32_t context_id;
  uint32_t device_id;
  uint32_t null_stream_id;
  uint32_t parent_context_id;
  uint32_t is_green_context;
  uint32_t reserved;
};
static_assert(sizeof(CudaContextBody) == 24);

struct CudaStreamBody {
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t priority;
  uint32_t flag;  // CUpti_ActivityStreamFlag (1 default, 2 non-blocking)
  uint32_t correlation_id;
  uint32_t reserved;
};
static_assert(sizeof(CudaStreamBody) == 24);

struct CudaOverheadBody {
  int64_t start;
  int64_t end;
  uint32_t overhead_kind;  // CUpti_ActivityOverheadKind
  uint32_t object_kind;    // CUpti_ActivityObjectKind
  uint32_t object_id;      // thread id (tid) or device id, by object_kind
  uint32_t correlation_id;
};
static_assert(sizeof(CudaOverheadBody) == 32);

// Things the CUDA capture wants the user to know (one record per occurrence kind).
enum class CudaNotice : uint32_t {
  kNoCupti = 1,              // libcupti could not be loaded: CUDA capture off
  kOtherSubscriber = 2,      // another CUPTI client holds the subscriber slot (text: its name)
  kEnableFailed = 3,         // an activity kind could not be enabled (value: the kind)
  kDroppedRecords = 4,       // CUPTI dropped records (value: cumulative count)
  kBufferPoolExhausted = 5,  // no buffer left for CUPTI (value: cumulative count)
  kInitFailed = 6,           // a CUPTI setup call failed (text: the call)
};

struct CudaNoticeBody {
  int64_t timestamp;
  uint64_t value;
  uint32_t notice;    // CudaNotice
  uint32_t text_len;  // bytes of text after the body
};
static_assert(sizeof(CudaNoticeBody) == 24);

// cudaProfilerStart/Stop (and cuProfilerStart/Stop) as seen by the callback API.
struct CudaRangeBody {
  int64_t timestamp;
  uint32_t started;  // 1 start, 0 stop
  uint32_t reserved;
};
static_assert(sizeof(CudaRangeBody) == 16);

inline constexpr uint32_t kCudaNoId = 0xFFFFFFFFu;

}  // namespace gsys::format
