// SPDX-License-Identifier: Apache-2.0
// `gsys recipe NAME [options] --input REPORT|DIR ... [--output DIR]`: multi-report analyses
// (nsys recipe) run in parallel, locally or under mpirun (--mode mpi).
#include "cli/recipe_command.h"

#include <sched.h>

#include <cstdio>
#include <thread>

#include "analysis/recipe/engine.h"
#include "analysis/recipe/nvtx_filter.h"
#include "analysis/recipe/output_dir.h"
#include "analysis/recipe/recipes/recipes.h"
#include "cli/data_warnings.h"
#include "cli/flags.h"
#include "cli/output.h"
#include "cli/subcommand.h"
#include "cli/time_spec.h"
#include "common/command_text.h"
#include "common/strings.h"

namespace gsys::cli {
namespace {

namespace rc = analysis::recipe;

const std::vector<FlagSpec>& RecipeFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"input", 0, FlagValue::kRequired, "PATH",
       "Report (.gsys-rep, .sqlite, X.nsys-rep with X.sqlite beside it) or\n"
       "directory of reports (DIR:N = its first N); repeatable. Files after\n"
       "'--' are inputs too. diff: exactly two, each a report, a directory or\n"
       "a recipe output."},
      {"output", 0, FlagValue::kRequired, "DIR",
       "Output directory; %q{ENV} %h %p %n %% are expanded. Default NAME-%n."},
      {"force-overwrite", 0, FlagValue::kBool, "", "Replace an existing output directory."},
      {"mode", 0, FlagValue::kRequired, "local|mpi",
       "local (default; also nsys's none/concurrent): threads on this machine.\n"
       "mpi: under mpirun, inputs are split across processes, rank 0 reduces."},
      {"threads", 0, FlagValue::kRequired, "N",
       "Worker threads per process (default: the CPUs it may run on; 1 with\n"
       "--mode mpi)."},
      {"filter-time", 0, FlagValue::kRequired, "[START]/[END]",
       "Only events overlapping this window of each report (e.g. 1s/2s500ms)."},
      {"filter-nvtx", 0, FlagValue::kRequired, "RANGE[@DOMAIN][/INDEX]",
       "Only events overlapping this NVTX range of each report: every instance\n"
       "(0-based INDEX: one; ordered by start), default domain unless @DOMAIN\n"
       "(@* any); escape @ / \\ in names with \\. A report without it is skipped."},
      {"bins", 0, FlagValue::kRequired, "N", "Time bins of heat maps (default 30)."},
      {"disable-alignment", 0, FlagValue::kNone, "",
       "Do not align sessions by their start time (UTC)."},
      {"base", 0, FlagValue::kNone, "", "Kernel base names (shortName)."},
      {"mangled", 0, FlagValue::kNone, "", "Kernel mangled names."},
      {"per-gpu", 0, FlagValue::kNone, "", "Split statistics per GPU (Device ID)."},
      {"per-stream", 0, FlagValue::kNone, "", "Split statistics per stream (and GPU)."},
      {"name", 0, FlagValue::kRequired, "NAME",
       "Range or kernel of the pace recipes (nvtx_pace, cuda_gpu_kern_pace)."},
      {"gap", 0, FlagValue::kRequired, "MS", "gpu_gaps: smallest gap reported (default 500)."},
      {"threshold", 0, FlagValue::kRequired, "PCT",
       "gpu_time_util, nccl_exposed: threshold in % (default 50)."},
      {"chunks", 0, FlagValue::kRequired, "N", "gpu_time_util: chunks (default 30)."},
      {"rows", 0, FlagValue::kRequired, "N", "Rule recipes: rows per rank (default -1 = all)."},
      {"tolerance", 0, FlagValue::kRequired, "PCT",
       "diff: changes within this % count as unchanged (default 0)."},
      {"csv", 0, FlagValue::kNone, "", "Accepted for nsys compatibility (CSV is always written)."},
      {"csv-raw", 0, FlagValue::kNone, "",
       "Write text values starting with = + - @ as they are. By default they\n"
       "get a leading ' so that spreadsheets do not run them as formulas."},
      {"quiet", 'q', FlagValue::kNone, "", "No progress bar and no summary."},
      {"help-recipes", 0, FlagValue::kOptional, "NAME|ALL", "List recipes, or describe one."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

std::string RecipeList() {
  std::string out;
  for (const auto& r : rc::AllRecipes()) {
    std::string left = "  " + r->name();
    if (left.size() < 28) left.resize(28, ' ');
    out += left + r->title() + "\n";
  }
  return out;
}

Result<const rc::Recipe*> LookupRecipe(const std::string& name) {
  if (const rc::Recipe* r = rc::FindRecipe(name)) return r;
  std::string msg = "recipe: unknown recipe '" + name + "'";
  if (auto best = ClosestMatch(name, rc::RecipeNames())) {
    msg += " (did you mean '" + *best + "'?)";
  } else {
    msg += " (see gsys recipe --help-recipes)";
  }
  return Error(StatusCode::kInvalidArgument, msg);
}

// CPUs this process may run on (its affinity mask: taskset, cgroups' cpusets), else the cores.
int64_t UsableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
    return CPU_COUNT(&set);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// This command as a shell would take it, secrets masked, for the manifest and the page footer.
rc::OutputProvenance MadeBy(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"gsys", "recipe"};
  argv.insert(argv.end(), args.begin(), args.end());
  return {CommandText(argv), GSYS_VERSION};
}

Result<int64_t> IntFlag(const ParsedFlags& flags, const std::string& name, int64_t lo, int64_t hi,
                        int64_t fallback) {
  auto text = flags.Last(name);
  if (!text) return fallback;
  auto value = ParseInt64(*text);
  if (!value || *value < lo || *value > hi) {
    return Error(StatusCode::kInvalidArgument, "recipe: --" + name + " must be an integer from " +
                                                   std::to_string(lo) + " to " +
                                                   std::to_string(hi) + ", got '" + *text + "'");
  }
  return *value;
}

Result<rc::RecipeOptions> ParseOptions(const ParsedFlags& flags) {
  rc::RecipeOptions o;
  if (auto window = flags.Last("filter-time")) {
    auto parsed = ParseTimeWindow(*window);
    if (!parsed.ok()) {
      return Error(StatusCode::kInvalidArgument,
                   "recipe: --filter-time: " + parsed.status().message());
    }
    if (parsed->start != INT64_MIN) o.filter_start = parsed->start;
    if (parsed->end != INT64_MAX) o.filter_end = parsed->end;
  }
  o.filter_nvtx = flags.Last("filter-nvtx");
  if (o.filter_nvtx) {
    if (flags.Has("filter-time")) {
      return Error(StatusCode::kInvalidArgument,
                   "recipe: --filter-time and --filter-nvtx exclude each other");
    }
    GSYS_RETURN_IF_ERROR(rc::ParseNvtxRangeSpec(*o.filter_nvtx).status());
  }
  GSYS_ASSIGN_OR_RETURN(int64_t bins, IntFlag(flags, "bins", 1, 100000, 30));
  o.bins = static_cast<int>(bins);
  o.disable_alignment = flags.Has("disable-alignment");
  if (flags.Has("base") && flags.Has("mangled")) {
    return Error(StatusCode::kInvalidArgument, "recipe: --base and --mangled exclude each other");
  }
  if (flags.Has("base")) o.name_variant = rc::NameVariant::kBase;
  if (flags.Has("mangled")) o.name_variant = rc::NameVariant::kMangled;
  o.per_gpu = flags.Has("per-gpu") || flags.Has("per-stream");
  o.per_stream = flags.Has("per-stream");
  o.range_name = flags.Last("name").value_or("");
  for (const char* rule_option : {"gap", "threshold", "chunks", "rows"}) {
    if (auto v = flags.Last(rule_option))
      o.rule_args.push_back(std::string(rule_option) + "=" + *v);
  }
  if (auto t = flags.Last("tolerance")) {
    char* end = nullptr;
    o.tolerance = std::strtod(t->c_str(), &end);
    if (t->empty() || *end != '\0' || o.tolerance < 0) {
      return Error(StatusCode::kInvalidArgument,
                   "recipe: --tolerance must be a non-negative percentage, got '" + *t + "'");
    }
  }
  return o;
}

class RecipeCommand : public Subcommand {
 public:
  std::string Name() const override { return "recipe"; }
  std::string Summary() const override {
    return "Multi-report analyses (nsys recipe): per-rank stats, heat maps, NCCL overlap, diff";
  }
  std::string Help() const override {
    return "usage: gsys recipe NAME [options] --input REPORT|DIR ... [--output DIR]\n"
           "       gsys recipe NAME [options] -- REPORT ...\n\n"
           "Runs a multi-report analysis over gsys reports and nsys SQLite exports (one per\n"
           "rank), in parallel, and writes a directory: one CSV per table (files.csv is the\n"
           "rank index; every other table has a Rank column), one self-contained HTML page and\n"
           "a NAME.gsys-analysis manifest; a short summary goes to the terminal. See\n"
           "docs/recipes.md and 'gsys recipe --help-recipes NAME'.\n\n"
           "recipes:\n" +
           RecipeList() + "\noptions:\n" + FlagsHelp(RecipeFlags()) +
           "\nexit codes: 0 ok (skipped ranks are listed), 2 usage (unknown recipe or option,\n"
           "no input), 3 input missing, 4 unreadable input,\n"
           "5 unsupported (.nsys-rep without export, no Open MPI), 6 output exists or cannot\n"
           "be written.\n";
  }

  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("recipe", RecipeFlags(), args, false));
    if (flags.Has("help") && flags.positionals().empty()) {
      PrintOut(Help());
      return 0;
    }
    if (flags.Has("help-recipes") || flags.Has("help")) {
      std::string topic = flags.Last("help-recipes").value_or("");
      if (topic.empty() && !flags.positionals().empty()) topic = flags.positionals().front();
      return ShowRecipeHelp(topic);
    }
    if (flags.positionals().empty()) {
      return Error(StatusCode::kInvalidArgument,
                   "recipe: no recipe given (usage: gsys recipe NAME --input REPORT...)");
    }
    GSYS_ASSIGN_OR_RETURN(const rc::Recipe* recipe, LookupRecipe(flags.positionals().front()));
    GSYS_ASSIGN_OR_RETURN(rc::RecipeOptions options, ParseOptions(flags));
    GSYS_RETURN_IF_ERROR(recipe->Validate(options));
    std::vector<std::string> inputs = flags.All("input");
    inputs.insert(inputs.end(), flags.positionals().begin() + 1, flags.positionals().end());
    std::string mode = flags.Last("mode").value_or("local");
    if (mode != "local" && mode != "none" && mode != "concurrent" && mode != "mpi") {
      return Error(StatusCode::kInvalidArgument,
                   "recipe: unknown --mode '" + mode + "' (expected local or mpi)");
    }
    GSYS_ASSIGN_OR_RETURN(int64_t threads, IntFlag(flags, "threads", 1, 1024,
                                                   mode == "mpi"    ? 1
                                                   : mode == "none" ? 1
                                                                    : UsableCpus()));
    bool force = flags.Bool("force-overwrite", false);
    bool quiet = flags.Has("quiet");
    rc::CsvText text = flags.Has("csv-raw") ? rc::CsvText::kAsIs : rc::CsvText::kNeutralised;
    std::string pattern = flags.Last("output").value_or(recipe->name() + "-%n");
    if (recipe->name() == "diff" && inputs.size() == 2 && rc::IsRecipeOutputDir(inputs[0]) &&
        rc::IsRecipeOutputDir(inputs[1])) {
      return DiffOutputs(*recipe, inputs, options, pattern, force, quiet, text, args);
    }
    rc::RunRequest request;
    request.recipe = recipe;
    request.options = options;
    request.threads = static_cast<int>(threads);
    GSYS_ASSIGN_OR_RETURN(request.inputs, ExpandAll(*recipe, inputs));
    std::string dir;
    std::unique_ptr<rc::Communicator> comm;
    if (mode == "mpi") {
      GSYS_ASSIGN_OR_RETURN(comm, rc::OpenMpiCommunicator());
    }
    bool root = !comm || comm->rank() == 0;
    request.before_map = [&]() -> Status {
      GSYS_ASSIGN_OR_RETURN(dir, ExpandOutputPattern(pattern));
      return rc::CheckOutputDir(dir, force);
    };
    request.progress = root ? MakeProgress(quiet) : nullptr;
    auto run = rc::RunRecipe(request, comm.get());
    if (root) FinishProgress(quiet);
    if (!run.ok()) return run.status();
    if (!root) return 0;
    for (const rc::RankInfo& rank : run->ranks) PrintDataWarnings(rank.data_warnings);
    for (const auto& note : run->result.notes)
      std::fprintf(stderr, "gsys: note: %s\n", note.c_str());
    GSYS_ASSIGN_OR_RETURN(auto files,
                          rc::WriteOutputDir(dir, force, *recipe, run.value(), MadeBy(args), text));
    if (!quiet) PrintOut(RecipeSummaryText(*recipe, run.value(), dir, files));
    return 0;
  }

 private:
  // diff of two recipe output directories: no report is read.
  static Result<int> DiffOutputs(const rc::Recipe& recipe, const std::vector<std::string>& inputs,
                                 const rc::RecipeOptions& options, const std::string& pattern,
                                 bool force, bool quiet, rc::CsvText text,
                                 const std::vector<std::string>& args) {
    GSYS_ASSIGN_OR_RETURN(std::string dir, ExpandOutputPattern(pattern));
    GSYS_RETURN_IF_ERROR(rc::CheckOutputDir(dir, force));
    rc::RecipeRun run;
    GSYS_ASSIGN_OR_RETURN(
        run.result, rc::DiffRecipeOutputs(inputs[0], inputs[1], options.tolerance, &run.ranks));
    GSYS_ASSIGN_OR_RETURN(auto files,
                          rc::WriteOutputDir(dir, force, recipe, run, MadeBy(args), text));
    if (!quiet) PrintOut(RecipeSummaryText(recipe, run, dir, files));
    return 0;
  }

  static Result<int> ShowRecipeHelp(const std::string& topic) {
    if (topic.empty()) {
      PrintOut("recipes:\n" + RecipeList());
      return 0;
    }
    std::vector<const rc::Recipe*> list;
    if (topic == "ALL") {
      for (const auto& r : rc::AllRecipes()) list.push_back(r.get());
    } else {
      GSYS_ASSIGN_OR_RETURN(const rc::Recipe* r, LookupRecipe(topic));
      list.push_back(r);
    }
    for (const rc::Recipe* r : list) {
      PrintOut(r->name() + " -- " + r->title() + "\n\n    " + r->help() + "\n\n");
    }
    return 0;
  }

  // diff reads two sets (each --input value is one set); other recipes one set of all inputs.
  static Result<std::vector<rc::InputFile>> ExpandAll(const rc::Recipe& recipe,
                                                      const std::vector<std::string>& inputs) {
    if (inputs.empty()) {
      return Error(StatusCode::kInvalidArgument,
                   "recipe: no input reports given (use --input REPORT|DIR or -- REPORT...)");
    }
    if (recipe.name() != "diff") return rc::ExpandInputs(inputs, 0);
    if (inputs.size() != 2) {
      return Error(StatusCode::kInvalidArgument,
                   "recipe: diff compares exactly two inputs (two reports, two directories of "
                   "reports or two recipe outputs), got " +
                       std::to_string(inputs.size()));
    }
    GSYS_ASSIGN_OR_RETURN(auto first, rc::ExpandInputs({inputs[0]}, 0));
    GSYS_ASSIGN_OR_RETURN(auto second, rc::ExpandInputs({inputs[1]}, 1));
    first.insert(first.end(), second.begin(), second.end());
    return first;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeRecipeCommand() { return std::make_unique<RecipeCommand>(); }

}  // namespace gsys::cli
