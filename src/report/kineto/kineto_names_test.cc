// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/kineto_names.h"

#include <gtest/gtest.h>

namespace gsys::report::kineto {
namespace {

TEST(KinetoNames, Categories) {
  EXPECT_EQ(ClassifyCategory("cpu_op"), EventClass::kCpuOp);
  EXPECT_EQ(ClassifyCategory("Operator"), EventClass::kCpuOp);
  EXPECT_EQ(ClassifyCategory("Kernel"), EventClass::kKernel);
  EXPECT_EQ(ClassifyCategory("cuda_driver"), EventClass::kDriver);
  EXPECT_EQ(ClassifyCategory("gpu_user_annotation"), EventClass::kOther);
  EXPECT_EQ(ClassifyCategory(""), EventClass::kOther);
}

TEST(KinetoNames, MemcpyNames) {
  CopyKinds k = ParseMemcpyName("Memcpy HtoD (Pinned -> Device)", "");
  EXPECT_EQ(k.copy_kind, 1);
  EXPECT_EQ(k.src_kind, 1);
  EXPECT_EQ(k.dst_kind, 2);
  k = ParseMemcpyName("Memcpy DtoD (Device -> Device)", "");
  EXPECT_EQ(k.copy_kind, 8);
  k = ParseMemcpyName("Memcpy PtoP (Device -> Device)", "");
  EXPECT_EQ(k.copy_kind, 10);
  k = ParseMemcpyName("hipMemcpy", "DtoH");  // ROCm: the kind in args
  EXPECT_EQ(k.copy_kind, 2);
  EXPECT_EQ(k.src_kind, 7);
  EXPECT_EQ(ParseMemsetKind("Memset (Device)"), 2);
  EXPECT_EQ(ParseMemsetKind("Memset"), 7);
}

TEST(KinetoNames, KernelNamesSpellAnonymousNamespacesAsNsys) {
  EXPECT_EQ(NsysKernelName("void a::(anonymous namespace)::k<b::(anonymous namespace)::c>(int)"),
            "void a::<unnamed>::k<b::<unnamed>::c>(int)");
  EXPECT_EQ(NsysKernelName("plain"), "plain");
}

TEST(KinetoNames, SyncAndDtypes) {
  EXPECT_EQ(ParseSyncKind("Stream Sync"), 3);
  EXPECT_EQ(ParseSyncKind("Event Sync"), 1);
  EXPECT_EQ(ParseSyncKind("Stream Wait Event"), 2);
  EXPECT_EQ(ParseSyncKind("Context Sync"), 4);
  EXPECT_EQ(ParseSyncKind("?"), 0);
  EXPECT_EQ(DtypeSize("Float"), 4);
  EXPECT_EQ(DtypeSize("BFloat16"), 2);
  EXPECT_FALSE(DtypeSize("Mystery"));
}

}  // namespace
}  // namespace gsys::report::kineto
