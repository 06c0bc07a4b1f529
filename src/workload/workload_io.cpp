#include "workload/workload_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/json_reader.hpp"
#include "core/json_records.hpp"
#include "core/limits.hpp"
#include "workload/validate.hpp"

namespace flux::workload {
namespace {

constexpr EnumNames kTaskKinds{EnumName{TaskKind::compute, "compute"},
                               EnumName{TaskKind::send, "send"}};

constexpr const char* kHeader = "{{\"format\": \"flux.workload/1\", \"gpus\": {},\n \"tasks\": [";
constexpr std::int64_t kMaxId = std::int64_t{1} << 53;  // exact in a JSON double
// {"id":0,"kind":"compute","gpu":0,"duration":0,"after":[]} and a comma: no task is shorter.
constexpr std::uint64_t kShortestTaskBytes = 58;

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

// Reads a workload's tasks as the parser meets them (core/json_records.hpp), keeping their
// predecessors as file ids until the last task is read.
class WorkloadReader {
 public:
  explicit WorkloadReader(const std::string& label)
      : records_(label, {"format", "gpus"}, [this](const JsonNode& root) { read_header(root); },
                 {{"tasks", "an array of tasks", [this](const JsonNode& t) { read_task(t); }}}) {}

  // `input`: a text or a FileReader, of `bytes` bytes (0 if not known).
  template <typename Input>
  Workload read(Input& input, std::uint64_t bytes) {
    // Room for as many tasks as the bytes could hold (up to the largest workload Flux builds):
    // the array does not move as it grows, and the room no task takes is address space, never
    // written, so never memory.
    const auto most_tasks = static_cast<std::size_t>(
        std::min(static_cast<double>(bytes / kShortestTaskBytes), kMaxGeneratedTasks));
    w_.tasks.reserve(most_tasks);
    after_end_.reserve(most_tasks);
    (void)records_.read(input);
    resolve_predecessors();
    validate_workload(w_, records_.file());
    return std::move(w_);
  }

 private:
  void read_header(const JsonNode& root) {
    root.expect_format("flux.workload", 1);
    w_.gpus = static_cast<int>(root["gpus"].integer(1, kMaxGpus));
  }

  // Everything of a task but its predecessors, whose ids may name tasks further on: they are kept
  // as ids until every task is read.
  void read_task(const JsonNode& node) {
    const std::size_t i = w_.tasks.size();
    w_.tasks.push_back(parse_task(node, w_.gpus));
    if (!add_id(w_.tasks.back().id, i))
      node["id"].fail(fmt::format("a unique id ({} is used twice)", w_.tasks.back().id));
    JsonNode after = node["after"];
    if (!after.is_array()) after.fail("an array of task ids");
    for (std::size_t k = 0; k < after.size(); ++k)
      after_ids_.push_back(after.at(k).integer(0, kMaxId));
    after_end_.push_back(after_ids_.size());
  }

  void resolve_predecessors() {
    std::size_t k = 0;
    for (std::size_t i = 0; i < w_.tasks.size(); ++i) {
      IndexList& preds = w_.tasks[i].after;
      preds.reserve(after_end_[i] - k);
      for (const std::size_t first = k; k < after_end_[i]; ++k) {
        const int p = index_of(after_ids_[k]);
        const bool exists = p >= 0;
        if (exists && p != static_cast<int>(i)) {
          preds.push_back(p);
          continue;
        }
        throw InputError(
            records_.file(), fmt::format("/tasks/{}/after/{}", i, k - first),
            fmt::format("expected the id of {}, got {}",
                        exists ? "another task (not itself)" : "an existing task", after_ids_[k]));
      }
    }
  }

  // Files that number their tasks 0, 1, 2, ... in order (as Flux writes them) need no map from
  // id to index until a task breaks the pattern. False when the id is used twice.
  bool add_id(std::int64_t id, std::size_t i) {
    if (ids_are_indices_ && id == static_cast<std::int64_t>(i)) return true;
    if (std::exchange(ids_are_indices_, false)) {
      index_.reserve(2 * i + 16);
      for (std::size_t k = 0; k < i; ++k) index_.emplace(k, static_cast<int>(k));
    }
    return index_.emplace(id, static_cast<int>(i)).second;
  }
  int index_of(std::int64_t id) const {  // -1 when no task has the id
    if (ids_are_indices_)
      return id < static_cast<std::int64_t>(w_.tasks.size()) ? static_cast<int>(id) : -1;
    const auto it = index_.find(id);
    return it == index_.end() ? -1 : it->second;
  }

  JsonRecordReader records_;
  Workload w_;
  bool ids_are_indices_ = true;
  std::unordered_map<std::int64_t, int> index_;  // file id -> task index, unless ids are indices
  std::vector<std::int64_t> after_ids_;          // every task's predecessor ids, task after task
  std::vector<std::size_t> after_end_;           // [i] end of task i's ids in after_ids_
};

}  // namespace

const char* to_string(TaskKind k) {
  return kTaskKinds.name(k);
}

Workload parse_workload(const std::string& text, const std::string& label) {
  return WorkloadReader(label).read(text, text.size());
}

Workload read_workload(const std::string& path) {
  FileReader in(path);
  return WorkloadReader(path).read(in, in.regular_size());
}

void write_workload_json(std::ostream& out, const Workload& w) {
  WorkloadJsonWriter writer(out, &w.tasks);
  writer.begin(w.gpus);
  for (const Task& t : w.tasks) writer.add(t);
  writer.end();
}

std::string workload_to_json(const Workload& w) {
  std::ostringstream out;
  write_workload_json(out, w);
  return std::move(out).str();
}

void WorkloadJsonWriter::begin(int gpus) {
  out_ << fmt::format(kHeader, gpus);
  first_ = true;
}

void WorkloadJsonWriter::add(const Task& task) {
  line_.clear();
  line_ += first_ ? "\n  " : ",\n  ";
  first_ = false;
  append_task(line_, task, ids_);
  out_ << line_;
}

void WorkloadJsonWriter::end() {
  out_ << "\n]}\n";
}

}  // namespace flux::workload
