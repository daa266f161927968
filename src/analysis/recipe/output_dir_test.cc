// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/output_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/recipe/spill.h"

namespace gsys::analysis::recipe {
namespace {

std::string Slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A table with one in-memory row and one spilled part: both halves of the written CSV carry the
// formula prefix by default and neither does with CsvText::kAsIs.
TEST(OutputDirTest, SpilledRowsAreNeutralisedLikeInMemoryRows) {
  auto scratch = ScratchDir::Create();
  ASSERT_TRUE(scratch.ok());
  Frame part;
  part.rows.push_back({std::string("@SUM(A1)"), int64_t{-5}});
  part.rows.push_back({std::string("multi\nline,=x"), 2.5});
  const std::string part_path = (*scratch)->path() + "/part0";
  ASSERT_TRUE(WritePart(part_path, part, 1).ok());

  RecipeRun run;
  OutputTable table("trace", Frame{});
  table.frame.columns = {"Rank", "Name", "Value"};
  table.frame.rows.push_back({int64_t{0}, std::string("=HYPERLINK(\"x\")"), int64_t{-1}});
  table.parts.push_back(part_path);
  run.result.tables.push_back(table);
  const Recipe* recipe = FindRecipe("cuda_gpu_kern_sum");
  ASSERT_NE(recipe, nullptr);

  const std::filesystem::path dir = (*scratch)->path() + "/out";
  ASSERT_TRUE(WriteOutputDir(dir.string(), false, *recipe, run, "test", CsvText::kNeutralised).ok());
  EXPECT_EQ(Slurp(dir / "trace.csv"),
            "Rank,Name,Value\n0,\"'=HYPERLINK(\"\"x\"\")\",-1\n1,'@SUM(A1),-5\n"
            "1,\"multi\nline,=x\",2.5\n");
  ASSERT_TRUE(WriteOutputDir(dir.string(), true, *recipe, run, "test", CsvText::kAsIs).ok());
  EXPECT_EQ(Slurp(dir / "trace.csv"),
            "Rank,Name,Value\n0,\"=HYPERLINK(\"\"x\"\")\",-1\n1,@SUM(A1),-5\n"
            "1,\"multi\nline,=x\",2.5\n");
}

}  // namespace
}  // namespace gsys::analysis::recipe
