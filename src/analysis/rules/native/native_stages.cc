// SPDX-License-Identifier: Apache-2.0
#include "analysis/rules/native/native_stages.h"

namespace gsys::analysis::native {

Stage FindStage(std::string_view name) {
  static constexpr struct {
    std::string_view rule;
    Stage stage;
  } kStages[] = {{"gpu_gaps", GpuGapsStage}, {"gpu_time_util", GpuTimeUtilStage}};
  for (const auto& s : kStages) {
    if (s.rule == name) return s.stage;
  }
  return nullptr;
}

}  // namespace gsys::analysis::native
