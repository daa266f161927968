// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/output_dir.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "analysis/recipe/recipe_util.h"
#include "analysis/recipe/spill.h"
#include "common/command_text.h"
#include "common/rename_no_replace.h"

namespace gsys::analysis::recipe {
namespace {

namespace fs = std::filesystem;

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

Status WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) return Error(StatusCode::kIoError, "recipe: cannot write '" + path.string() + "'");
  return OkStatus();
}

// A table's CSV: the header and in-memory rows, then its spilled parts' records in order (the
// parts are written as they are; neutralised here when `text` asks for it).
Status WriteTable(const fs::path& path, const OutputTable& table, CsvText text) {
  GSYS_RETURN_IF_ERROR(WriteFile(path, ToCsv(table.frame, text)));
  if (table.parts.empty()) return OkStatus();
  std::FILE* out = std::fopen(path.c_str(), "ab");
  if (!out) return Error(StatusCode::kIoError, "recipe: cannot write '" + path.string() + "'");
  Status s = OkStatus();
  if (text == CsvText::kAsIs) {
    for (const std::string& part : table.parts) {
      s = AppendFileTo(out, part);
      if (!s.ok()) break;
    }
  } else {
    std::string line;
    bool written = true;
    s = ForEachRecord(table.parts, [&](const std::string& record) {
      line.clear();
      AppendNeutralisedRecord(&line, record);
      line += '\n';
      written = std::fwrite(line.data(), 1, line.size(), out) == line.size();
      return written;
    });
    if (s.ok() && !written) {
      s = Error(StatusCode::kIoError, "recipe: cannot write '" + path.string() + "'");
    }
  }
  if (std::fclose(out) != 0 && s.ok()) {
    s = Error(StatusCode::kIoError, "recipe: cannot write '" + path.string() + "'");
  }
  return s;
}

bool IsRecipeOutput(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "files.csv", ec) || fs::is_empty(dir, ec);
}

}  // namespace

Status CheckOutputDir(const std::string& dir, bool force) {
  std::error_code ec;
  fs::path path(dir);
  if (fs::exists(path, ec)) {
    if (!force) {
      return Error(StatusCode::kIoError,
                   "recipe: output '" + dir + "' already exists (use --force-overwrite)");
    }
    if (!fs::is_directory(path, ec) || !IsRecipeOutput(path)) {
      return Error(StatusCode::kIoError, "recipe: output '" + dir +
                                             "' exists and is not a recipe output directory; "
                                             "not replacing it");
    }
  }
  fs::path parent = fs::absolute(path, ec).parent_path();
  if (!fs::is_directory(parent, ec)) {
    return Error(StatusCode::kIoError, "recipe: cannot create output '" + dir + "': '" +
                                           parent.string() + "' is not a directory");
  }
  if (::access(parent.c_str(), W_OK) != 0) {
    return Error(StatusCode::kIoError, "recipe: cannot create output '" + dir + "': '" +
                                           parent.string() + "' is not writable");
  }
  return OkStatus();
}

html::Page RecipePage(const Recipe& recipe, const RecipeRun& run, const OutputProvenance& made_by) {
  html::Page page;
  page.title = recipe.title() + " (" + recipe.name() + ")";
  size_t skipped = std::count_if(run.ranks.begin(), run.ranks.end(),
                                 [](const RankInfo& r) { return r.skipped; });
  page.subtitle = "gsys recipe " + recipe.name() + " over " + std::to_string(run.ranks.size()) +
                  " report(s)" +
                  (skipped ? ", " + std::to_string(skipped) + " skipped" : std::string());
  page.blocks = run.result.blocks;
  for (const std::string& note : run.notes) page.blocks.emplace_back("Note: " + note);
  bool sets =
      std::any_of(run.ranks.begin(), run.ranks.end(), [](const RankInfo& r) { return r.set != 0; });
  page.blocks.emplace_back(TableBlock("files", FilesFrame(run.ranks, sets)));
  page.provenance = MadeByText(made_by.gsys_version, "", made_by.command_line);
  for (const RankInfo& r : run.ranks) {
    page.warnings.insert(page.warnings.end(), r.data_warnings.begin(), r.data_warnings.end());
  }
  return page;
}

Result<std::vector<std::string>> WriteOutputDir(const std::string& dir, bool force,
                                                const Recipe& recipe, const RecipeRun& run,
                                                const OutputProvenance& made_by, CsvText text) {
  GSYS_RETURN_IF_ERROR(CheckOutputDir(dir, force));
  std::error_code ec;
  fs::path final_path = fs::absolute(dir, ec);
  fs::path tmp = final_path;
  tmp += ".tmp-" + std::to_string(::getpid());
  fs::remove_all(tmp, ec);
  if (!fs::create_directory(tmp, ec)) {
    return Error(StatusCode::kIoError, "recipe: cannot create '" + tmp.string() + "'");
  }
  std::vector<std::string> written;
  bool sets =
      std::any_of(run.ranks.begin(), run.ranks.end(), [](const RankInfo& r) { return r.set != 0; });
  Status s = WriteFile(tmp / "files.csv", ToCsv(FilesFrame(run.ranks, sets), text));
  written.push_back("files.csv");
  for (const OutputTable& t : run.result.tables) {
    if (!s.ok()) break;
    s = WriteTable(tmp / (t.name + ".csv"), t, text);
    written.push_back(t.name + ".csv");
  }
  std::string page_name = recipe.name() + ".html";
  if (s.ok()) {
    s = WriteFile(tmp / page_name, html::RenderPage(RecipePage(recipe, run, made_by)));
  }
  written.push_back(page_name);
  std::string manifest_name = final_path.filename().string() + ".gsys-analysis";
  std::sort(written.begin(), written.end());
  std::string manifest = "{\n  \"RecipeName\": " + JsonString(recipe.name()) +
                         ",\n  \"DisplayName\": " + JsonString(recipe.title()) +
                         ",\n  \"CommandLine\": " + JsonString(made_by.command_line) +
                         ",\n  \"GsysVersion\": " + JsonString(made_by.gsys_version) +
                         ",\n  \"Outputs\": [";
  for (size_t i = 0; i < written.size(); ++i) {
    manifest += (i ? ", " : "") + JsonString(written[i]);
  }
  manifest += "]\n}\n";
  if (s.ok()) s = WriteFile(tmp / manifest_name, manifest);
  written.push_back(manifest_name);
  // Without --force-overwrite an output a concurrent run made after the check stays.
  if (s.ok() && force && fs::exists(final_path, ec)) fs::remove_all(final_path, ec);
  if (s.ok()) {
    int err = RenameNoReplace(tmp.c_str(), final_path.c_str());
    if (err == EEXIST || err == ENOTEMPTY) {
      s = Error(StatusCode::kIoError, "recipe: output '" + dir +
                                          "' appeared meanwhile (another run wrote it); not "
                                          "replaced (use --force-overwrite)");
    } else if (err != 0) {
      s = Error(StatusCode::kIoError, "recipe: cannot create '" + dir + "': " + std::strerror(err));
    }
  }
  if (!s.ok()) {
    fs::remove_all(tmp, ec);
    return s;
  }
  std::sort(written.begin(), written.end());
  return written;
}

}  // namespace gsys::analysis::recipe
