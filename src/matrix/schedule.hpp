#pragma once
// flux.matrix-schedule/1 (docs/formats.md): the output of every matrix scheduler.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace flux::matrix {

enum class Reconfiguration { all_stop, per_port };

// All-stop: switch `sw` holds `perm` during [start, end). perm[i] = output of input i or -1.
struct Slot {
  int sw = 0;
  double start = 0.0;
  double end = 0.0;
  std::vector<int> perm;
};

// Per-port: circuit src -> dst on switch `sw` during [start, end).
struct PortCircuit {
  int sw = 0;
  int src = 0;
  int dst = 0;
  double start = 0.0;
  double end = 0.0;
};

struct MatrixSchedule {
  std::string algorithm;
  int n = 0;
  int switches = 1;
  double delta = 0.0;  // seconds (or normalised time units)
  double rate = 1.0;   // bytes per second (1 for normalised demand)
  Reconfiguration reconfiguration = Reconfiguration::all_stop;
  std::vector<Slot> slots;            // all-stop
  std::vector<PortCircuit> circuits;  // per-port
  double makespan = 0.0;
  double lower_bound = 0.0;
};

// Latest slot or circuit end (0 for an empty schedule).
double schedule_end(const MatrixSchedule& s);

MatrixSchedule read_matrix_schedule(const std::string& path);
MatrixSchedule parse_matrix_schedule(const std::string& text, const std::string& label);
// The document; the CLI adds its "provenance" key, which readers ignore.
nlohmann::ordered_json matrix_schedule_document(const MatrixSchedule& s);
std::string matrix_schedule_to_json(const MatrixSchedule& s);
const char* to_string(Reconfiguration r);

}  // namespace flux::matrix
