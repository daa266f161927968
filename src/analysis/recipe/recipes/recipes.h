// SPDX-License-Identifier: Apache-2.0
// Factories of the recipes in this folder (registered by recipe_registry.cc). Each returns
// nullptr for a name it does not know.
#pragma once

#include <memory>
#include <string>

#include "analysis/recipe/recipe.h"

namespace gsys::analysis::recipe {

std::unique_ptr<Recipe> MakeSummaryRecipe(const std::string& name);     // summary.cc
std::unique_ptr<Recipe> MakeUtilMapRecipe(const std::string& name);     // util_map.cc
std::unique_ptr<Recipe> MakeNcclOverlapRecipe();                        // nccl_overlap.cc
std::unique_ptr<Recipe> MakePaceRecipe(const std::string& name);        // pace.cc
std::unique_ptr<Recipe> MakeNvtxProjRecipe(const std::string& name);    // nvtx_proj.cc
std::unique_ptr<Recipe> MakeRuleRecipe(const std::string& name);        // rule_recipe.cc
std::unique_ptr<Recipe> MakeDiffRecipe();                               // diff.cc
std::unique_ptr<Recipe> MakeKernHistRecipe();                           // kern_hist.cc
std::unique_ptr<Recipe> MakeMpiUtilMapRecipe();                         // mpi_util_map.cc
std::unique_ptr<Recipe> MakeGpuMetricsRecipe(const std::string& name);  // gpu_metrics.cc

}  // namespace gsys::analysis::recipe

namespace gsys::analysis::recipe {

// diff over two recipe output directories (their files.csv and all_stats.csv) instead of
// reports; fills `ranks` from their files.csv (set 0 and 1).
bool IsRecipeOutputDir(const std::string& path);
Result<RecipeResult> DiffRecipeOutputs(const std::string& a, const std::string& b, double tolerance,
                                       std::vector<RankInfo>* ranks);

}  // namespace gsys::analysis::recipe
