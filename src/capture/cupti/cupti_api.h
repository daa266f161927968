// SPDX-License-Identifier: Apache-2.0
// CuptiApi: the CUPTI entry points gsys uses, resolved with dlopen/dlsym at injection time.
// libgsys-inject.so never links libcupti (it is also preloaded into CPU-only processes), so
// every CUPTI call goes through this table. Types come from the CUPTI headers; only the
// symbols are late-bound.
#pragma once

#include <cupti.h>

#include <string>

namespace gsys::capture::cupti {

struct CuptiApi {
  decltype(&::cuptiGetVersion) GetVersion = nullptr;
  decltype(&::cuptiGetResultString) GetResultString = nullptr;
  decltype(&::cuptiSubscribe) Subscribe = nullptr;
  decltype(&::cuptiSubscribe_v2) Subscribe_v2 = nullptr;  // CUPTI 13.0+, may be null
  decltype(&::cuptiUnsubscribe) Unsubscribe = nullptr;
  decltype(&::cuptiEnableCallback) EnableCallback = nullptr;
  decltype(&::cuptiEnableDomain) EnableDomain = nullptr;
  decltype(&::cuptiGetCallbackName) GetCallbackName = nullptr;
  decltype(&::cuptiActivityEnable) ActivityEnable = nullptr;
  decltype(&::cuptiActivityDisable) ActivityDisable = nullptr;
  decltype(&::cuptiActivityEnableDriverApi) ActivityEnableDriverApi = nullptr;    // may be null
  decltype(&::cuptiActivityEnableRuntimeApi) ActivityEnableRuntimeApi = nullptr;  // may be null
  decltype(&::cuptiActivityRegisterCallbacks) ActivityRegisterCallbacks = nullptr;
  decltype(&::cuptiActivityRegisterTimestampCallback) ActivityRegisterTimestampCallback = nullptr;
  decltype(&::cuptiActivityGetNextRecord) ActivityGetNextRecord = nullptr;
  decltype(&::cuptiActivityGetNumDroppedRecords) ActivityGetNumDroppedRecords = nullptr;
  decltype(&::cuptiActivityFlushAll) ActivityFlushAll = nullptr;
  decltype(&::cuptiActivitySetAttribute) ActivitySetAttribute = nullptr;
  decltype(&::cuptiSetThreadIdType) SetThreadIdType = nullptr;
  decltype(&::cuptiFinalize) Finalize = nullptr;

  void* handle = nullptr;  // dlopen handle, kept for the life of the process
  std::string path;        // where libcupti came from (for the notice)

  // Text for a CUPTI result code ("CUPTI_ERROR_UNKNOWN"), safe when GetResultString is null.
  const char* ResultText(CUptiResult r) const;
};

// Finds and loads libcupti: one already in the process (RTLD_NOLOAD), then the copy next to
// the libcudart the process loaded, then the default search path ("libcupti.so.13",
// "libcupti.so"), then `cuda_home`/lib64 and /usr/local/cuda/lib64. Fills `api` and returns
// true when every required symbol resolved; on failure `error` says what was tried.
bool LoadCuptiApi(const std::string& cuda_home, CuptiApi* api, std::string* error);

}  // namespace gsys::capture::cupti
