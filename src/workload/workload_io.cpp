#include "workload/workload_io.hpp"

#include <fmt/format.h>

#include <sstream>
#include <string_view>
#include <unordered_map>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/json_reader.hpp"
#include "workload/validate.hpp"

namespace flux::workload {
namespace {

constexpr EnumNames kTaskKinds{EnumName{TaskKind::compute, "compute"},
                               EnumName{TaskKind::send, "send"}};

constexpr const char* kHeader = "{{\"format\": \"flux.workload/1\", \"gpus\": {},\n \"tasks\": [";
constexpr std::int64_t kMaxId = std::int64_t{1} << 53;  // exact in a JSON double

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      out += fmt::format("\\u{:04x}", c);
    } else {
      out += ch;
    }
  }
  out += '"';
}

// `ids` maps predecessor indices to file ids; null when ids are the indices (streamed output).
void append_task(std::string& out, const Task& t, const std::vector<Task>* ids) {
  out += fmt::format(R"({{"id": {}, "kind": "{}", )", t.id, to_string(t.kind));
  if (t.kind == TaskKind::compute)
    out += fmt::format(R"("gpu": {}, "duration": {}, )", t.gpu, t.duration);
  else
    out += fmt::format(R"("src": {}, "dst": {}, "bytes": {}, )", t.src, t.dst, t.bytes);
  out += "\"name\": ";
  append_json_string(out, t.name);
  out += ", \"after\": [";
  for (std::size_t k = 0; k < t.after.size(); ++k) {
    if (k > 0) out += ", ";
    const auto p = static_cast<std::size_t>(t.after[k]);
    out += fmt::format("{}", ids ? (*ids)[p].id : static_cast<std::int64_t>(p));
  }
  out += ']';
  if (t.layer >= 0) out += fmt::format(", \"layer\": {}", t.layer);
  if (t.microbatch >= 0) out += fmt::format(", \"microbatch\": {}", t.microbatch);
  if (!t.phase.empty()) {
    out += ", \"phase\": ";
    append_json_string(out, t.phase.str());
  }
  if (!t.group.empty()) {
    out += ", \"group\": ";
    append_json_string(out, t.group.str());
  }
  if (t.collective >= 0) out += fmt::format(", \"collective\": {}", t.collective);
  out += '}';
}

// Reads everything but `after`, which needs all ids first.
Task parse_task(const JsonNode& node, int gpus) {
  Task t;
  t.id = node["id"].integer(0, kMaxId);
  const auto kind = kTaskKinds.find(node["kind"].string());
  if (!kind) node["kind"].fail(kTaskKinds.choices());
  t.kind = *kind;
  if (*kind == TaskKind::compute) {
    t.gpu = static_cast<int>(node["gpu"].integer(0, gpus - 1));
    t.duration = node["duration"].seconds();
  } else {
    t.src = static_cast<int>(node["src"].integer(0, gpus - 1));
    t.dst = static_cast<int>(node["dst"].integer(0, gpus - 1));
    if (t.src == t.dst) node["dst"].fail("a destination different from src");
    t.bytes = node["bytes"].bytes();
  }
  if (auto n = node.find("name")) t.name = n->string();
  if (auto n = node.find("layer")) t.layer = static_cast<int>(n->integer(0, 1 << 30));
  if (auto n = node.find("microbatch")) t.microbatch = static_cast<int>(n->integer(0, 1 << 30));
  if (auto n = node.find("phase")) t.phase = n->string();
  if (auto n = node.find("group")) t.group = n->string();
  if (auto n = node.find("collective")) t.collective = n->integer(0, kMaxId);
  return t;
}

}  // namespace

const char* to_string(TaskKind k) {
  return kTaskKinds.name(k);
}

Workload parse_workload(const std::string& text, const std::string& label) {
  JsonNode root = JsonNode::parse(text, label);
  root.expect_format("flux.workload", 1);
  Workload w;
  w.gpus = static_cast<int>(root["gpus"].integer(1, kMaxGpus));
  JsonNode tasks = root["tasks"];
  if (!tasks.is_array()) tasks.fail("an array of tasks");
  const std::size_t n = tasks.size();
  w.tasks.reserve(n);
  std::unordered_map<std::int64_t, int> index;
  index.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    JsonNode node = tasks.at(i);
    w.tasks.push_back(parse_task(node, w.gpus));
    if (!index.emplace(w.tasks.back().id, static_cast<int>(i)).second)
      node["id"].fail(fmt::format("a unique id ({} is used twice)", w.tasks.back().id));
  }
  for (std::size_t i = 0; i < n; ++i) {
    JsonNode after = tasks.at(i)["after"];
    if (!after.is_array()) after.fail("an array of task ids");
    auto& preds = w.tasks[i].after;
    preds.reserve(after.size());
    for (std::size_t k = 0; k < after.size(); ++k) {
      JsonNode ref = after.at(k);
      auto it = index.find(ref.integer(0, kMaxId));
      if (it == index.end()) ref.fail("the id of an existing task");
      if (it->second == static_cast<int>(i)) ref.fail("the id of another task (not itself)");
      preds.push_back(it->second);
    }
  }
  validate_workload(w, label);
  return w;
}

Workload read_workload(const std::string& path) {
  return parse_workload(read_file(path), path);
}

std::string workload_to_json(const Workload& w) {
  std::string out = fmt::format(kHeader, w.gpus);
  for (std::size_t i = 0; i < w.tasks.size(); ++i) {
    out += i == 0 ? "\n  " : ",\n  ";
    append_task(out, w.tasks[i], &w.tasks);
  }
  out += "\n]}\n";
  return out;
}

void WorkloadJsonWriter::begin(int gpus) {
  out_ << fmt::format(kHeader, gpus);
  first_ = true;
}

void WorkloadJsonWriter::add(const Task& task) {
  line_.clear();
  line_ += first_ ? "\n  " : ",\n  ";
  first_ = false;
  append_task(line_, task, nullptr);
  out_ << line_;
}

void WorkloadJsonWriter::end() {
  out_ << "\n]}\n";
}

}  // namespace flux::workload
