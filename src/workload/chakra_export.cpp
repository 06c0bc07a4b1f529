// flux.workload/1 -> Chakra ET, one trace per GPU (workload_importers.hpp).
#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"
#include "core/file_output.hpp"
#include "workload/chakra_trace.hpp"
#include "workload/workload_importers.hpp"

namespace flux::workload {
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
    n.name = t.name.str();
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
    write_file_atomic(chakra_rank_file(prefix, r),
                      encode_chakra(traces[static_cast<std::size_t>(r)]));
}

}  // namespace flux::workload
