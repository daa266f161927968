// SPDX-License-Identifier: Apache-2.0
#include "capture/cupti/cupti_api.h"

#include <dlfcn.h>
#include <link.h>

#include <cstring>

namespace gsys::capture::cupti {
namespace {

// Directory of the first loaded object whose path contains "libcudart.so", or "".
int FindCudartDir(struct dl_phdr_info* info, size_t, void* data) {
  auto* out = static_cast<std::string*>(data);
  const char* name = info->dlpi_name;
  if (name == nullptr || std::strstr(name, "libcudart.so") == nullptr) return 0;
  std::string path(name);
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return 0;
  *out = path.substr(0, slash);
  return 1;
}

void* TryOpen(const std::string& path, int flags, std::string* tried) {
  void* h = dlopen(path.c_str(), flags);
  if (!tried->empty()) tried->append(", ");
  tried->append(path);
  return h;
}

template <typename Fn>
bool Resolve(void* handle, const char* symbol, Fn* out, bool required, std::string* missing) {
  *out = reinterpret_cast<Fn>(dlsym(handle, symbol));
  if (*out == nullptr && required) {
    if (!missing->empty()) missing->append(" ");
    missing->append(symbol);
  }
  return *out != nullptr || !required;
}

void* OpenCupti(const std::string& cuda_home, std::string* tried) {
  for (const char* so : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"}) {
    if (void* h = dlopen(so, RTLD_NOW | RTLD_NOLOAD)) return h;
  }
  std::string cudart_dir;
  dl_iterate_phdr(FindCudartDir, &cudart_dir);
  if (!cudart_dir.empty()) {
    // toolkit layout (lib64/libcudart + lib64/libcupti) and pip wheels
    // (nvidia/cuda_runtime/lib + nvidia/cuda_cupti/lib, or nvidia/cu13/lib for both).
    for (const char* rel :
         {"/libcupti.so.13", "/libcupti.so.12", "/libcupti.so",
          "/../../cuda_cupti/lib/libcupti.so.13", "/../../cuda_cupti/lib/libcupti.so.12"}) {
      if (void* h = TryOpen(cudart_dir + rel, RTLD_NOW | RTLD_LOCAL, tried)) return h;
    }
  }
  for (const char* so : {"libcupti.so.13", "libcupti.so"}) {
    if (void* h = TryOpen(so, RTLD_NOW | RTLD_LOCAL, tried)) return h;
  }
  std::string homes[] = {cuda_home, "/usr/local/cuda"};
  for (const std::string& home : homes) {
    if (home.empty()) continue;
    for (const char* rel : {"/lib64/libcupti.so.13", "/lib/libcupti.so.13",
                            "/extras/CUPTI/lib64/libcupti.so.13", "/lib64/libcupti.so"}) {
      if (void* h = TryOpen(home + rel, RTLD_NOW | RTLD_LOCAL, tried)) return h;
    }
  }
  return nullptr;
}

}  // namespace

const char* CuptiApi::ResultText(CUptiResult r) const {
  const char* text = nullptr;
  if (GetResultString != nullptr && GetResultString(r, &text) == CUPTI_SUCCESS && text) {
    return text;
  }
  return "CUPTI_ERROR_?";
}

bool LoadCuptiApi(const std::string& cuda_home, CuptiApi* api, std::string* error) {
  std::string tried;
  void* h = OpenCupti(cuda_home, &tried);
  if (h == nullptr) {
    *error = "libcupti not found (tried " + tried + ")";
    return false;
  }
  api->handle = h;
  char origin[4096] = {0};
  if (dlinfo(h, RTLD_DI_ORIGIN, origin) == 0) api->path = origin;
  std::string missing;
  bool ok = true;
  ok &= Resolve(h, "cuptiGetVersion", &api->GetVersion, true, &missing);
  ok &= Resolve(h, "cuptiGetResultString", &api->GetResultString, true, &missing);
  ok &= Resolve(h, "cuptiSubscribe", &api->Subscribe, true, &missing);
  ok &= Resolve(h, "cuptiSubscribe_v2", &api->Subscribe_v2, false, &missing);
  ok &= Resolve(h, "cuptiUnsubscribe", &api->Unsubscribe, true, &missing);
  ok &= Resolve(h, "cuptiEnableCallback", &api->EnableCallback, true, &missing);
  ok &= Resolve(h, "cuptiEnableDomain", &api->EnableDomain, true, &missing);
  ok &= Resolve(h, "cuptiGetCallbackName", &api->GetCallbackName, true, &missing);
  ok &= Resolve(h, "cuptiActivityEnable", &api->ActivityEnable, true, &missing);
  ok &= Resolve(h, "cuptiActivityDisable", &api->ActivityDisable, true, &missing);
  ok &= Resolve(h, "cuptiActivityEnableDriverApi", &api->ActivityEnableDriverApi, false, &missing);
  ok &=
      Resolve(h, "cuptiActivityEnableRuntimeApi", &api->ActivityEnableRuntimeApi, false, &missing);
  ok &=
      Resolve(h, "cuptiActivityRegisterCallbacks", &api->ActivityRegisterCallbacks, true, &missing);
  ok &= Resolve(h, "cuptiActivityRegisterTimestampCallback",
                &api->ActivityRegisterTimestampCallback, false, &missing);
  ok &= Resolve(h, "cuptiActivityGetNextRecord", &api->ActivityGetNextRecord, true, &missing);
  ok &= Resolve(h, "cuptiActivityGetNumDroppedRecords", &api->ActivityGetNumDroppedRecords, true,
                &missing);
  ok &= Resolve(h, "cuptiActivityFlushAll", &api->ActivityFlushAll, true, &missing);
  ok &= Resolve(h, "cuptiActivitySetAttribute", &api->ActivitySetAttribute, true, &missing);
  ok &= Resolve(h, "cuptiSetThreadIdType", &api->SetThreadIdType, true, &missing);
  ok &= Resolve(h, "cuptiFinalize", &api->Finalize, true, &missing);
  if (!ok) {
    *error = api->path + "/libcupti lacks: " + missing;
    return false;
  }
  return true;
}

}  // namespace gsys::capture::cupti
