// Chakra ET -> flux.workload/1 (workload_importers.hpp). The ranks' traces are replayed together:
// each rank advances through its nodes in trace order, a node is emitted once the nodes it
// depends on are, a COMM_RECV once its send exists, and a COMM_COLL once every rank of its group
// has reached the same collective (the k-th one on that process group). Emitting through
// TaskEmitter keeps predecessors first and each rank's compute tasks a chain in trace order.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/json_reader.hpp"
#include "workload/chakra_trace.hpp"
#include "workload/collectives.hpp"
#include "workload/validate.hpp"
#include "workload/workload_importers.hpp"

namespace flux {
namespace {

enum CommType : int { kAllReduce = 0, kAllGather = 2, kAllToAll = 6, kReduceScatter = 7 };

struct RankTrace {
  std::string file;
  ChakraTrace trace;
  std::size_t cursor = 0;
  std::unordered_map<std::uint64_t, std::size_t> position;  // node id -> index in the trace
  std::vector<Deps> done;  // per node: what its dependents wait for, once emitted
  std::vector<char> emitted;
  std::vector<std::string> collective_key;  // per COMM_COLL node: "<pg>#<k>"
};

std::int64_t int_attr(const ChakraNode& n, const char* name, const std::string& file) {
  const ChakraAttr* a = n.attr(name);
  if (!a || a->kind != ChakraAttr::Kind::integer)
    throw InputError(file, fmt::format("node {}", n.id),
                     fmt::format("an integer attribute `{}`", name));
  return a->integer;
}

std::string text_attr(const ChakraNode& n, const char* name) {
  const ChakraAttr* a = n.attr(name);
  if (!a) return "";
  return a->kind == ChakraAttr::Kind::text ? a->text : std::to_string(a->integer);
}

TaskTags tags_of(const ChakraNode& n) {
  TaskTags t;
  if (const ChakraAttr* a = n.attr("flux_layer")) t.layer = static_cast<int>(a->integer);
  if (const ChakraAttr* a = n.attr("flux_microbatch")) t.microbatch = static_cast<int>(a->integer);
  if (const ChakraAttr* a = n.attr("flux_phase")) t.phase = a->text.c_str();
  if (const ChakraAttr* a = n.attr("flux_group")) t.group = a->text.c_str();
  if (const ChakraAttr* a = n.attr("flux_collective")) t.collective = a->integer;
  return t;
}

std::map<std::string, std::vector<int>> read_groups(const std::string& path, int ranks) {
  std::map<std::string, std::vector<int>> groups;
  if (path.empty()) return groups;
  const JsonNode root = JsonNode::load(path);
  if (!root.is_object()) root.fail("an object {\"<pg_name>\": [ranks...]}");
  for (const auto& [name, value] : root.raw().items()) {
    const JsonNode list = root[name];
    if (!list.is_array() || list.size() == 0) list.fail("a non-empty array of ranks");
    for (std::size_t i = 0; i < list.size(); ++i)
      groups[name].push_back(static_cast<int>(list.at(i).integer(0, ranks - 1)));
  }
  return groups;
}

class ChakraImporter {
 public:
  ChakraImporter(std::vector<RankTrace> ranks, const ChakraImportOptions& o, TaskSink& sink)
      : ranks_(std::move(ranks)), options_(o), em_(sink, static_cast<int>(ranks_.size())) {
    groups_ = read_groups(o.comm_groups, static_cast<int>(ranks_.size()));
    for (RankTrace& r : ranks_) index(r);
  }

  void run() {
    for (bool finished = false; !finished;) {
      bool progress = false;
      finished = true;
      for (std::size_t r = 0; r < ranks_.size(); ++r) {
        while (step(static_cast<int>(r))) progress = true;
        finished = finished && ranks_[r].cursor == ranks_[r].trace.nodes.size();
      }
      if (!finished && !progress) stuck();
    }
    em_.finish();
  }

  std::vector<std::int64_t> ids;  // flux_id per emitted task, -1 where absent

 private:
  void index(RankTrace& r) {
    std::map<std::string, int> count;
    r.done.resize(r.trace.nodes.size());
    r.emitted.assign(r.trace.nodes.size(), 0);
    r.collective_key.resize(r.trace.nodes.size());
    for (std::size_t i = 0; i < r.trace.nodes.size(); ++i) {
      const ChakraNode& n = r.trace.nodes[i];
      if (!r.position.emplace(n.id, i).second)
        throw InputError(r.file, fmt::format("node {}", n.id), "unique node ids");
      if (n.type == static_cast<int>(ChakraNodeType::comm_coll)) {
        const std::string pg = text_attr(n, "pg_name");
        r.collective_key[i] = pg + "#" + std::to_string(count[pg]++);
      }
    }
  }

  // The tasks `n` waits for, or false while one of its dependencies is not emitted yet.
  bool ready(const RankTrace& r, const ChakraNode& n, Deps& deps) const {
    for (const auto* list : {&n.ctrl_deps, &n.data_deps})
      for (std::uint64_t d : *list) {
        auto it = r.position.find(d);
        if (it == r.position.end())
          throw InputError(
              r.file, fmt::format("node {}", n.id),
              fmt::format("dependencies on nodes of the same trace, {} is unknown", d));
        if (!r.emitted[it->second]) return false;
        deps.insert(deps.end(), r.done[it->second].begin(), r.done[it->second].end());
      }
    return true;
  }

  void record(std::int64_t id) {
    ids.resize(static_cast<std::size_t>(em_.emitted()), -1);
    ids.back() = id;
  }

  bool step(int rank) {
    RankTrace& r = ranks_[static_cast<std::size_t>(rank)];
    if (r.cursor == r.trace.nodes.size()) return false;
    const ChakraNode& n = r.trace.nodes[r.cursor];
    Deps deps;
    if (!ready(r, n, deps)) return false;
    const ChakraAttr* flux_id = n.attr("flux_id");
    const std::int64_t id = flux_id ? flux_id->integer : -1;
    switch (static_cast<ChakraNodeType>(n.type)) {
      case ChakraNodeType::comp:
      case ChakraNodeType::metadata:
      case ChakraNodeType::mem_load:
      case ChakraNodeType::mem_store: {
        const ChakraAttr* exact = n.attr("flux_duration");
        const double seconds = exact ? exact->real : static_cast<double>(n.duration_micros) * 1e-6;
        r.done[r.cursor] = {em_.compute(rank, seconds, n.name, tags_of(n), deps)};
        record(id);
        break;
      }
      case ChakraNodeType::comm_send:
        r.done[r.cursor] = {send(rank, n, deps)};
        record(id);
        break;
      case ChakraNodeType::comm_recv:
        if (!receive(rank, n)) return false;
        break;
      case ChakraNodeType::comm_coll:
        return collective(rank);
      default:
        throw InputError(r.file, fmt::format("node {}", n.id),
                         fmt::format("a known node type (1-7), got {}", n.type));
    }
    r.emitted[r.cursor++] = 1;
    return true;
  }

  int send(int rank, const ChakraNode& n, const Deps& deps) {
    const std::string& file = ranks_[static_cast<std::size_t>(rank)].file;
    const int dst = static_cast<int>(int_attr(n, "comm_dst", file));
    if (dst < 0 || dst >= static_cast<int>(ranks_.size()) || dst == rank)
      throw InputError(file, fmt::format("node {}", n.id),
                       fmt::format("comm_dst in [0, {}) other than {}", ranks_.size(), rank));
    const ChakraAttr* exact = n.attr("flux_bytes");
    const double bytes = exact ? exact->real : static_cast<double>(int_attr(n, "comm_size", file));
    if (bytes < 0) throw InputError(file, fmt::format("node {}", n.id), "comm_size >= 0");
    const int task = em_.send(rank, dst, bytes, n.name, tags_of(n), deps);
    const ChakraAttr* tag = n.attr("comm_tag");
    open_sends_[{rank, dst, tag ? tag->integer : 0}].push_back(task);
    return task;
  }

  bool receive(int rank, const ChakraNode& n) {
    RankTrace& r = ranks_[static_cast<std::size_t>(rank)];
    const int src = static_cast<int>(int_attr(n, "comm_src", r.file));
    const ChakraAttr* tag = n.attr("comm_tag");
    auto it = open_sends_.find({src, rank, tag ? tag->integer : 0});
    if (it == open_sends_.end() || it->second.empty()) return false;  // the send comes later
    r.done[r.cursor] = {it->second.front()};
    it->second.pop_front();
    return true;
  }

  std::vector<int> members(int rank, const ChakraNode& n) const {
    const std::string pg = text_attr(n, "pg_name");
    auto it = groups_.find(pg);
    if (it == groups_.end()) {
      std::vector<int> all(ranks_.size());
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
      return all;
    }
    if (std::find(it->second.begin(), it->second.end(), rank) == it->second.end())
      throw InputError(ranks_[static_cast<std::size_t>(rank)].file, fmt::format("node {}", n.id),
                       fmt::format("a rank of process group '{}'", pg));
    return it->second;
  }

  // Emits the collective at `rank`'s cursor once every member stands at the same one.
  bool collective(int rank) {
    const RankTrace& me = ranks_[static_cast<std::size_t>(rank)];
    const ChakraNode& n = me.trace.nodes[me.cursor];
    CollectiveSpec spec;
    spec.ranks = members(rank, n);
    spec.bytes = static_cast<double>(int_attr(n, "comm_size", me.file));
    spec.algorithm = options_.algorithm;
    spec.reduce_in_stream = false;
    spec.name = n.name;
    spec.tags = tags_of(n);
    std::vector<Deps> ready_deps(spec.ranks.size());
    for (std::size_t k = 0; k < spec.ranks.size(); ++k) {
      const RankTrace& m = ranks_[static_cast<std::size_t>(spec.ranks[k])];
      if (m.cursor == m.trace.nodes.size() ||
          m.collective_key[m.cursor] != me.collective_key[me.cursor] ||
          !ready(m, m.trace.nodes[m.cursor], ready_deps[k]))
        return false;
    }
    std::vector<Deps> done;
    switch (int_attr(n, "comm_type", me.file)) {
      case kAllReduce:
        done = all_reduce(em_, spec, ready_deps);
        break;
      case kAllGather:
        done = all_gather(em_, spec, ready_deps);
        break;
      case kReduceScatter:
        done = reduce_scatter(em_, spec, ready_deps);
        break;
      case kAllToAll: {
        const std::size_t p = spec.ranks.size();
        const std::vector<std::vector<double>> each(p, std::vector<double>(p, spec.bytes / p));
        done = all_to_all(em_, spec, each, ready_deps);
        break;
      }
      default:
        throw InputError(me.file, fmt::format("node {}", n.id),
                         "comm_type all-reduce (0), all-gather (2), all-to-all (6) or "
                         "reduce-scatter (7)");
    }
    ids.resize(static_cast<std::size_t>(em_.emitted()), -1);
    for (std::size_t k = 0; k < spec.ranks.size(); ++k) {
      RankTrace& m = ranks_[static_cast<std::size_t>(spec.ranks[k])];
      m.done[m.cursor] = std::move(done[k]);
      m.emitted[m.cursor++] = 1;
    }
    return true;
  }

  [[noreturn]] void stuck() const {
    for (const RankTrace& r : ranks_)
      if (r.cursor < r.trace.nodes.size())
        throw InputError(r.file, fmt::format("node {}", r.trace.nodes[r.cursor].id),
                         "a trace that can proceed: this node waits for a dependency listed later, "
                         "a send or collective peer that never comes, or a cycle");
    throw InputError("", "", "a trace that can proceed");
  }

  std::vector<RankTrace> ranks_;
  const ChakraImportOptions& options_;
  TaskEmitter em_;
  std::map<std::string, std::vector<int>> groups_;
  std::map<std::tuple<int, int, std::int64_t>, std::deque<int>> open_sends_;
};

// Exported ids when every task has a unique one (a trace written by export_chakra).
void restore_ids(Workload& w, std::vector<std::int64_t> ids) {
  ids.resize(w.tasks.size(), -1);
  std::unordered_set<std::int64_t> seen;
  for (std::int64_t id : ids)
    if (id < 0 || !seen.insert(id).second) return;
  for (std::size_t i = 0; i < ids.size(); ++i) w.tasks[i].id = ids[i];
}

}  // namespace

Workload import_chakra(const std::string& prefix, const ChakraImportOptions& options) {
  std::vector<RankTrace> ranks;
  for (int r = 0; std::filesystem::exists(chakra_rank_file(prefix, r)); ++r) {
    RankTrace t;
    t.file = chakra_rank_file(prefix, r);
    t.trace = parse_chakra(read_file(t.file), t.file);
    ranks.push_back(std::move(t));
  }
  if (ranks.empty()) throw InputError(chakra_rank_file(prefix, 0), "", "cannot open file");
  WorkloadSink sink;
  ChakraImporter importer(std::move(ranks), options, sink);
  importer.run();
  Workload w = sink.take();
  restore_ids(w, importer.ids);
  validate_workload(w, prefix + ".*.et");
  return w;
}

}  // namespace flux
