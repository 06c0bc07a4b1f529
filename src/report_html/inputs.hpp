#pragma once
// What `flux report` reads: the output folders and files of `flux simulate`, `flux cosched`,
// `flux bench flux` and `flux matrix schedule`, recognised by name (summary.json, circuits.csv,
// flows.csv, nic_buffer.csv, timeline.json, flux_bench.csv) or by the "format" of a JSON file
// (flux.summary/1, flux.matrix-schedule/1, flux.demand/1). Each file is read by the reader of
// its format; a bad file is an InputError naming it.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "matrix/demand.hpp"
#include "matrix/schedule.hpp"
#include "report/csv_reader.hpp"

namespace flux::report_html {

struct CircuitRow {
  int sw = 0, a = 0, b = 0;
  double up = 0, down = 0;
};

struct FlowRow {
  std::string name;
  int src = 0, dst = 0;
  double bytes = 0, ready = 0, start = 0, finish = 0;
};

struct ComputeSlice {
  int gpu = 0;
  double start = 0, end = 0;
  std::string name;
};

struct BufferRow {
  double time = 0;
  int gpu = 0;
  double nic = 0;
};

// One simulated (or scheduled) run: whatever of its files were given.
struct RunData {
  std::string label;  // the scheduler's name, or the folder's
  std::string source;
  std::optional<nlohmann::ordered_json> summary;
  std::optional<std::vector<CircuitRow>> circuits;
  std::optional<std::vector<FlowRow>> flows;
  std::optional<std::vector<BufferRow>> buffer;
  std::optional<std::vector<ComputeSlice>> compute;  // from timeline.json
  int gpus = 0;                                      // from the summary, else the largest id + 1
  int ocs = 0;
  double tau = 0;  // reconfiguration delay, seconds (0 when unknown)
};

struct NamedBench {
  std::string source;
  report::CsvTable table;  // flux_bench.csv
};

struct InputFile {
  std::string path;
  std::uint64_t bytes = 0;
  std::string sha256;  // hex; identifies the exact file the page was made from
};

struct ReportInputs {
  std::vector<RunData> runs;
  std::vector<NamedBench> benches;
  std::vector<std::pair<std::string, matrix::MatrixSchedule>> matrix_schedules;
  std::vector<std::pair<std::string, matrix::Demand>> demands;
  std::vector<InputFile> files;
  // Metadata of inputs that are not runs: flux.provenance/1 sidecars (a bench CSV's) and the
  // provenance block of matrix schedules; shown as key/value.
  std::vector<std::pair<std::string, nlohmann::ordered_json>> other_metadata;
};

// Reads every path (a folder: the files in it that Flux writes; a file: by name or format).
// An InputError when a path holds nothing Flux wrote.
[[nodiscard]] ReportInputs read_report_inputs(const std::vector<std::string>& paths);

}  // namespace flux::report_html
