#include "fabric/fabric_io.hpp"

#include <fmt/format.h>

#include <cmath>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/json_reader.hpp"
#include "core/json_records.hpp"
#include "core/limits.hpp"
#include "fabric/json_stream.hpp"

namespace flux::fabric {

namespace {

constexpr EnumNames kCircuitKinds{EnumName{CircuitKind::duplex, "duplex"},
                                  EnumName{CircuitKind::simplex, "simplex"}};

double read_time(const JsonNode& node) {
  return node.seconds();
}

int read_index(const JsonNode& node, int count) {
  return static_cast<int>(node.integer(0, count - 1));
}

// The value rules of flux.fabric/1. Calls fail(key, expected, value) for the first value out of
// range; fail throws. The reader has already checked the types (and, through JsonNode, most
// ranges, with the same words); the fabrics built in code are checked here only.
template <class Fail>
void check_fabric_values(const Fabric& f, Fail fail) {
  if (f.gpus < 1 || f.gpus > kMaxFabricGpus)
    fail("gpus", fmt::format("an integer in [1, {}]", kMaxFabricGpus), fmt::format("{}", f.gpus));
  if (f.ocs < 1 || f.ocs > kMaxOcs)
    fail("ocs", fmt::format("an integer in [1, {}]", kMaxOcs), fmt::format("{}", f.ocs));
  if (!(f.link_rate >= kMinLinkRate) || !std::isfinite(f.link_rate))
    fail("link_rate",
         fmt::format("a rate >= {:.3g} bytes/s (one byte must cross a link within {:g} s)",
                     kMinLinkRate, kMaxSeconds),
         fmt::format("{}", f.link_rate));
  auto time = [&](const char* key, double v) {
    if (!(v >= 0.0 && v <= kMaxSeconds))
      fail(key,
           fmt::format("a time in [0, {:g}] s (the simulator's picosecond clock ends at {:.3g} s)",
                       kMaxSeconds, kClockRangeSeconds),
           fmt::format("{}", v));
  };
  time("latency", f.latency);
  time("reconfig_delay", f.reconfig_delay);
  time("nic_window", f.nic_window);
}

Fabric read_fabric_node(const JsonNode& root) {
  root.expect_format("flux.fabric", 1);
  root.expect_keys({"format", "gpus", "ocs", "link_rate", "latency", "reconfig_delay", "circuit",
                    "initial_config_free", "nic_window"});
  Fabric f;
  f.gpus = static_cast<int>(root["gpus"].integer(1, kMaxFabricGpus));
  f.ocs = static_cast<int>(root["ocs"].integer(1, kMaxOcs));
  f.link_rate = root["link_rate"].positive();
  f.latency = read_time(root["latency"]);
  f.reconfig_delay = read_time(root["reconfig_delay"]);
  JsonNode kind = root["circuit"];
  if (const auto k = kCircuitKinds.find(kind.string())) {
    f.circuit = *k;
  } else {
    kind.fail(kCircuitKinds.choices('"'));
  }
  f.initial_config_free = root["initial_config_free"].boolean();
  if (auto window = root.find("nic_window")) f.nic_window = read_time(*window);
  check_fabric_values(f, [&](const char* key, const std::string& expected, const std::string&) {
    root[key].fail(expected);
  });
  return f;
}

MessagePiece read_piece(const JsonNode& node, const Fabric& f) {
  MessagePiece p;
  p.sw = read_index(node["switch"], f.ocs);
  p.start = read_time(node["start"]);
  p.end = read_time(node["end"]);
  if (p.end < p.start) node["end"].fail(fmt::format("a time >= start ({})", p.start));
  p.bytes = node["bytes"].bytes();
  if (auto from = node.find("from")) p.from = read_index(*from, f.gpus);
  if (auto to = node.find("to")) p.to = read_index(*to, f.gpus);
  return p;
}

MessagePlacement read_message(const JsonNode& node, const Fabric& f) {
  MessagePlacement m;
  m.task = node["task"].integer(INT64_MIN, INT64_MAX);
  if (auto pieces = node.find("pieces")) {
    if (node.has("switch") || node.has("start"))
      node.fail("either \"pieces\" or \"switch\"/\"start\", not both");
    if (pieces->size() == 0) pieces->fail("a non-empty array of pieces");
    for (std::size_t i = 0; i < pieces->size(); ++i)
      m.pieces.push_back(read_piece(pieces->at(i), f));
    return m;
  }
  m.sw = read_index(node["switch"], f.ocs);
  m.start = read_time(node["start"]);
  return m;
}

CircuitInterval read_interval(const JsonNode& node, const Fabric& f) {
  CircuitInterval c;
  c.sw = read_index(node["switch"], f.ocs);
  c.a = read_index(node["a"], f.gpus);
  c.b = read_index(node["b"], f.gpus);
  if (c.a == c.b) node["b"].fail(fmt::format("a GPU other than a ({})", c.a));
  c.up = read_time(node["up"]);
  c.down = read_time(node["down"]);
  if (c.down < c.up) node["down"].fail(fmt::format("a time >= up ({})", c.up));
  return c;
}

// A schedule's messages and circuits are read as they are parsed (core/json_records.hpp): a
// 1,024-GPU schedule is hundreds of MB of JSON. `input`: a text or a FileReader.
template <typename Input>
CircuitSchedule read_schedule(Input& input, const std::string& label, const Fabric& f) {
  CircuitSchedule s;
  JsonRecordReader records(label, {"format", "scheduler"},
                           [&](const JsonNode& root) {
                             root.expect_format("flux.circuit-schedule", 1);
                             s.scheduler = root["scheduler"].string();
                           },
                           {{"messages", "an array",
                             [&](const JsonNode& m) { s.messages.push_back(read_message(m, f)); }},
                            {"circuits", "an array", [&](const JsonNode& c) {
                               s.circuits.push_back(read_interval(c, f));
                             }}});
  s.iteration_time = read_time(records.read(input)["iteration_time"]);
  return s;
}

}  // namespace

const char* to_string(CircuitKind k) {
  return kCircuitKinds.name(k);
}

void validate_fabric(const Fabric& f, const std::string& label) {
  check_fabric_values(f,
                      [&](const char* key, const std::string& expected, const std::string& value) {
                        throw InputError(label, std::string("/") + key,
                                         fmt::format("expected {}, got {}", expected, value));
                      });
}

Fabric read_fabric(const std::string& path) {
  return read_fabric_node(JsonNode::load(path));
}

Fabric parse_fabric(const std::string& text, const std::string& label) {
  return read_fabric_node(JsonNode::parse(text, label));
}

std::string fabric_to_json(const Fabric& f) {
  nlohmann::ordered_json j = {{"format", "flux.fabric/1"},
                              {"gpus", f.gpus},
                              {"ocs", f.ocs},
                              {"link_rate", f.link_rate},
                              {"latency", f.latency},
                              {"reconfig_delay", f.reconfig_delay},
                              {"circuit", to_string(f.circuit)},
                              {"initial_config_free", f.initial_config_free},
                              {"nic_window", f.nic_window}};
  return j.dump(1) + "\n";
}

CircuitSchedule read_circuit_schedule(const std::string& path, const Fabric& fabric) {
  FileReader in(path);
  return read_schedule(in, path, fabric);
}

CircuitSchedule parse_circuit_schedule(const std::string& text, const std::string& label,
                                       const Fabric& fabric) {
  return read_schedule(text, label, fabric);
}

void write_circuit_schedule_json(std::ostream& out, const CircuitSchedule& s) {
  using Json = nlohmann::ordered_json;
  out << R"({"format":"flux.circuit-schedule/1","scheduler":)" << Json(s.scheduler).dump()
      << R"(,"messages":)";
  JsonArrayWriter messages(out);  // element by element: a 1,024-GPU schedule's DOM would take GBs
  for (const MessagePlacement& m : s.messages) {
    JsonObject e(messages.next());
    e.field("task", m.task);
    if (m.pieces.empty()) {
      e.field("switch", m.sw).field("start", m.start);
    } else {
      JsonArray pieces = e.array("pieces");
      for (const MessagePiece& p : m.pieces) {
        JsonObject pj = pieces.object();
        pj.field("switch", p.sw)
            .field("start", p.start)
            .field("end", p.end)
            .field("bytes", p.bytes);
        if (p.from >= 0) pj.field("from", p.from);
        if (p.to >= 0) pj.field("to", p.to);
        pj.close();
      }
      pieces.close();
    }
    e.close();
  }
  messages.finish();
  out << R"(,"circuits":)";
  JsonArrayWriter circuits(out);
  for (const CircuitInterval& c : s.circuits)
    JsonObject(circuits.next())
        .field("switch", c.sw)
        .field("a", c.a)
        .field("b", c.b)
        .field("up", c.up)
        .field("down", c.down)
        .close();
  circuits.finish();
  out << R"(,"iteration_time":)" << Json(s.iteration_time).dump() << "}\n";
}

std::string circuit_schedule_to_json(const CircuitSchedule& s) {
  std::ostringstream out;
  write_circuit_schedule_json(out, s);
  return std::move(out).str();
}

}  // namespace flux::fabric
