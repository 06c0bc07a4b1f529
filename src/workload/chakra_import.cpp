// Chakra ET -> flux.workload/1 (workload_importers.hpp). The ranks' traces are replayed together:
// each rank emits, among its nodes whose dependencies are all emitted, the earliest in the file; a
// COMM_RECV waits until its send exists, and a COMM_COLL until every rank of its group stands
// ready at the same collective (the k-th one on that process group). Emitting through TaskEmitter
// keeps predecessors first and each rank's compute tasks a chain in emission order.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "workload/chakra_ranks.hpp"
#include "workload/collectives.hpp"
#include "workload/compute_model.hpp"
#include "workload/validate.hpp"
#include "workload/workload_importers.hpp"

namespace flux::workload {
namespace {

// Chakra's CollectiveCommType.
enum CommType : int {
  kAllReduce = 0,
  kReduce = 1,
  kAllGather = 2,
  kGather = 3,
  kScatter = 4,
  kBroadcast = 5,
  kAllToAll = 6,
  kReduceScatter = 7,
  kReduceScatterBlock = 8,
  kBarrier = 9
};

constexpr const char* kDroppedCtrl = "control dependencies on nodes absent from the file, dropped";
constexpr const char* kForward = "dependencies on nodes later in the file";
constexpr const char* kNoHeader = "files without a metadata header";
constexpr const char* kCpuSkipped = "CPU (is_cpu_op) nodes skipped, their dependencies passed on";
constexpr const char* kCpuTimed = "CPU (is_cpu_op) nodes timed on the rank's compute stream";
constexpr const char* kNoSize = "communication nodes without comm_size (0 bytes)";
constexpr const char* kZeroColl = "collectives of 0 bytes, kept as a synchronisation";
constexpr const char* kRoofline = "compute nodes timed from num_ops by the roofline";
constexpr const char* kNoTime = "compute nodes with neither a duration nor num_ops (0 s)";
constexpr const char* kCycleCtrl = "control dependencies closing a dependency cycle, dropped";
constexpr const char* kAllRanks = "collectives whose pg_name has no group, run on all ranks";

struct RankState {
  std::string file;
  ChakraTrace trace;
  std::vector<std::vector<std::size_t>> deps;        // per node: indices it waits for
  std::vector<std::vector<std::size_t>> data_deps;   // per node: the data ones, sorted
  std::vector<std::vector<std::size_t>> dependents;  // per node: indices waiting for it
  std::vector<std::size_t> pending;                  // per node: deps not emitted yet
  std::set<std::size_t> ready;                       // not emitted, every dep emitted
  std::vector<Deps> done;  // per emitted node: what its dependents wait for
  std::vector<char> emitted;
  std::size_t left = 0;
  std::vector<std::pair<std::string, int>> coll_key;  // GPU COMM_COLL node: (pg_name, k)
  std::map<std::pair<std::string, int>, std::size_t> coll_at;
  std::map<std::string, int> coll_next;  // per pg_name: k of the next collective to emit
};

bool has_flag(const ChakraNode& n, const char* name) {
  const ChakraAttr* a = n.attr(name);
  return a && a->kind == ChakraAttr::Kind::integer && a->integer != 0;
}

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

void sort_unique(Deps& d) {
  std::sort(d.begin(), d.end());
  d.erase(std::unique(d.begin(), d.end()), d.end());
}

class ChakraImporter {
 public:
  ChakraImporter(std::vector<ChakraRankFile> files, const ChakraImportOptions& o,
                 ImportReport& report, TaskSink& sink)
      : options_(o), report_(report), em_(sink, static_cast<int>(files.size())) {
    groups_ = read_groups(o.comm_groups, static_cast<int>(files.size()));
    for (ChakraRankFile& f : files) {
      ranks_.push_back({});
      ranks_.back().file = std::move(f.label);
      ranks_.back().trace = std::move(f.trace);
      index(ranks_.back());
    }
  }

  void run() {
    for (bool finished = false; !finished;) {
      bool progress = false;
      finished = true;
      for (std::size_t r = 0; r < ranks_.size(); ++r) {
        while (step(static_cast<int>(r))) progress = true;
        finished = finished && ranks_[r].left == 0;
      }
      if (!finished && !progress && !break_cycle()) stuck();
    }
    em_.finish();
  }

  std::vector<std::int64_t> ids;  // flux_id per emitted task, -1 where absent

 private:
  bool is_cpu(const ChakraNode& n) const { return has_flag(n, "is_cpu_op"); }

  void index(RankState& r) {
    const std::vector<ChakraNode>& nodes = r.trace.nodes;
    const std::size_t n = nodes.size();
    if (!r.trace.has_metadata) report_.add(kNoHeader);
    std::unordered_map<std::uint64_t, std::size_t> position;
    for (std::size_t i = 0; i < n; ++i)
      if (!position.emplace(nodes[i].id, i).second)
        throw InputError(r.file, fmt::format("node {}", nodes[i].id), "unique node ids");
    r.deps.resize(n);
    r.data_deps.resize(n);
    r.dependents.resize(n);
    r.pending.assign(n, 0);
    r.done.resize(n);
    r.emitted.assign(n, 0);
    r.coll_key.resize(n);
    r.left = n;
    std::map<std::string, int> per_group;  // collectives seen so far per pg_name
    for (std::size_t i = 0; i < n; ++i) {
      const ChakraNode& node = nodes[i];
      for (const auto* list : {&node.data_deps, &node.ctrl_deps})
        for (std::uint64_t d : *list) {
          auto it = position.find(d);
          if (it == position.end()) {
            if (list == &node.ctrl_deps) {
              report_.add(kDroppedCtrl);
              continue;
            }
            throw InputError(
                r.file, fmt::format("node {}", node.id),
                fmt::format("data dependencies on nodes of the file, {} is absent", d));
          }
          if (it->second > i) report_.add(kForward);
          r.deps[i].push_back(it->second);
          if (list == &node.data_deps) r.data_deps[i].push_back(it->second);
        }
      std::sort(r.data_deps[i].begin(), r.data_deps[i].end());
      std::sort(r.deps[i].begin(), r.deps[i].end());
      r.deps[i].erase(std::unique(r.deps[i].begin(), r.deps[i].end()), r.deps[i].end());
      r.pending[i] = r.deps[i].size();
      for (std::size_t d : r.deps[i]) r.dependents[d].push_back(i);
      if (r.pending[i] == 0) r.ready.insert(i);
      if (node.type == static_cast<int>(ChakraNodeType::comm_coll) && !is_cpu(node)) {
        const std::string pg = text_attr(node, "pg_name");
        r.coll_key[i] = {pg, per_group[pg]++};
        r.coll_at[r.coll_key[i]] = i;
      }
    }
  }

  // PyTorch-converted traces have control dependencies that form cycles (a node on itself, two
  // operators on each other); Chakra's feeder follows data dependencies only. When no rank can
  // proceed, one control dependency on a cycle among the nodes not yet emitted is dropped
  // (counted); a cycle of data dependencies alone is an error.
  bool break_cycle() {
    for (RankState& r : ranks_)
      if (r.left > 0 && break_cycle(r)) return true;
    return false;
  }

  bool break_cycle(RankState& r) {
    const std::size_t n = r.emitted.size();
    std::vector<char> color(n, 0);  // 0 new, 1 on the path, 2 explored
    for (std::size_t root = 0; root < n; ++root) {
      if (r.emitted[root] || color[root]) continue;
      std::vector<std::pair<std::size_t, std::size_t>> path{{root, 0}};  // node, next dep
      color[root] = 1;
      while (!path.empty()) {
        auto& [v, next] = path.back();
        if (next == r.deps[v].size()) {
          color[v] = 2;
          path.pop_back();
          continue;
        }
        const std::size_t d = r.deps[v][next++];
        if (r.emitted[d] || color[d] == 2) continue;
        if (color[d] == 0) {
          color[d] = 1;
          path.emplace_back(d, 0);
          continue;
        }
        // A cycle: the path from d to v, then v -> d. Drop its first control-only edge.
        std::size_t k = 0;
        while (path[k].first != d) ++k;
        for (; k < path.size(); ++k) {
          const std::size_t from = path[k].first;
          const std::size_t to = k + 1 < path.size() ? path[k + 1].first : d;
          if (!std::binary_search(r.data_deps[from].begin(), r.data_deps[from].end(), to)) {
            drop_edge(r, from, to);
            return true;
          }
        }
        throw InputError(r.file, fmt::format("node {}", r.trace.nodes[d].id),
                         "data dependencies without a cycle");
      }
    }
    return false;
  }

  void drop_edge(RankState& r, std::size_t from, std::size_t to) {
    report_.add(kCycleCtrl);
    auto& deps = r.deps[from];
    deps.erase(std::find(deps.begin(), deps.end(), to));
    auto& dependents = r.dependents[to];
    dependents.erase(std::find(dependents.begin(), dependents.end(), from));
    if (--r.pending[from] == 0) r.ready.insert(from);
  }

  Deps waits_for(const RankState& r, std::size_t i) const {
    Deps d;
    for (std::size_t p : r.deps[i]) d.insert(d.end(), r.done[p].begin(), r.done[p].end());
    sort_unique(d);
    return d;
  }

  void mark(RankState& r, std::size_t i, Deps done) {
    r.done[i] = std::move(done);
    r.emitted[i] = 1;
    r.ready.erase(i);
    --r.left;
    for (std::size_t j : r.dependents[i])
      if (--r.pending[j] == 0) r.ready.insert(j);
  }

  void record(std::int64_t id) {
    ids.resize(static_cast<std::size_t>(em_.emitted()), -1);
    ids.back() = id;
  }

  // Emits the earliest ready node of `rank` that can be emitted now.
  bool step(int rank) {
    RankState& r = ranks_[static_cast<std::size_t>(rank)];
    for (std::size_t i : r.ready)
      if (emit(rank, i)) return true;
    return false;
  }

  bool emit(int rank, std::size_t i) {
    RankState& r = ranks_[static_cast<std::size_t>(rank)];
    const ChakraNode& n = r.trace.nodes[i];
    const auto type = static_cast<ChakraNodeType>(n.type);
    if (!is_cpu(n) && type == ChakraNodeType::comm_recv) return receive(rank, i);
    if (!is_cpu(n) && type == ChakraNodeType::comm_coll) return collective(rank, i);
    Deps deps = waits_for(r, i);
    const ChakraAttr* flux_id = n.attr("flux_id");
    const std::int64_t id = flux_id ? flux_id->integer : -1;
    if (is_cpu(n)) {
      if (options_.cpu_nodes == CpuNodes::skip) {
        report_.add(kCpuSkipped);
        mark(r, i, std::move(deps));
        return true;
      }
      report_.add(kCpuTimed);
      mark(r, i,
           {em_.compute(rank, static_cast<double>(n.duration_micros) * 1e-6, n.name, tags_of(n),
                        deps)});
      record(id);
      return true;
    }
    switch (type) {
      case ChakraNodeType::comp:
      case ChakraNodeType::metadata:
      case ChakraNodeType::mem_load:
      case ChakraNodeType::mem_store:
        mark(r, i, {em_.compute(rank, compute_seconds(r, n), n.name, tags_of(n), deps)});
        record(id);
        return true;
      case ChakraNodeType::comm_send: {
        const int task = send(rank, n, deps);
        mark(r, i, {task});
        record(id);
        return true;
      }
      default:
        throw InputError(r.file, fmt::format("node {}", n.id),
                         fmt::format("a known node type (1-7), got {}", n.type));
    }
  }

  double compute_seconds(const RankState& r, const ChakraNode& n) {
    if (const ChakraAttr* exact = n.attr("flux_duration")) return exact->real;
    if (n.duration_micros > 0) return static_cast<double>(n.duration_micros) * 1e-6;
    const ChakraAttr* ops = n.attr("num_ops");
    if (!ops || ops->kind != ChakraAttr::Kind::integer || ops->integer <= 0) {
      report_.add(kNoTime);
      return 0;
    }
    if (options_.hardware.peak_flops <= 0)
      throw InputError(r.file, fmt::format("node {}", n.id),
                       "a duration_micros, or --gpu to time its num_ops by the roofline");
    const ChakraAttr* size = n.attr("tensor_size");
    const double bytes =
        size && size->kind == ChakraAttr::Kind::integer ? static_cast<double>(size->integer) : 0.0;
    report_.add(kRoofline);
    return roofline_seconds(static_cast<double>(ops->integer), bytes, options_.hardware);
  }

  double comm_size(const RankState& r, const ChakraNode& n) {
    if (const ChakraAttr* exact = n.attr("flux_bytes")) return exact->real;
    if (!n.attr("comm_size")) {
      report_.add(kNoSize);
      return 0;
    }
    const std::int64_t size = int_attr(n, "comm_size", r.file);
    if (size < 0) throw InputError(r.file, fmt::format("node {}", n.id), "comm_size >= 0");
    return static_cast<double>(size);
  }

  int send(int rank, const ChakraNode& n, const Deps& deps) {
    const RankState& r = ranks_[static_cast<std::size_t>(rank)];
    const int dst = static_cast<int>(int_attr(n, "comm_dst", r.file));
    if (dst < 0 || dst >= static_cast<int>(ranks_.size()) || dst == rank)
      throw InputError(r.file, fmt::format("node {}", n.id),
                       fmt::format("comm_dst in [0, {}) other than {}", ranks_.size(), rank));
    const int task = em_.send(rank, dst, comm_size(r, n), n.name, tags_of(n), deps);
    const ChakraAttr* tag = n.attr("comm_tag");
    open_sends_[{rank, dst, tag ? tag->integer : 0}].push_back(task);
    return task;
  }

  bool receive(int rank, std::size_t i) {
    RankState& r = ranks_[static_cast<std::size_t>(rank)];
    const ChakraNode& n = r.trace.nodes[i];
    const int src = static_cast<int>(int_attr(n, "comm_src", r.file));
    const ChakraAttr* tag = n.attr("comm_tag");
    auto it = open_sends_.find({src, rank, tag ? tag->integer : 0});
    if (it == open_sends_.end() || it->second.empty()) return false;  // the send comes later
    const int task = it->second.front();
    it->second.pop_front();
    mark(r, i, {task});
    return true;
  }

  std::vector<int> members(int rank, const ChakraNode& n) {
    const std::string pg = text_attr(n, "pg_name");
    auto it = groups_.find(pg);
    if (it == groups_.end()) {
      if (!groups_.empty() && !pg.empty())
        throw InputError(ranks_[static_cast<std::size_t>(rank)].file, fmt::format("node {}", n.id),
                         fmt::format("pg_name '{}' defined in {}", pg, options_.comm_groups));
      std::vector<int> all(ranks_.size());
      for (std::size_t k = 0; k < all.size(); ++k) all[k] = static_cast<int>(k);
      return all;
    }
    if (std::find(it->second.begin(), it->second.end(), rank) == it->second.end())
      throw InputError(ranks_[static_cast<std::size_t>(rank)].file, fmt::format("node {}", n.id),
                       fmt::format("a rank of process group '{}'", pg));
    return it->second;
  }

  // The node of `m` that matches collective `key`, if it is the next one there and ready.
  const std::size_t* peer(const RankState& m, const std::pair<std::string, int>& key) const {
    auto it = m.coll_at.find(key);
    if (it == m.coll_at.end() || !m.ready.count(it->second)) return nullptr;
    auto next = m.coll_next.find(key.first);
    if ((next == m.coll_next.end() ? 0 : next->second) != key.second) return nullptr;
    return &it->second;
  }

  // Emits the collective at node `i` of `rank` once every member stands ready at it.
  bool collective(int rank, std::size_t i) {
    const RankState& me = ranks_[static_cast<std::size_t>(rank)];
    const ChakraNode& n = me.trace.nodes[i];
    const std::pair<std::string, int> key = me.coll_key[i];
    CollectiveSpec spec;
    spec.ranks = members(rank, n);
    std::vector<std::size_t> at(spec.ranks.size());
    std::vector<Deps> ready(spec.ranks.size());
    for (std::size_t k = 0; k < spec.ranks.size(); ++k) {
      const RankState& m = ranks_[static_cast<std::size_t>(spec.ranks[k])];
      const std::size_t* p = peer(m, key);
      if (!p) return false;
      at[k] = *p;
      ready[k] = waits_for(m, *p);
    }
    spec.bytes = comm_size(me, n);
    spec.algorithm = options_.algorithm;
    spec.reduce_in_stream = false;
    spec.name = n.name;
    spec.tags = tags_of(n);
    if (!key.first.empty() && !groups_.count(key.first)) report_.add(kAllRanks);
    std::vector<Deps> done = expand(me, n, spec, ready);
    ids.resize(static_cast<std::size_t>(em_.emitted()), -1);
    for (std::size_t k = 0; k < spec.ranks.size(); ++k) {
      RankState& m = ranks_[static_cast<std::size_t>(spec.ranks[k])];
      ++m.coll_next[key.first];
      mark(m, at[k], std::move(done[k]));
    }
    return true;
  }

  std::vector<Deps> expand(const RankState& me, const ChakraNode& n, const CollectiveSpec& spec,
                           const std::vector<Deps>& ready) {
    const std::int64_t type = int_attr(n, "comm_type", me.file);
    if (type == kBarrier) return barrier(ready);
    if (spec.bytes == 0 && type != kGather && type != kScatter) {
      report_.add(kZeroColl);
      return barrier(ready);
    }
    switch (type) {
      case kAllReduce:
        return all_reduce(em_, spec, ready);
      case kReduce:
        return broadcast(em_, spec, ready, true);
      case kAllGather:
        return all_gather(em_, spec, ready);
      case kBroadcast:
        return broadcast(em_, spec, ready);
      case kReduceScatter:
      case kReduceScatterBlock:
        return reduce_scatter(em_, spec, ready);
      case kAllToAll: {
        const std::size_t p = spec.ranks.size();
        const double each = spec.bytes / static_cast<double>(p);
        return all_to_all(em_, spec,
                          std::vector<std::vector<double>>(p, std::vector<double>(p, each)), ready);
      }
      default:
        throw InputError(me.file, fmt::format("node {}", n.id),
                         fmt::format("comm_type all-reduce (0), reduce (1), all-gather (2), "
                                     "broadcast (5), all-to-all (6), reduce-scatter (7, 8) or "
                                     "barrier (9), got {} (gather and scatter are not supported)",
                                     type));
    }
  }

  [[noreturn]] void stuck() const {
    for (const RankState& r : ranks_) {
      if (r.left == 0) continue;
      if (r.ready.empty())
        for (std::size_t i = 0; i < r.emitted.size(); ++i)
          if (!r.emitted[i])
            throw InputError(r.file, fmt::format("node {}", r.trace.nodes[i].id),
                             "a trace without dependency cycles");
      const ChakraNode& n = r.trace.nodes[*r.ready.begin()];
      throw InputError(r.file, fmt::format("node {}", n.id),
                       n.type == static_cast<int>(ChakraNodeType::comm_recv)
                           ? "a matching COMM_SEND (same source, destination and comm_tag)"
                           : "every rank of its process group to reach the same collective");
    }
    throw InputError("", "", "a trace that can proceed");
  }

  std::vector<RankState> ranks_;
  const ChakraImportOptions& options_;
  ImportReport& report_;
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

Workload import_chakra(const std::string& prefix, const ChakraImportOptions& options,
                       ImportReport* report) {
  ImportReport local;
  ImportReport& rep = report ? *report : local;
  WorkloadSink sink;
  ChakraImporter importer(load_chakra_ranks(prefix), options, rep, sink);
  importer.run();
  Workload w = sink.take();
  restore_ids(w, importer.ids);
  validate_workload(w, prefix);
  return w;
}

}  // namespace flux::workload
