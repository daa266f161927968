// SPDX-License-Identifier: Apache-2.0
// GPU-free tests of ActivityAdapter: hand-built CUpti_Activity* records in, gsys records out.
#include "capture/cupti/activity_adapter.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "format/cuda_records.h"

namespace gsys::capture::cupti {
namespace {
namespace fmt = gsys::format;

struct Rec {
  fmt::RecordKind kind;
  uint32_t tid;
  std::vector<uint8_t> body;
  std::string text;
  template <typename T>
  T As() const {
    T t{};
    EXPECT_EQ(body.size(), sizeof(T));
    std::memcpy(&t, body.data(), sizeof(T));
    return t;
  }
};

class VectorSink : public RecordSink {
 public:
  bool Append(fmt::RecordKind kind, uint32_t tid, const void* body, size_t body_size,
              const char* text, size_t text_len) override {
    const auto* b = static_cast<const uint8_t*>(body);
    records.push_back(Rec{kind, tid, std::vector<uint8_t>(b, b + body_size),
                          std::string(text != nullptr ? text : "", text_len)});
    return true;
  }
  std::vector<Rec> records;
};

const char* FakeNames(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == 211) return "cudaLaunchKernel_v7000";
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == 307) return "cuLaunchKernel";
  return nullptr;
}

template <typename T>
const CUpti_Activity* Act(const T& t) {
  return reinterpret_cast<const CUpti_Activity*>(&t);
}

TEST(ActivityAdapter, RuntimeApiInternsNameOnce) {
  VectorSink sink;
  ActivityAdapter a(&sink, FakeNames, nullptr, 130001);
  CUpti_ActivityAPI api{};
  api.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  api.cbid = 211;
  api.start = 100;
  api.end = 250;
  api.threadId = 4242;
  api.correlationId = 7;
  a.Handle(Act(api));
  api.correlationId = 8;
  a.Handle(Act(api));
  ASSERT_EQ(sink.records.size(), 3u);
  EXPECT_EQ(sink.records[0].kind, fmt::kCudaString);
  EXPECT_EQ(sink.records[0].text, "cudaLaunchKernel_v7000");
  auto s = sink.records[0].As<fmt::CudaStringBody>();
  auto b = sink.records[2].As<fmt::CudaApiBody>();
  EXPECT_EQ(sink.records[2].tid, 4242u);
  EXPECT_EQ(b.name_id, s.id);
  EXPECT_EQ(b.correlation_id, 8u);
  EXPECT_EQ(b.start, 100);
  EXPECT_EQ(b.end, 250);
  EXPECT_EQ(b.domain, static_cast<uint8_t>(fmt::CudaApiDomain::kRuntime));
}

TEST(ActivityAdapter, DriverApiAndUnknownCbidGetNames) {
  VectorSink sink;
  ActivityAdapter a(&sink, FakeNames, nullptr, 130001);
  CUpti_ActivityAPI api{};
  api.kind = CUPTI_ACTIVITY_KIND_DRIVER;
  api.cbid = 307;
  a.Handle(Act(api));
  api.cbid = 9999;
  a.Handle(Act(api));
  ASSERT_EQ(sink.records.size(), 4u);
  EXPECT_EQ(sink.records[0].text, "cuLaunchKernel");
  EXPECT_EQ(sink.records[2].text, "cuda_driver_9999");
  EXPECT_EQ(sink.records[1].As<fmt::CudaApiBody>().domain,
            static_cast<uint8_t>(fmt::CudaApiDomain::kDriver));
}

TEST(ActivityAdapter, KernelFieldsAndSharedNamePointer) {
  VectorSink sink;
  ActivityAdapter a(&sink, FakeNames, nullptr, 130001);
  static const char kName[] = "_Z6squarePfi";
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.start = 1000;
  k.end = 3000;
  k.deviceId = 0;
  k.contextId = 1;
  k.streamId = 13;
  k.correlationId = 99;
  k.gridX = 4;
  k.gridY = 2;
  k.gridZ = 1;
  k.blockX = 128;
  k.blockY = 1;
  k.blockZ = 1;
  k.registersPerThread = 16;
  k.staticSharedMemory = 64;
  k.dynamicSharedMemory = 256;
  k.gridId = 123456;
  k.graphNodeId = 5;
  k.name = kName;
  k.launchType = 0;
  k.cacheConfig.config.requested = 2;
  a.Handle(Act(k));
  a.Handle(Act(k));
  ASSERT_EQ(sink.records.size(), 3u);
  EXPECT_EQ(sink.records[0].text, kName);
  auto b = sink.records[1].As<fmt::CudaKernelBody>();
  EXPECT_EQ(b.name_id, sink.records[0].As<fmt::CudaStringBody>().id);
  EXPECT_EQ(b.start, 1000);
  EXPECT_EQ(b.end, 3000);
  EXPECT_EQ(b.stream_id, 13u);
  EXPECT_EQ(b.correlation_id, 99u);
  EXPECT_EQ(b.grid[0], 4);
  EXPECT_EQ(b.grid[1], 2);
  EXPECT_EQ(b.block[0], 128);
  EXPECT_EQ(b.registers_per_thread, 16);
  EXPECT_EQ(b.static_shared_memory, 64);
  EXPECT_EQ(b.dynamic_shared_memory, 256);
  EXPECT_EQ(b.grid_id, 123456);
  EXPECT_EQ(b.graph_node_id, 5u);
  EXPECT_EQ(b.cache_config, 2);
  EXPECT_EQ(sink.records[2].kind, fmt::kCudaKernel);
}

TEST(ActivityAdapter, MemcpyMemsetSyncAndPeer) {
  VectorSink sink;
  ActivityAdapter a(&sink, FakeNames, nullptr, 130001);
  CUpti_ActivityMemcpy6 m{};
  m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  m.bytes = 1 << 20;
  m.correlationId = 3;
  m.runtimeCorrelationId = 4;
  m.copyCount = 0;
  a.Handle(Act(m));
  CUpti_ActivityMemset4 s{};
  s.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  s.bytes = 4096;
  s.value = 0xAB;
  s.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  a.Handle(Act(s));
  CUpti_ActivitySynchronization2 y{};
  y.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  y.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
  y.cudaEventId = 0xFFFFFFFFu;
  a.Handle(Act(y));
  CUpti_ActivityMemcpyPtoP4 p{};
  p.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
  p.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  p.srcDeviceId = 0;
  p.dstDeviceId = 1;
  p.bytes = 64;
  a.Handle(Act(p));
  ASSERT_EQ(sink.records.size(), 4u);
  auto mc = sink.records[0].As<fmt::CudaMemcpyBody>();
  EXPECT_EQ(mc.bytes, 1u << 20);
  EXPECT_EQ(mc.copy_kind, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
  EXPECT_EQ(mc.src_kind, CUPTI_ACTIVITY_MEMORY_KIND_PINNED);
  EXPECT_EQ(mc.runtime_correlation_id, 4u);
  EXPECT_EQ(mc.copy_count, 1u);
  auto ms = sink.records[1].As<fmt::CudaMemsetBody>();
  EXPECT_EQ(ms.value, 0xABu);
  EXPECT_EQ(ms.bytes, 4096u);
  auto sy = sink.records[2].As<fmt::CudaSyncBody>();
  EXPECT_EQ(sy.type, static_cast<uint32_t>(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE));
  EXPECT_EQ(sy.event_id, fmt::kCudaNoId);
  auto pp = sink.records[3].As<fmt::CudaMemcpyBody>();
  EXPECT_EQ(pp.is_peer, 1);
  EXPECT_EQ(pp.dst_device_id, 1u);
}

TEST(ActivityAdapter, DeviceContextStreamAndIgnoredKinds) {
  VectorSink sink;
  ActivityAdapter a(&sink, FakeNames, nullptr, 130001);
  CUpti_ActivityDevice5 d{};
  d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
  d.name = "NVIDIA H200";
  d.numMultiprocessors = 132;
  d.computeCapabilityMajor = 9;
  a.Handle(Act(d));
  CUpti_ActivityContext3 c{};
  c.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
  c.contextId = 1;
  c.nullStreamId = 7;
  a.Handle(Act(c));
  CUpti_ActivityStream st{};
  st.kind = CUPTI_ACTIVITY_KIND_STREAM;
  st.streamId = 13;
  st.flag = CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING;
  a.Handle(Act(st));
  CUpti_ActivityAPI other{};
  other.kind = CUPTI_ACTIVITY_KIND_NAME;
  a.Handle(Act(other));
  ASSERT_EQ(sink.records.size(), 3u);
  EXPECT_EQ(sink.records[0].text, "NVIDIA H200");
  EXPECT_EQ(sink.records[0].As<fmt::CudaDeviceBody>().multiprocessors, 132u);
  EXPECT_EQ(sink.records[1].As<fmt::CudaContextBody>().null_stream_id, 7u);
  EXPECT_EQ(sink.records[2].As<fmt::CudaStreamBody>().stream_id, 13u);
  EXPECT_EQ(a.stats().ignored, 1u);
  EXPECT_EQ(a.stats().records, 4u);
}

}  // namespace
}  // namespace gsys::capture::cupti
