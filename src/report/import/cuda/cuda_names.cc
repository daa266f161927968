// SPDX-License-Identifier: Apache-2.0
#include "report/import/cuda/cuda_names.h"

#include <cxxabi.h>

#include <cstdlib>

namespace gsys::report {
namespace {

void ReplaceAll(std::string* s, std::string_view from, std::string_view to) {
  for (size_t at = s->find(from); at != std::string::npos; at = s->find(from, at + to.size())) {
    s->replace(at, from.size(), to);
  }
}

}  // namespace

std::string DemangleKernelName(std::string_view mangled) {
  if (mangled.size() < 2 || mangled[0] != '_' || mangled[1] != 'Z') return std::string(mangled);
  std::string in(mangled);
  int status = 0;
  char* out = abi::__cxa_demangle(in.c_str(), nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) {
    std::free(out);
    return in;
  }
  std::string result(out);
  std::free(out);
  ReplaceAll(&result, "(anonymous namespace)", "<unnamed>");
  return result;
}

std::string KernelShortName(std::string_view name) {
  // Find the parameter list: the last '(' at template depth 0 whose ')' closes the name.
  int angle = 0;
  int paren = 0;
  size_t params = std::string_view::npos;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<') ++angle;
    if (c == '>' && angle > 0) --angle;
    if (c == '(' && angle == 0) {
      if (paren == 0) params = i;
      ++paren;
    }
    if (c == ')' && angle == 0 && paren > 0) --paren;
  }
  // "(anonymous namespace)" / "<unnamed>" never reach here as the last group, but a name
  // without parameters (extern "C") has none.
  std::string_view head = params == std::string_view::npos ? name : name.substr(0, params);
  // Strip trailing template arguments.
  while (!head.empty() && head.back() == '>') {
    int depth = 0;
    size_t i = head.size();
    while (i > 0) {
      --i;
      if (head[i] == '>') ++depth;
      if (head[i] == '<' && --depth == 0) break;
    }
    head = head.substr(0, i);
  }
  // Keep what follows the last top-level "::" or space (return type, scopes).
  angle = 0;
  size_t begin = 0;
  for (size_t i = 0; i < head.size(); ++i) {
    char c = head[i];
    if (c == '<') ++angle;
    if (c == '>' && angle > 0) --angle;
    if (angle != 0) continue;
    if (c == ' ') begin = i + 1;
    if (c == ':' && i + 1 < head.size() && head[i + 1] == ':') begin = i + 2;
  }
  std::string_view base = head.substr(begin);
  return base.empty() ? std::string(name) : std::string(base);
}

}  // namespace gsys::report
