// SPDX-License-Identifier: Apache-2.0
// A main() for fuzz targets built without libFuzzer (GCC, the release and ASan builds): runs
// LLVMFuzzerTestOneInput once on every file named on the command line or found in a named
// directory, so the seed corpus and every committed crash input are regression tests in every
// build. Exit 0 when every input ran (a crash or sanitizer report fails the test).
#include <dirent.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool RunFile(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  std::vector<uint8_t> bytes;
  uint8_t buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
  std::fclose(f);
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    struct stat st {};
    if (stat(arg.c_str(), &st) != 0) {
      std::fprintf(stderr, "replay: cannot read %s\n", arg.c_str());
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
      runs += RunFile(arg) ? 1 : 0;
      continue;
    }
    DIR* d = opendir(arg.c_str());
    if (d == nullptr) return 1;
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') names.push_back(arg + "/" + e->d_name);
    }
    closedir(d);
    for (const auto& name : names) runs += RunFile(name) ? 1 : 0;
  }
  std::printf("replay: %d inputs ran\n", runs);
  return runs > 0 ? 0 : 1;
}
