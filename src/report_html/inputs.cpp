#include "report_html/inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/json_reader.hpp"
#include "core/sha256.hpp"
#include "report_html/trace_reader.hpp"

namespace flux::report_html {
namespace fs = std::filesystem;
namespace {

constexpr int kMaxId = 1 << 20;  // GPU and switch ids in a CSV: far beyond any fabric

int as_int(const report::CsvTable& t, std::size_t r, std::size_t c) {
  return static_cast<int>(t.integer(r, c, 0, kMaxId));
}

std::vector<CircuitRow> read_circuits(const std::string& text, const std::string& path) {
  report::CsvTable t(text, path);
  const std::size_t sw = t.column("switch"), a = t.column("a"), b = t.column("b"),
                    up = t.column("up"), down = t.column("down");
  std::vector<CircuitRow> out(t.rows());
  for (std::size_t r = 0; r < t.rows(); ++r)
    out[r] = {as_int(t, r, sw), as_int(t, r, a), as_int(t, r, b), t.number(r, up),
              t.number(r, down)};
  return out;
}

std::vector<FlowRow> read_flows(const std::string& text, const std::string& path) {
  report::CsvTable t(text, path);
  const std::size_t name = t.column("name"), src = t.column("src"), dst = t.column("dst"),
                    bytes = t.column("bytes"), ready = t.column("ready"), start = t.column("start"),
                    finish = t.column("finish");
  std::vector<FlowRow> out(t.rows());
  for (std::size_t r = 0; r < t.rows(); ++r)
    out[r] = {t.text(r, name),    as_int(t, r, src),  as_int(t, r, dst),  t.number(r, bytes),
              t.number(r, ready), t.number(r, start), t.number(r, finish)};
  return out;
}

std::vector<BufferRow> read_buffer(const std::string& text, const std::string& path) {
  report::CsvTable t(text, path);
  const std::size_t time = t.column("time_s"), gpu = t.column("gpu"), nic = t.column("nic_B");
  std::vector<BufferRow> out(t.rows());
  for (std::size_t r = 0; r < t.rows(); ++r)
    out[r] = {t.number(r, time), as_int(t, r, gpu), t.number(r, nic)};
  return out;
}

void read_summary(RunData& run, const std::string& text, const std::string& path) {
  JsonNode doc = JsonNode::parse(text, path);
  doc.expect_format("flux.summary", 1);
  JsonNode fabric = doc["scenario"]["fabric"];
  run.gpus = static_cast<int>(fabric["gpus"].integer(1, kMaxId));
  run.ocs = static_cast<int>(fabric["ocs"].integer(0, kMaxId));
  run.tau = fabric["reconfig_delay"].seconds();
  run.label = doc["scheduler"]["name"].string();
  run.summary = nlohmann::ordered_json::parse(text);
}

std::string format_of(const std::string& text, const std::string& path) {
  JsonNode doc = JsonNode::parse(text, path);
  if (!doc.is_object() || !doc.has("format")) return "";
  return doc["format"].string();
}

class Reader {
 public:
  ReportInputs in;

  void add_path(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw InputError(path, "", "an existing folder or file");
    if (fs::is_directory(path, ec)) {
      add_folder(path);
      return;
    }
    RunData run;
    run.source = path;
    if (!add_file(path, run))
      throw InputError(path, "", "an output file of flux simulate, cosched, bench or matrix");
    keep(std::move(run));
  }

 private:
  std::string load(const std::string& path) {
    std::string text = read_file(path);
    in.files.push_back({path, text.size(), sha256_hex(text)});
    return text;
  }

  void add_folder(const std::string& dir) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());  // deterministic order
    RunData run;
    run.source = dir;
    run.label = fs::path(dir).filename().string();
    if (run.label.empty()) run.label = fs::path(dir).parent_path().filename().string();
    bool any = false;
    for (const std::string& f : files) any = add_file(f, run) || any;
    if (!any) throw InputError(dir, "", "a folder holding output files of flux");
    keep(std::move(run));
  }

  // Reads one file into `run` (per-run files) or `in` (the rest); false when it is not Flux's.
  bool add_file(const std::string& path, RunData& run) {
    const std::string name = fs::path(path).filename().string();
    const std::string ext = fs::path(path).extension().string();
    if (name == "circuits.csv")
      run.circuits = read_circuits(load(path), path);
    else if (name == "flows.csv")
      run.flows = read_flows(load(path), path);
    else if (name == "nic_buffer.csv")
      run.buffer = read_buffer(load(path), path);
    else if (name == "timeline.json")
      run.compute = read_compute_slices(load(path), path);
    else if (name == "flux_bench.csv")
      in.benches.push_back({path, report::CsvTable(load(path), path)});
    else if (ext == ".json")
      return add_json(path, run);
    else
      return false;
    return true;
  }

  bool add_json(const std::string& path, RunData& run) {
    std::string text = read_file(path);
    const std::string format = format_of(text, path);
    if (format == "flux.summary/1") {
      read_summary(run, text, path);
    } else if (format == "flux.matrix-schedule/1") {
      in.matrix_schedules.emplace_back(path, matrix::parse_matrix_schedule(text, path));
      auto doc = nlohmann::ordered_json::parse(text);
      if (doc.contains("provenance")) in.other_metadata.emplace_back(path, doc["provenance"]);
    } else if (format == "flux.provenance/1") {
      in.other_metadata.emplace_back(path, nlohmann::ordered_json::parse(text));
    } else if (format == "flux.demand/1") {
      in.demands.emplace_back(path, matrix::parse_demand_json(text, path));
    } else {
      return false;  // circuit-schedule.json: its circuits are drawn from circuits.csv
    }
    in.files.push_back({path, text.size(), sha256_hex(text)});
    return true;
  }

  void keep(RunData run) {
    if (!run.summary && !run.circuits && !run.flows && !run.buffer && !run.compute) return;
    in.runs.push_back(std::move(run));
  }
};

// Two runs of one scheduler (say at two τ) are told apart by their folders.
void disambiguate(std::vector<RunData>& runs) {
  std::map<std::string, int> count;
  for (const RunData& r : runs) ++count[r.label];
  for (RunData& r : runs)
    if (count[r.label] > 1) r.label += " (" + r.source + ")";
}

// GPU and switch counts of runs without a summary: the largest ids seen.
void infer_sizes(RunData& r) {
  auto grow = [&r](int gpu) { r.gpus = std::max(r.gpus, gpu + 1); };
  if (r.circuits)
    for (const CircuitRow& c : *r.circuits) {
      grow(std::max(c.a, c.b));
      r.ocs = std::max(r.ocs, c.sw + 1);
    }
  if (r.flows)
    for (const FlowRow& f : *r.flows) grow(std::max(f.src, f.dst));
  if (r.buffer)
    for (const BufferRow& b : *r.buffer) grow(b.gpu);
  if (r.compute)
    for (const ComputeSlice& s : *r.compute) grow(s.gpu);
}

}  // namespace

ReportInputs read_report_inputs(const std::vector<std::string>& paths) {
  Reader reader;
  for (const std::string& p : paths) reader.add_path(p);
  disambiguate(reader.in.runs);
  for (RunData& r : reader.in.runs) infer_sizes(r);  // ids past the summary's count stay in range
  return std::move(reader.in);
}

}  // namespace flux::report_html
