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
  const OutputProvenance made_by{"gsys recipe x", "9.9"};
  ASSERT_TRUE(
      WriteOutputDir(dir.string(), false, *recipe, run, made_by, CsvText::kNeutralised).ok());
  EXPECT_EQ(Slurp(dir / "trace.csv"),
            "Rank,Name,Value\n0,\"'=HYPERLINK(\"\"x\"\")\",-1\n1,'@SUM(A1),-5\n"
            "1,\"multi\nline,=x\",2.5\n");
  ASSERT_TRUE(WriteOutputDir(dir.string(), true, *recipe, run, made_by, CsvText::kAsIs).ok());
  EXPECT_EQ(Slurp(dir / "trace.csv"),
            "Rank,Name,Value\n0,\"=HYPERLINK(\"\"x\"\")\",-1\n1,@SUM(A1),-5\n"
            "1,\"multi\nline,=x\",2.5\n");
}

// The manifest and the page name the command and the gsys version that made them.
TEST(OutputDirTest, ManifestAndPageCarryProvenance) {
  auto scratch = ScratchDir::Create();
  ASSERT_TRUE(scratch.ok());
  const Recipe* recipe = FindRecipe("cuda_gpu_kern_sum");
  ASSERT_NE(recipe, nullptr);
  RecipeRun run;
  const std::filesystem::path dir = (*scratch)->path() + "/made";
  OutputProvenance made_by{"gsys recipe cuda_gpu_kern_sum --input 'a b'", "1.2.3-test"};
  ASSERT_TRUE(WriteOutputDir(dir.string(), false, *recipe, run, made_by, CsvText::kAsIs).ok());
  const std::string manifest = Slurp(dir / "made.gsys-analysis");
  EXPECT_NE(manifest.find("\"CommandLine\": \"gsys recipe cuda_gpu_kern_sum --input 'a b'\""),
            std::string::npos)
      << manifest;
  EXPECT_NE(manifest.find("\"GsysVersion\": \"1.2.3-test\""), std::string::npos) << manifest;
  const std::string page = Slurp(dir / "cuda_gpu_kern_sum.html");
  EXPECT_NE(page.find("Made by gsys 1.2.3-test: gsys recipe cuda_gpu_kern_sum "
                      "--input &#39;a b&#39;"),
            std::string::npos);
}

}  // namespace
}  // namespace gsys::analysis::recipe
