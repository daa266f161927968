// SPDX-License-Identifier: Apache-2.0
// The recipe registry: one line per recipe. Keep it sorted by name.
#include <algorithm>

#include "analysis/recipe/recipe.h"
#include "analysis/recipe/recipes/recipes.h"

namespace gsys::analysis::recipe {
namespace {

std::vector<std::unique_ptr<Recipe>> Build() {
  std::vector<std::unique_ptr<Recipe>> list;
  list.push_back(MakeSummaryRecipe("cuda_api_sum"));
  list.push_back(MakeSummaryRecipe("cuda_gpu_kern_sum"));
  list.push_back(MakeSummaryRecipe("cuda_gpu_mem_size_sum"));
  list.push_back(MakeSummaryRecipe("cuda_gpu_mem_time_sum"));
  list.push_back(MakeSummaryRecipe("mpi_sum"));
  list.push_back(MakeSummaryRecipe("nccl_gpu_proj_sum"));
  list.push_back(MakeSummaryRecipe("nccl_sum"));
  list.push_back(MakeSummaryRecipe("nvtx_sum"));
  list.push_back(MakeSummaryRecipe("osrt_sum"));
  list.push_back(MakeUtilMapRecipe("cuda_gpu_time_util_map"));
  list.push_back(MakeUtilMapRecipe("nccl_gpu_time_util_map"));
  list.push_back(MakeNcclOverlapRecipe());
  list.push_back(MakeMpiUtilMapRecipe());
  list.push_back(MakeGpuMetricsRecipe("gpu_metric_util_map"));
  list.push_back(MakeGpuMetricsRecipe("gpu_metric_util_sum"));
  list.push_back(MakeGpuMetricsRecipe("nvlink_sum"));
  list.push_back(MakePaceRecipe("nvtx_pace"));
  list.push_back(MakePaceRecipe("cuda_gpu_kern_pace"));
  list.push_back(MakePaceRecipe("nvtx_gpu_proj_pace"));
  list.push_back(MakeKernHistRecipe());
  list.push_back(MakeNvtxProjRecipe("nvtx_gpu_proj_sum"));
  list.push_back(MakeNvtxProjRecipe("nvtx_gpu_proj_trace"));
  list.push_back(MakeDiffRecipe());
  list.push_back(MakeRuleRecipe("cuda_api_sync"));
  list.push_back(MakeRuleRecipe("cuda_memcpy_async"));
  list.push_back(MakeRuleRecipe("cuda_memcpy_sync"));
  list.push_back(MakeRuleRecipe("cuda_memset_sync"));
  list.push_back(MakeRuleRecipe("dataloader_wait"));
  list.push_back(MakeRuleRecipe("gpu_gaps"));
  list.push_back(MakeRuleRecipe("gpu_starvation"));
  list.push_back(MakeRuleRecipe("gpu_time_util"));
  list.push_back(MakeRuleRecipe("launch_bound"));
  list.push_back(MakeRuleRecipe("nccl_exposed"));
  list.push_back(MakeRuleRecipe("pageable_h2d"));
  list.push_back(MakeRuleRecipe("sync_in_loop"));
  std::erase(list, nullptr);
  std::sort(list.begin(), list.end(),
            [](const auto& a, const auto& b) { return a->name() < b->name(); });
  return list;
}

}  // namespace

const std::vector<std::unique_ptr<Recipe>>& AllRecipes() {
  static const auto* recipes = new std::vector<std::unique_ptr<Recipe>>(Build());
  return *recipes;
}

const Recipe* FindRecipe(std::string_view name) {
  for (const auto& r : AllRecipes()) {
    if (r->name() == name) return r.get();
  }
  return nullptr;
}

std::vector<std::string> RecipeNames() {
  std::vector<std::string> names;
  for (const auto& r : AllRecipes()) names.push_back(r->name());
  return names;
}

}  // namespace gsys::analysis::recipe
