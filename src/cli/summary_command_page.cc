// SPDX-License-Identifier: Apache-2.0
#include "cli/summary_command_page.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <thread>

#include "analysis/rules/rules.h"
#include "analysis/stats/format/cell_renderer.h"
#include "analysis/stats/stats.h"
#include "cli/progress_line.h"
#include "cli/summary_command_gpu_metrics.h"
#include "cli/summary_command_gpu_util.h"
#include "cli/summary_command_timeline.h"
#include "common/saturating.h"
#include "common/strings.h"
#include "report/reader/report_reader.h"

namespace gsys::cli {
namespace {

// A part of the page and its name on the progress line.
struct Task {
  std::string name;
  std::function<Status(report::ReportReader&)> run;
};

// Runs `tasks` on up to 4 threads, each with its own read-only connection (SQLite connections
// are single-threaded here); the caller's `reader` serves the calling thread. Returns the first
// error in task order.
Status RunTasks(report::ReportReader& reader, const std::vector<Task>& tasks, bool progress) {
  ProgressLine line(progress, tasks.size());
  constexpr size_t kMaxWorkers = 4;
  size_t workers =
      std::min({tasks.size(), kMaxWorkers,
                static_cast<size_t>(std::max(1u, std::thread::hardware_concurrency()))});
  std::vector<Status> results(tasks.size());
  std::atomic<size_t> next{0};
  auto drain = [&](report::ReportReader& own) {
    for (size_t i = next++; i < tasks.size(); i = next++) {
      results[i] = tasks[i].run(own);
      line.Done(tasks[i].name);
    }
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) {
    threads.emplace_back([&] {
      // With the caller's filter and data-check findings (see OpenAnother).
      Result<report::ReportReader> extra = reader.OpenAnother();
      if (!extra.ok()) return;  // the other threads cover its share
      drain(extra.value());
    });
  }
  drain(reader);
  for (auto& t : threads) t.join();
  for (auto& s : results) GSYS_RETURN_IF_ERROR(s);
  return OkStatus();
}

Status Prefixed(const Status& s) {
  if (s.ok()) return s;
  std::string message = s.message();
  for (const char* verb : {"stats: ", "analyze: ", "report: "}) {
    if (StartsWith(message, verb)) message = message.substr(std::string(verb).size());
  }
  return Error(s.code(), "summary: " + message);
}

// A stats or rule result table as displayed by `gsys stats` (default units, grouped digits).
html::Table ToHtmlTable(const std::string& title, const analysis::ResultTable& result) {
  analysis::FormatOptions options;
  html::Table table{title, {}, {}};
  std::vector<size_t> visible = analysis::VisibleColumns(result);
  std::vector<bool> numeric(visible.size(), true), any(visible.size(), false);
  for (const auto& row : result.rows) {
    std::vector<std::string> cells;
    for (size_t k = 0; k < visible.size(); ++k) {
      size_t c = visible[k];
      analysis::RenderedCell cell = analysis::RenderCell(result.columns[c], row[c], options);
      if (!cell.text.empty()) {
        any[k] = true;
        numeric[k] = numeric[k] && cell.numeric;
      }
      cells.push_back(cell.groupable ? GroupThousands(cell.text) : cell.text);
    }
    table.rows.push_back(std::move(cells));
  }
  for (size_t k = 0; k < visible.size(); ++k) {
    table.columns.push_back(
        {analysis::HeaderText(result.columns[visible[k]], options), numeric[k] && any[k]});
  }
  return table;
}

std::optional<size_t> FindColumn(const analysis::ResultTable& t, const std::string& label) {
  for (size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].label == label) return c;
  }
  return std::nullopt;
}

double AsDouble(const analysis::Cell& cell) {
  if (auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  if (auto* d = std::get_if<double>(&cell)) return *d;
  return 0;
}

// A bar chart of the first `top` rows of a summary report by total time (cuda_gpu_kern_sum,
// nvtx_sum, osrt_sum: already in that order), labelled by column `name_label`.
std::optional<html::BarChart> TopBars(const analysis::ReportOutcome& kern, const char* name_label,
                                      const char* title, size_t top) {
  auto time = FindColumn(kern.table, "Total Time");
  auto name = FindColumn(kern.table, name_label);
  if (kern.skipped || !time || !name || kern.table.rows.empty()) return std::nullopt;
  html::BarChart chart{title, "Total time (ms)", {}, {}};
  for (const auto& row : kern.table.rows) {
    if (chart.labels.size() == top) break;
    auto* text = std::get_if<std::string>(&row[*name]);
    chart.labels.push_back(text ? *text : "");
    chart.values.push_back(AsDouble(row[*time]) / 1e6);
  }
  return chart;
}

std::string OneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return std::string(Trim(text));
}

// Nanoseconds as seconds with 3 decimals ("1.250").
std::string Seconds(int64_t ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e9);
  return buf;
}

// A duration for prose, in the largest unit that keeps it >= 1 ("2.26 ms", "1.19 s").
std::string Duration(int64_t ns) {
  static constexpr struct {
    double scale;
    const char* unit;
  } kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
  for (const auto& u : kUnits) {
    if (static_cast<double>(ns) >= u.scale || u.scale == 1) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3g %s", static_cast<double>(ns) / u.scale, u.unit);
      return buf;
    }
  }
  return "";
}

std::string Percent(double part, double whole) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", whole > 0 ? 100.0 * part / whole : 0.0);
  return buf;
}

void AddGpuBlocks(const std::optional<GpuUtilization>& util, html::Page& page) {
  if (!util || util->gpus.empty()) {
    page.blocks.push_back(std::string(
        "GPU utilization: this report holds no GPU activity (no CUDA kernel, memcpy or memset), "
        "so there is no utilization chart."));
    return;
  }
  html::HeatMap map;
  map.title = "GPU utilization over time";
  size_t bins = util->gpus.front().busy_percent.size();
  for (size_t b = 0; b < bins; ++b) {
    map.bin_starts_s.push_back(
        static_cast<double>(
            SaturatingAdd(util->start_ns, SaturatingMul(static_cast<int64_t>(b), util->bin_ns))) /
        1e9);
  }
  html::Table table{"GPU utilization",
                    {{"GPU", false},
                     {"Name", false},
                     {"Kernels", true},
                     {"Memory ops", true},
                     {"Busy (s)", true},
                     {"Busy (% of span)", true},
                     {"First start (s)", true},
                     {"Last end (s)", true}},
                    {}};
  double span = static_cast<double>(SaturatingSub(util->end_ns, util->start_ns));
  for (const auto& gpu : util->gpus) {
    std::string label = "GPU " + std::to_string(gpu.device_id);
    map.row_labels.push_back(gpu.name.empty() ? label : label + " (" + gpu.name + ")");
    map.values.push_back(gpu.busy_percent);
    table.rows.push_back({label, gpu.name, GroupThousands(std::to_string(gpu.kernels)),
                          GroupThousands(std::to_string(gpu.memory_ops)), Seconds(gpu.busy_ns),
                          Percent(static_cast<double>(gpu.busy_ns), span), Seconds(gpu.first_ns),
                          Seconds(gpu.last_ns)});
  }
  page.blocks.push_back(
      "Busy means at least one kernel, memcpy or memset running on the GPU (work overlapping on "
      "several streams counts once). Each cell is one time bin of " +
      Duration(util->bin_ns) +
      "; hover a cell for "
      "its value.");
  page.blocks.push_back(std::move(map));
  page.blocks.push_back(std::move(table));
}

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : "%.2f", v);
  return buf;
}

// Sampled GPU metrics (--gpu-metrics-devices): per GPU a chart of its percentages over time, and
// one table of every metric's count, mean and peak.
void AddGpuMetricBlocks(const std::vector<SampledGpuMetric>& metrics, html::Page& page) {
  if (metrics.empty()) return;
  page.blocks.push_back(std::string(
      "Sampled GPU metrics (--gpu-metrics-devices): each chart point is the mean of the samples "
      "in one of at most 1,000 equal time buckets."));
  std::vector<html::LineChart> charts;
  for (const SampledGpuMetric& m : metrics) {
    if (m.unit != "%" || m.t_s.empty()) continue;
    if (charts.empty() || charts.back().title != m.gpu_label + ": activity (%)") {
      charts.push_back({m.gpu_label + ": activity (%)", "Time (s)", "%", {}});
    }
    charts.back().series.push_back({m.name, m.t_s, m.value});
  }
  for (auto& c : charts) page.blocks.push_back(std::move(c));
  html::Table table{"Sampled GPU metrics",
                    {{"GPU", false},
                     {"Metric", false},
                     {"Unit", false},
                     {"Samples", true},
                     {"Mean", true},
                     {"Peak", true}},
                    {}};
  for (const SampledGpuMetric& m : metrics) {
    table.rows.push_back({m.gpu_label, m.name, m.unit, GroupThousands(std::to_string(m.samples)),
                          Number(m.mean), Number(m.peak)});
  }
  page.blocks.push_back(std::move(table));
}

}  // namespace

Result<html::Page> BuildSummaryPage(report::ReportReader& reader, const std::string& shown_input,
                                    const SummaryOptions& options) {
  std::vector<std::string> reports = analysis::DefaultReports();
  std::vector<std::string> rules = analysis::DefaultRules();
  std::vector<Result<analysis::ReportOutcome>> stats(reports.size(), Status());
  std::vector<Result<analysis::RuleOutcome>> findings(rules.size(), Status());
  std::optional<GpuUtilization> util;
  std::vector<SampledGpuMetric> metrics;
  html::Timeline timeline;
  std::vector<Task> tasks;
  tasks.push_back({"timeline", [&](report::ReportReader& r) -> Status {
                     GSYS_ASSIGN_OR_RETURN(timeline, ReadTimeline(r, options.timeline_events));
                     return OkStatus();
                   }});
  tasks.push_back({"GPU utilization", [&](report::ReportReader& r) -> Status {
                     GSYS_ASSIGN_OR_RETURN(util, ComputeGpuUtilization(r.db(), options.bins));
                     return OkStatus();
                   }});
  tasks.push_back({"GPU metrics", [&](report::ReportReader& r) -> Status {
                     GSYS_ASSIGN_OR_RETURN(
                         metrics, ReadSampledGpuMetrics(r.db(), r.HasTable("GSYS_GPU_METRICS"),
                                                        r.HasTable("GPU_METRICS") &&
                                                            r.HasTable("TARGET_INFO_GPU_METRICS")));
                     return OkStatus();
                   }});
  for (size_t i = 0; i < reports.size(); ++i) {
    tasks.push_back({reports[i], [&, i](report::ReportReader& r) {
                       stats[i] = analysis::RunReport(r, {reports[i], {}});
                       return stats[i].status();
                     }});
  }
  for (size_t i = 0; i < rules.size(); ++i) {
    tasks.push_back({rules[i], [&, i](report::ReportReader& r) {
                       findings[i] = analysis::RunRule(r, {rules[i], {}}, shown_input);
                       return findings[i].status();
                     }});
  }
  GSYS_RETURN_IF_ERROR(Prefixed(RunTasks(reader, tasks, options.progress)));

  html::Page page;
  page.title = "gsys summary: " + std::filesystem::path(shown_input).filename().string();
  page.subtitle = shown_input + "\nwritten by " + reader.ProducerVersion();
  if (!options.filter_note.empty()) page.subtitle += "\n" + options.filter_note;
  if (!timeline.events.empty()) page.blocks.push_back(std::move(timeline));
  AddGpuBlocks(util, page);
  AddGpuMetricBlocks(metrics, page);
  // Bar charts: the top kernels, and for CPU-only reports too the NVTX ranges and OS runtime calls.
  static constexpr struct {
    const char* report;
    const char* name_column;
    const char* title;
  } kCharts[] = {{"cuda_gpu_kern_sum", "Name", "Top kernels by total GPU time"},
                 {"nvtx_sum", "Range", "Top NVTX ranges by total time"},
                 {"osrt_sum", "Name", "Top OS runtime calls by total time"}};
  for (const auto& c : kCharts) {
    for (size_t i = 0; i < reports.size(); ++i) {
      if (reports[i] != c.report) continue;
      if (auto chart = TopBars(stats[i].value(), c.name_column, c.title, options.top_kernels)) {
        page.blocks.push_back(std::move(*chart));
      }
    }
  }
  html::Table skipped{
      "Skipped (the report lacks their data)", {{"Report or rule"}, {"Reason"}}, {}};
  for (size_t i = 0; i < reports.size(); ++i) {
    const analysis::ReportOutcome& r = stats[i].value();
    if (r.skipped) {
      skipped.rows.push_back({reports[i], "does not contain " + r.missing_data + "."});
      continue;
    }
    page.blocks.push_back(ToHtmlTable(r.title + " (" + reports[i] + ")", r.table));
  }
  html::Table quiet{"Rules without findings", {{"Rule"}, {"Result"}}, {}};
  for (size_t i = 0; i < rules.size(); ++i) {
    const analysis::RuleOutcome& r = findings[i].value();
    if (r.skipped) {
      skipped.rows.push_back({rules[i], OneLine(r.skip_reason)});
    } else if (r.table.rows.empty()) {
      quiet.rows.push_back({r.title + " (" + rules[i] + ")", OneLine(r.no_result)});
    } else {
      // The rule's title heads its table; what the rows mean and how to fix them follows.
      page.blocks.push_back(ToHtmlTable("Finding: " + r.title + " (" + rules[i] + ")", r.table));
      page.blocks.push_back(OneLine(r.advice) + (r.note.empty() ? "" : "\n" + OneLine(r.note)));
    }
  }
  if (!quiet.rows.empty()) page.blocks.push_back(std::move(quiet));
  if (!skipped.rows.empty()) page.blocks.push_back(std::move(skipped));
  return page;
}

}  // namespace gsys::cli
