// SPDX-License-Identifier: Apache-2.0
#include "upload/curl_loader.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "upload/environment.h"

namespace gsys::upload {
namespace {

template <typename F>
bool Resolve(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  return *out != nullptr;
}

Result<const CurlApi*> LoadOnce() {
  static CurlApi api;
  std::optional<std::string> forced = NonEmpty(ProcessEnvironment(), "GSYS_UPLOAD_LIBCURL");
  // libcurl.so.4 is the OpenSSL flavour; the GnuTLS flavour has the same ABI and is what
  // some desktop images carry instead.
  std::vector<std::string> names =
      forced ? std::vector<std::string>{*forced}
             : std::vector<std::string>{"libcurl.so.4", "libcurl-gnutls.so.4"};
  void* lib = nullptr;
  std::string why;
  for (const auto& name : names) {
    lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib != nullptr) break;
    const char* err = dlerror();
    if (why.empty()) why = err != nullptr ? err : name + ": cannot load";
  }
  if (lib == nullptr) {
    return Error(
        StatusCode::kUnsupported,
        "upload: s3:// destinations need libcurl, which could not be loaded (" + why +
            "); install it (Debian/Ubuntu: apt-get install libcurl4) or upload to file:///");
  }
  CURLcode (*global_init)(long) = nullptr;
  bool ok = Resolve(lib, "curl_global_init", &global_init) &&
            Resolve(lib, "curl_easy_init", &api.easy_init) &&
            Resolve(lib, "curl_easy_setopt", &api.easy_setopt) &&
            Resolve(lib, "curl_easy_perform", &api.easy_perform) &&
            Resolve(lib, "curl_easy_getinfo", &api.easy_getinfo) &&
            Resolve(lib, "curl_easy_cleanup", &api.easy_cleanup) &&
            Resolve(lib, "curl_easy_strerror", &api.easy_strerror) &&
            Resolve(lib, "curl_slist_append", &api.slist_append) &&
            Resolve(lib, "curl_slist_free_all", &api.slist_free_all);
  if (!ok) {
    return Error(StatusCode::kUnsupported,
                 "upload: the loaded libcurl lacks a needed function (too old?); install libcurl4");
  }
  if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    return Error(StatusCode::kUnsupported, "upload: libcurl failed to initialize");
  }
  // The library stays loaded for the life of the process (libcurl keeps global state).
  return static_cast<const CurlApi*>(&api);
}

}  // namespace

Result<const CurlApi*> LoadCurl() {
  static std::mutex mu;
  static std::optional<Result<const CurlApi*>> loaded;
  std::lock_guard<std::mutex> lock(mu);
  if (!loaded) loaded.emplace(LoadOnce());
  return *loaded;
}

}  // namespace gsys::upload
