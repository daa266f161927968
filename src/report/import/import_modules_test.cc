// SPDX-License-Identifier: Apache-2.0
// The module registry: every record kind capture writes has exactly one owner, the session's
// own kinds have none, and the registry's order is the one Finish relies on.
#include "report/import/import_modules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format/cuda_records.h"
#include "format/libapi_records.h"
#include "format/stack_records.h"
#include "report/import/stream_importer.h"

namespace gsys::report {
namespace {

using format::RecordKind;

struct Registry {
  format::SessionMeta meta;
  ImportCounters counters;
  std::vector<std::unique_ptr<ImportModule>> modules;
  std::vector<ImportModule*> list;
  Registry() {
    ImportContext context;
    context.meta = &meta;
    context.counters = &counters;
    modules = MakeImportModules(context);
    for (const auto& m : modules) list.push_back(m.get());
  }
  int Index(const std::string& name) const {
    for (size_t i = 0; i < list.size(); ++i) {
      if (name == list[i]->name()) return static_cast<int>(i);
    }
    return -1;
  }
};

std::string OwnerName(const ModuleTable& table, RecordKind kind) {
  ImportModule* m = table.Owner(kind);
  return m == nullptr ? "" : m->name();
}

TEST(ImportModulesTest, EachKindHasAtMostOneOwner) {
  Registry r;
  ModuleTable table(r.list);
  EXPECT_TRUE(table.conflicts().empty()) << table.conflicts().front();
}

TEST(ImportModulesTest, CapturedKindsGoToTheirDomain) {
  Registry r;
  ModuleTable table(r.list);
  for (auto k : {RecordKind::kNvtxPush, RecordKind::kNvtxPop, RecordKind::kNvtxStart,
                 RecordKind::kNvtxEnd, RecordKind::kNvtxMark, RecordKind::kNvtxDomainCreate,
                 RecordKind::kNvtxRegisterString, RecordKind::kNvtxNameCategory}) {
    EXPECT_EQ(OwnerName(table, k), "nvtx") << static_cast<int>(k);
  }
  EXPECT_EQ(OwnerName(table, RecordKind::kOsrtCall), "osrt");
  for (auto k : {format::kLibApiName, format::kLibApiCall, format::kMpiCall, format::kMpiRank}) {
    EXPECT_EQ(OwnerName(table, k), "libapi") << static_cast<int>(k);
  }
  for (auto k : {format::kStackModule, format::kStackSite, format::kStackSample,
                 format::kStackNotice, format::kStackSwitch}) {
    EXPECT_EQ(OwnerName(table, k), "stacks") << static_cast<int>(k);
  }
  for (auto k : {format::kCudaString, format::kCudaApi, format::kCudaKernel, format::kCudaMemcpy,
                 format::kCudaDevice, RecordKind::kCudaLast}) {
    EXPECT_EQ(OwnerName(table, k), "cuda") << static_cast<int>(k);
  }
}

TEST(ImportModulesTest, SessionKindsAndUnassignedKindsHaveNoOwner) {
  Registry r;
  ModuleTable table(r.list);
  for (auto k : {RecordKind::kPad, RecordKind::kProcessStart, RecordKind::kProcessEnd,
                 RecordKind::kThreadName, RecordKind::kCounter, RecordKind::kCaptureWindow,
                 RecordKind::kClockSync, RecordKind::kThreadGap}) {
    EXPECT_EQ(table.Owner(k), nullptr) << static_cast<int>(k);
  }
  EXPECT_EQ(table.Owner(static_cast<RecordKind>(40)), nullptr);
  EXPECT_EQ(table.Owner(static_cast<RecordKind>(300)), nullptr);  // above the table
}

TEST(ImportModulesTest, FinishOrderPutsDependentDomainsLast) {
  Registry r;
  // Library calls attribute CUDA kernels; stacks attach callchains to CUDA and OSRT rows.
  ASSERT_GE(r.Index("cuda"), 0);
  EXPECT_LT(r.Index("cuda"), r.Index("libapi"));
  EXPECT_LT(r.Index("cuda"), r.Index("stacks"));
  EXPECT_LT(r.Index("osrt"), r.Index("stacks"));
  EXPECT_GE(r.Index("gpu_metrics"), 0);
}

}  // namespace
}  // namespace gsys::report
