#include "matrix/schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "matrix/demand.hpp"

namespace flux::matrix {

constexpr EnumNames kReconfigurations{EnumName{Reconfiguration::all_stop, "all-stop"},
                                      EnumName{Reconfiguration::per_port, "per-port"}};

const char* to_string(Reconfiguration r) {
  return kReconfigurations.name(r);
}

double schedule_end(const MatrixSchedule& s) {
  double end = 0.0;
  for (const Slot& slot : s.slots) end = std::max(end, slot.end);
  for (const PortCircuit& c : s.circuits) end = std::max(end, c.end);
  return end;
}

namespace {

Slot read_slot(const JsonNode& node, int n, int switches) {
  Slot slot;
  slot.sw = static_cast<int>(node["switch"].integer(0, switches - 1));
  slot.start = node["start"].non_negative();
  slot.end = node["end"].non_negative();
  if (slot.end < slot.start) node["end"].fail(fmt::format("a time >= start ({})", slot.start));
  JsonNode perm = node["perm"];
  if (perm.size() != static_cast<std::size_t>(n))
    perm.fail(fmt::format("an array of n = {} ports", n));
  slot.perm.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    slot.perm[static_cast<std::size_t>(i)] =
        static_cast<int>(perm.at(static_cast<std::size_t>(i)).integer(-1, n - 1));
  return slot;
}

PortCircuit read_circuit(const JsonNode& node, int n, int switches) {
  PortCircuit c;
  c.sw = static_cast<int>(node["switch"].integer(0, switches - 1));
  c.src = static_cast<int>(node["src"].integer(0, n - 1));
  c.dst = static_cast<int>(node["dst"].integer(0, n - 1));
  c.start = node["start"].non_negative();
  c.end = node["end"].non_negative();
  if (c.end < c.start) node["end"].fail(fmt::format("a time >= start ({})", c.start));
  return c;
}

}  // namespace

namespace {
MatrixSchedule read_schedule_node(const JsonNode& root) {
  root.expect_format("flux.matrix-schedule", 1);
  MatrixSchedule s;
  s.algorithm = root["algorithm"].string();
  s.n = static_cast<int>(root["n"].integer(1, kMaxPorts));
  s.switches = static_cast<int>(root["switches"].integer(1, 1 << 20));
  s.delta = root["delta"].non_negative();
  s.rate = root["rate"].positive();
  const auto mode = kReconfigurations.find(root["reconfiguration"].string());
  if (!mode) root["reconfiguration"].fail(kReconfigurations.choices());
  s.reconfiguration = *mode;
  if (*mode == Reconfiguration::all_stop) {
    JsonNode slots = root["slots"];
    for (std::size_t k = 0; k < slots.size(); ++k)
      s.slots.push_back(read_slot(slots.at(k), s.n, s.switches));
  } else {
    JsonNode circuits = root["circuits"];
    for (std::size_t k = 0; k < circuits.size(); ++k)
      s.circuits.push_back(read_circuit(circuits.at(k), s.n, s.switches));
  }
  s.makespan = root["makespan"].non_negative();
  s.lower_bound = root["lower_bound"].non_negative();
  return s;
}
}  // namespace

MatrixSchedule parse_matrix_schedule(const std::string& text, const std::string& label) {
  return read_schedule_node(JsonNode::parse(text, label));
}

MatrixSchedule read_matrix_schedule(const std::string& path) {
  return read_schedule_node(JsonNode::load(path));
}

nlohmann::ordered_json matrix_schedule_document(const MatrixSchedule& s) {
  nlohmann::ordered_json j;
  j["format"] = "flux.matrix-schedule/1";
  j["algorithm"] = s.algorithm;
  j["n"] = s.n;
  j["switches"] = s.switches;
  j["delta"] = s.delta;
  j["rate"] = s.rate;
  j["reconfiguration"] = to_string(s.reconfiguration);
  if (s.reconfiguration == Reconfiguration::all_stop) {
    auto& slots = j["slots"] = nlohmann::ordered_json::array();
    for (const Slot& slot : s.slots)
      slots.push_back(
          {{"switch", slot.sw}, {"start", slot.start}, {"end", slot.end}, {"perm", slot.perm}});
  } else {
    auto& circuits = j["circuits"] = nlohmann::ordered_json::array();
    for (const PortCircuit& c : s.circuits)
      circuits.push_back(
          {{"switch", c.sw}, {"src", c.src}, {"dst", c.dst}, {"start", c.start}, {"end", c.end}});
  }
  j["makespan"] = s.makespan;
  j["lower_bound"] = s.lower_bound;
  return j;
}

std::string matrix_schedule_to_json(const MatrixSchedule& s) {
  return matrix_schedule_document(s).dump(1) + "\n";
}

}  // namespace flux::matrix
