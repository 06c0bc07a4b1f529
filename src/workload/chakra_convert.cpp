// Chakra ET <-> flux.workload/1 (workload_importers.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>
#include <unordered_map>

#include "core/error.hpp"
#include "core/file_output.hpp"
#include "workload/chakra_trace.hpp"
#include "workload/text_file.hpp"
#include "workload/validate.hpp"
#include "workload/workload_importers.hpp"

namespace flux {
namespace {

std::string rank_file(const std::string& prefix, int rank) {
  return fmt::format("{}.{}.et", prefix, rank);
}

std::int64_t int_attr(const ChakraNode& n, const char* name, const std::string& file) {
  const ChakraAttr* a = n.attr(name);
  if (!a || a->kind != ChakraAttr::Kind::integer)
    throw InputError(file, fmt::format("node {}", n.id),
                     fmt::format("an integer attribute `{}`", name));
  return a->integer;
}

struct Importer {
  std::vector<std::string> files;
  std::vector<ChakraTrace> traces;
  Workload w;
  std::vector<std::unordered_map<std::uint64_t, int>> task_of;  // per rank: node id -> task
  std::map<std::tuple<int, int, std::int64_t>, std::vector<int>> open_sends;  // FIFO per key
  bool all_ids = true;  // every node carries flux_id (a trace written by export_chakra)

  // Task ids: the exported ones when complete and unique, otherwise the creation order.
  void assign_ids() {
    std::unordered_map<std::int64_t, int> seen;
    for (const Task& t : w.tasks) all_ids = all_ids && seen.emplace(t.id, 0).second;
    for (std::size_t i = 0; i < w.tasks.size(); ++i)
      if (!all_ids) w.tasks[i].id = static_cast<std::int64_t>(i);
  }

  void create(int rank, const ChakraNode& n) {
    const std::string& file = files[static_cast<std::size_t>(rank)];
    const auto type = static_cast<ChakraNodeType>(n.type);
    if (type == ChakraNodeType::comm_recv) return;  // matched in pass 2
    if (type == ChakraNodeType::comm_coll)
      throw InputError(file, fmt::format("node {}", n.id),
                       "point-to-point nodes (COMM_COLL needs its collective expanded first)");
    Task t;
    t.name = n.name;
    const ChakraAttr* id = n.attr("flux_id");
    all_ids = all_ids && id;
    t.id = id ? id->integer : -1;
    if (type == ChakraNodeType::comm_send) {
      t.kind = TaskKind::send;
      t.src = rank;
      t.dst = static_cast<int>(int_attr(n, "comm_dst", file));
      const ChakraAttr* exact = n.attr("flux_bytes");
      t.bytes = exact ? exact->real : static_cast<double>(int_attr(n, "comm_size", file));
      if (t.dst < 0 || t.dst >= static_cast<int>(files.size()) || t.dst == rank)
        throw InputError(file, fmt::format("node {}", n.id),
                         fmt::format("comm_dst in [0, {}) other than {}", files.size(), rank));
      const ChakraAttr* tag = n.attr("comm_tag");
      open_sends[{rank, t.dst, tag ? tag->integer : 0}].push_back(static_cast<int>(w.tasks.size()));
    } else if (type == ChakraNodeType::comp || type == ChakraNodeType::metadata ||
               type == ChakraNodeType::mem_load || type == ChakraNodeType::mem_store) {
      t.gpu = rank;
      const ChakraAttr* exact = n.attr("flux_duration");
      t.duration = exact ? exact->real : static_cast<double>(n.duration_micros) * 1e-6;
    } else {
      throw InputError(
          file, fmt::format("node {}", n.id),
          fmt::format("a known node type (4 COMP, 5 SEND, 6 RECV, ...), got {}", n.type));
    }
    if (const ChakraAttr* a = n.attr("flux_layer")) t.layer = static_cast<int>(a->integer);
    if (const ChakraAttr* a = n.attr("flux_microbatch"))
      t.microbatch = static_cast<int>(a->integer);
    if (const ChakraAttr* a = n.attr("flux_phase")) t.phase = a->text;
    if (const ChakraAttr* a = n.attr("flux_group")) t.group = a->text;
    if (const ChakraAttr* a = n.attr("flux_collective")) t.collective = a->integer;
    if (!task_of[static_cast<std::size_t>(rank)]
             .emplace(n.id, static_cast<int>(w.tasks.size()))
             .second)
      throw InputError(file, fmt::format("node {}", n.id), "unique node ids");
    w.tasks.push_back(std::move(t));
  }

  void match_recv(int rank, const ChakraNode& n) {
    const std::string& file = files[static_cast<std::size_t>(rank)];
    const int src = static_cast<int>(int_attr(n, "comm_src", file));
    const ChakraAttr* tag = n.attr("comm_tag");
    auto it = open_sends.find({src, rank, tag ? tag->integer : 0});
    if (it == open_sends.end() || it->second.empty())
      throw InputError(file, fmt::format("node {}", n.id),
                       fmt::format("a COMM_SEND from rank {} matching this COMM_RECV", src));
    const int send = it->second.front();
    it->second.erase(it->second.begin());
    if (!task_of[static_cast<std::size_t>(rank)].emplace(n.id, send).second)
      throw InputError(file, fmt::format("node {}", n.id), "unique node ids");
  }

  void link(int rank, const ChakraNode& n, int& last_compute) {
    const auto& ids = task_of[static_cast<std::size_t>(rank)];
    const int self = ids.at(n.id);
    Task& t = w.tasks[static_cast<std::size_t>(self)];
    for (const auto* deps : {&n.ctrl_deps, &n.data_deps})
      for (std::uint64_t d : *deps) {
        auto it = ids.find(d);
        if (it == ids.end())
          throw InputError(
              files[static_cast<std::size_t>(rank)], fmt::format("node {}", n.id),
              fmt::format("dependencies on nodes of the same trace, {} is unknown", d));
        if (it->second != self) t.after.push_back(it->second);
      }
    if (t.kind == TaskKind::compute) {
      if (last_compute >= 0) t.after.push_back(last_compute);
      last_compute = self;
    }
    std::sort(t.after.begin(), t.after.end());
    t.after.erase(std::unique(t.after.begin(), t.after.end()), t.after.end());
  }
};

}  // namespace

Workload import_chakra(const std::string& prefix) {
  Importer im;
  for (int r = 0; std::filesystem::exists(rank_file(prefix, r)); ++r) {
    im.files.push_back(rank_file(prefix, r));
    im.traces.push_back(parse_chakra(read_text_file(im.files.back()), im.files.back()));
  }
  if (im.files.empty()) throw InputError(rank_file(prefix, 0), "", "cannot open file");
  const int ranks = static_cast<int>(im.files.size());
  im.w.gpus = ranks;
  im.task_of.resize(im.files.size());
  for (int r = 0; r < ranks; ++r)
    for (const ChakraNode& n : im.traces[static_cast<std::size_t>(r)].nodes) im.create(r, n);
  im.assign_ids();
  for (int r = 0; r < ranks; ++r)
    for (const ChakraNode& n : im.traces[static_cast<std::size_t>(r)].nodes)
      if (n.type == static_cast<int>(ChakraNodeType::comm_recv)) im.match_recv(r, n);
  for (int r = 0; r < ranks; ++r) {
    int last = -1;
    for (const ChakraNode& n : im.traces[static_cast<std::size_t>(r)].nodes)
      if (n.type != static_cast<int>(ChakraNodeType::comm_recv)) im.link(r, n, last);
  }
  validate_workload(im.w, prefix + ".*.et");
  return std::move(im.w);
}

namespace {

// Node id of task `p` in the trace of `rank` (a task has at most one node per rank).
std::uint64_t node_in(const Workload& w, int p, int rank, std::size_t user) {
  const Task& t = w.tasks[static_cast<std::size_t>(p)];
  const bool here = t.kind == TaskKind::compute ? t.gpu == rank : (t.src == rank || t.dst == rank);
  if (!here)
    throw InputError("", fmt::format("/tasks/{}/after", user),
                     fmt::format("dependencies a per-rank trace can express: task {} does not "
                                 "touch GPU {}",
                                 t.id, rank));
  return static_cast<std::uint64_t>(t.id);
}

std::vector<ChakraAttr> flux_attrs(const Task& t) {
  std::vector<ChakraAttr> a{chakra_int("flux_id", t.id)};
  if (t.layer >= 0) a.push_back(chakra_int("flux_layer", t.layer));
  if (t.microbatch >= 0) a.push_back(chakra_int("flux_microbatch", t.microbatch));
  if (!t.phase.empty()) a.push_back(chakra_text("flux_phase", t.phase));
  if (!t.group.empty()) a.push_back(chakra_text("flux_group", t.group));
  if (t.collective >= 0) a.push_back(chakra_int("flux_collective", t.collective));
  return a;
}

}  // namespace

void export_chakra(const Workload& w, const std::string& prefix) {
  std::vector<ChakraTrace> traces(static_cast<std::size_t>(w.gpus));
  for (std::size_t i = 0; i < w.tasks.size(); ++i) {
    const Task& t = w.tasks[i];
    if (t.id < 0) throw InputError("", fmt::format("/tasks/{}/id", i), "a non-negative id");
    ChakraNode n;
    n.id = static_cast<std::uint64_t>(t.id);
    n.name = t.name;
    n.attrs = flux_attrs(t);
    const int rank = t.kind == TaskKind::compute ? t.gpu : t.src;
    for (int p : t.after) n.data_deps.push_back(node_in(w, p, rank, i));
    if (t.kind == TaskKind::compute) {
      n.type = static_cast<int>(ChakraNodeType::comp);
      n.duration_micros = static_cast<std::uint64_t>(std::llround(t.duration * 1e6));
      n.attrs.push_back(chakra_real("flux_duration", t.duration));
    } else {
      n.type = static_cast<int>(ChakraNodeType::comm_send);
      const auto size = static_cast<std::int64_t>(std::llround(t.bytes));
      n.attrs.push_back(chakra_int("comm_dst", t.dst, 7));   // int32, as PyTorch traces write it
      n.attrs.push_back(chakra_int("comm_size", size, 13));  // uint64
      n.attrs.push_back(chakra_int("comm_tag", t.id));
      if (static_cast<double>(size) != t.bytes)
        n.attrs.push_back(chakra_real("flux_bytes", t.bytes));
      ChakraNode recv;
      recv.id = n.id;
      recv.name = t.name + ".recv";
      recv.type = static_cast<int>(ChakraNodeType::comm_recv);
      recv.attrs = {chakra_int("comm_src", t.src, 11), chakra_int("comm_size", size),
                    chakra_int("comm_tag", t.id, 17)};
      traces[static_cast<std::size_t>(t.dst)].nodes.push_back(std::move(recv));
    }
    traces[static_cast<std::size_t>(rank)].nodes.push_back(std::move(n));
  }
  for (int r = 0; r < w.gpus; ++r)
    write_file_atomic(rank_file(prefix, r), encode_chakra(traces[static_cast<std::size_t>(r)]));
}

}  // namespace flux
