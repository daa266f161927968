// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/kineto_names.h"

#include <cctype>
#include <string>

namespace gsys::report::kineto {
namespace {

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// ENUM_CUDA_MEMCPY_OPER labels as export/timeline writes them (the inverse of its table).
constexpr std::string_view kCopyNames[] = {
    "Unknown", "HtoD", "DtoH", "HtoA", "AtoH",         "AtoA",         "AtoD",
    "DtoA",    "DtoD", "HtoH", "PtoP", "Unified HtoD", "Unified DtoH", "Unified DtoD"};
constexpr std::string_view kMemNames[] = {"Pageable", "Pinned",        "Device",         "Array",
                                          "Managed",  "Device Static", "Managed Static", "Unknown"};

int64_t MemKind(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  for (size_t i = 0; i < std::size(kMemNames); ++i) {
    if (EqualsNoCase(s, kMemNames[i])) return static_cast<int64_t>(i);
  }
  return 7;
}

int64_t CopyKind(std::string_view s) {
  for (size_t i = 0; i < std::size(kCopyNames); ++i) {
    if (EqualsNoCase(s, kCopyNames[i])) return static_cast<int64_t>(i);
  }
  return 0;
}

}  // namespace

EventClass ClassifyCategory(std::string_view cat) {
  struct Entry {
    std::string_view name;
    EventClass c;
  };
  static constexpr Entry kEntries[] = {
      {"cpu_op", EventClass::kCpuOp},
      {"operator", EventClass::kCpuOp},
      {"user_annotation", EventClass::kUserAnnotation},
      {"python_function", EventClass::kPythonFunction},
      {"cuda_runtime", EventClass::kRuntime},
      {"runtime", EventClass::kRuntime},
      {"cuda_driver", EventClass::kDriver},
      {"driver", EventClass::kDriver},
      {"kernel", EventClass::kKernel},
      {"gpu_memcpy", EventClass::kMemcpy},
      {"memcpy", EventClass::kMemcpy},
      {"gpu_memset", EventClass::kMemset},
      {"memset", EventClass::kMemset},
      {"cuda_sync", EventClass::kSync},
      {"trace", EventClass::kTraceSpan},
  };
  for (const Entry& e : kEntries) {
    if (EqualsNoCase(cat, e.name)) return e.c;
  }
  return EventClass::kOther;
}

int64_t NvtxCategoryOf(EventClass c) {
  switch (c) {
    case EventClass::kCpuOp:
      return 1;
    case EventClass::kUserAnnotation:
      return 2;
    case EventClass::kPythonFunction:
      return 3;
    default:
      return 0;
  }
}

std::string_view NvtxCategoryName(int64_t category) {
  switch (category) {
    case 1:
      return "cpu_op";
    case 2:
      return "user_annotation";
    case 3:
      return "python_function";
    default:
      return "";
  }
}

CopyKinds ParseMemcpyName(std::string_view name, std::string_view kind_arg) {
  CopyKinds k;
  std::string_view rest = name;
  if (rest.substr(0, 7) == "Memcpy ") rest.remove_prefix(7);
  size_t paren = rest.find(" (");
  k.copy_kind = CopyKind(rest.substr(0, paren));
  if (k.copy_kind == 0 && !kind_arg.empty()) k.copy_kind = CopyKind(kind_arg);
  if (paren != std::string_view::npos) {
    std::string_view inner = rest.substr(paren + 2);
    size_t close = inner.rfind(')');
    inner = inner.substr(0, close);
    size_t arrow = inner.find("->");
    if (arrow != std::string_view::npos) {
      k.src_kind = MemKind(inner.substr(0, arrow));
      k.dst_kind = MemKind(inner.substr(arrow + 2));
    }
  }
  return k;
}

int64_t ParseMemsetKind(std::string_view name) {
  size_t open = name.find('(');
  size_t close = name.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return 7;
  return MemKind(name.substr(open + 1, close - open - 1));
}

int64_t ParseSyncKind(std::string_view kind) {
  if (EqualsNoCase(kind, "Event Sync")) return 1;
  if (EqualsNoCase(kind, "Stream Wait Event")) return 2;
  if (EqualsNoCase(kind, "Stream Sync")) return 3;
  if (EqualsNoCase(kind, "Context Sync")) return 4;
  return 0;
}

std::string NsysKernelName(std::string_view name) {
  constexpr std::string_view kAnon = "(anonymous namespace)";
  std::string out;
  out.reserve(name.size());
  size_t at = 0;
  for (size_t hit; (hit = name.find(kAnon, at)) != std::string_view::npos;
       at = hit + kAnon.size()) {
    out.append(name.substr(at, hit - at));
    out.append("<unnamed>");
  }
  out.append(name.substr(at));
  return out;
}

std::optional<int64_t> DtypeSize(std::string_view dtype) {
  struct Entry {
    std::string_view name;
    int64_t size;
  };
  static constexpr Entry kSizes[] = {
      {"Byte", 1},
      {"Char", 1},
      {"Bool", 1},
      {"QInt8", 1},
      {"QUInt8", 1},
      {"Float8_e5m2", 1},
      {"Float8_e4m3fn", 1},
      {"Float8_e5m2fnuz", 1},
      {"Float8_e4m3fnuz", 1},
      {"Short", 2},
      {"Half", 2},
      {"BFloat16", 2},
      {"UInt16", 2},
      {"Int", 4},
      {"Float", 4},
      {"QInt32", 4},
      {"UInt32", 4},
      {"ComplexHalf", 4},
      {"Long", 8},
      {"Double", 8},
      {"UInt64", 8},
      {"ComplexFloat", 8},
      {"ComplexDouble", 16},
  };
  for (const Entry& e : kSizes) {
    if (dtype == e.name) return e.size;
  }
  return std::nullopt;
}

}  // namespace gsys::report::kineto
