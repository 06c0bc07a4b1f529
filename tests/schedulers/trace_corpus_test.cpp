// Every published trace in tests/data/traces imports, validates and simulates (rotornet, and a
// flux-greedy schedule through the simulator's checker). The expected task and byte counts are
// derived here from the traces themselves (their node counts and sizes, or their layer lines and
// the collective algorithms' step counts), not from a run of the importer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "core/file_input.hpp"
#include "cosched/greedy.hpp"
#include "cosched/instance.hpp"
#include "fabric/replay.hpp"
#include "schedulers/registry.hpp"
#include "support/fabrics.hpp"
#include "support/sim_checks.hpp"
#include "workload/chakra_trace.hpp"
#include "workload/gzip.hpp"
#include "workload/tar_archive.hpp"
#include "workload/validate.hpp"
#include "workload/workload_importers.hpp"

namespace flux::schedulers {
namespace {

const std::string kTraces = std::string(FLUX_TEST_DATA_DIR) + "/traces/";

struct Counts {
  std::int64_t computes = 0, sends = 0;
  double bytes = 0;
};

Counts counts_of(const workload::Workload& w) {
  Counts c;
  for (const workload::Task& t : w.tasks) {
    if (t.kind == workload::TaskKind::compute) ++c.computes;
    if (t.kind == workload::TaskKind::send) ++c.sends, c.bytes += t.bytes;
  }
  return c;
}

// Validates `w`, checks its counts, and simulates it with rotornet and with flux-greedy's
// schedule replayed through the checker.
void check(const workload::Workload& w, const Counts& want, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_NO_THROW(validate_workload(w, what));
  const Counts got = counts_of(w);
  EXPECT_EQ(got.computes, want.computes);
  EXPECT_EQ(got.sends, want.sends);
  EXPECT_DOUBLE_EQ(got.bytes, want.bytes);
  const fabric::Fabric f =
      testing::make_fabric(w.gpus, 2, 10e-6, {.rate = testing::kLinkRate, .alpha = 1e-6});
  const fabric::SimResult rotor = simulate(w, f, "rotornet");
  testing::expect_complete_run(w, f, rotor);
  const cosched::CoschedInstance inst = cosched::make_instance(w, f, what);
  const fabric::SimResult greedy =
      replay(w, f, make_circuit_schedule(inst, flux_greedy(inst), "greedy"));
  EXPECT_TRUE(greedy.ok) << (greedy.violations.empty() ? "" : greedy.violations.front());
  EXPECT_GE(greedy.metrics.iteration_time, greedy.metrics.compute_critical_path * (1 - 1e-12));
}

// ---- Chakra: counts from the per-rank files' nodes.

struct NodeCounts {
  std::int64_t comp = 0, send = 0, recv = 0, coll = 0, cpu = 0;
  double send_bytes = 0;
  std::int64_t absent_ctrl = 0;
};

NodeCounts count_nodes(const workload::ChakraTrace& t) {
  NodeCounts c;
  std::set<std::uint64_t> ids;
  for (const workload::ChakraNode& n : t.nodes) ids.insert(n.id);
  for (const workload::ChakraNode& n : t.nodes) {
    for (std::uint64_t d : n.ctrl_deps) c.absent_ctrl += ids.count(d) == 0;
    const workload::ChakraAttr* cpu = n.attr("is_cpu_op");
    if (cpu && cpu->integer != 0) {
      ++c.cpu;
      continue;
    }
    switch (static_cast<workload::ChakraNodeType>(n.type)) {
      case workload::ChakraNodeType::comp:
        ++c.comp;
        break;
      case workload::ChakraNodeType::comm_send:
        ++c.send;
        c.send_bytes += static_cast<double>(n.attr("comm_size")->integer);
        break;
      case workload::ChakraNodeType::comm_recv:
        ++c.recv;
        break;
      case workload::ChakraNodeType::comm_coll:
        ++c.coll;
        break;
      default:
        break;
    }
  }
  return c;
}

NodeCounts count_files(const std::string& prefix, int ranks) {
  NodeCounts sum;
  for (int r = 0; r < ranks; ++r) {
    const std::string file = workload::chakra_rank_file(prefix, r);
    const NodeCounts c = count_nodes(workload::parse_chakra(read_file(file), file));
    sum.comp += c.comp, sum.send += c.send, sum.recv += c.recv, sum.coll += c.coll;
    sum.cpu += c.cpu, sum.send_bytes += c.send_bytes, sum.absent_ctrl += c.absent_ctrl;
  }
  return sum;
}

double comm_size(const std::string& file) {
  return static_cast<double>(
      workload::parse_chakra(read_file(file), file).nodes.at(0).attr("comm_size")->integer);
}

TEST(TraceCorpus, ChakraAllReduceMicrobenchmark) {
  const std::string prefix = kTraces + "chakra/mb_all_reduce_8/all_reduce";
  const double s = comm_size(workload::chakra_rank_file(prefix, 0));
  const int p = 8;  // files all_reduce.0..7
  // Ring: 2(p-1) steps, every rank sends S/p per step.
  check(workload::import_chakra(prefix), {0, p * 2 * (p - 1), p * 2 * (p - 1) * s / p},
        "all_reduce");
}

TEST(TraceCorpus, ChakraAllToAllMicrobenchmark) {
  const std::string prefix = kTraces + "chakra/mb_all_to_all_16/all_to_all";
  const double s = comm_size(workload::chakra_rank_file(prefix, 0));
  const int p = 16;
  // Direct: every rank sends S/p to each of the p-1 others.
  check(workload::import_chakra(prefix), {0, p * (p - 1), p * (p - 1) * s / p}, "all_to_all");
}

TEST(TraceCorpus, ChakraCustomRingAllReduce) {
  const std::string prefix = kTraces + "chakra/custom_ar8/custom_allreduce";
  const NodeCounts n = count_files(prefix, 8);
  ASSERT_EQ(n.send, n.recv);  // every receive matches a send; it adds no task of its own
  check(workload::import_chakra(prefix), {n.comp, n.send, n.send_bytes}, "custom ring all-reduce");
}

TEST(TraceCorpus, ChakraResNetWithoutCommSize) {
  // Collective nodes without comm_size are 0 bytes (Chakra's default): kept as a
  // synchronisation of all 64 ranks, no sends.
  const std::string prefix = kTraces + "chakra/resnet_dp/Resnet50_DataParallel";
  const NodeCounts n = count_files(prefix, 64);
  workload::ImportReport report;
  const workload::Workload w = workload::import_chakra(prefix, {}, &report);
  EXPECT_EQ(w.gpus, 64);
  check(w, {n.comp, 0, 0}, "resnet_dp");
  EXPECT_EQ(report.count("collectives of 0 bytes, kept as a synchronisation"), n.coll / 64);
}

// The PyTorch-converted rank, read straight from the published tar.gz.
TEST(TraceCorpus, ChakraPyTorchConvertedRankFromArchive) {
  const std::string archive = kTraces + "chakra/feeder_tests_trace.tar.gz";
  const std::string tar = workload::read_data_file(archive);
  const std::vector<workload::TarMember> members = workload::tar_members(tar, archive);
  ASSERT_EQ(members.size(), 1u);
  const NodeCounts n = count_nodes(workload::parse_chakra(members[0].data, members[0].name));
  ASSERT_GT(n.cpu, 0);
  ASSERT_GT(n.absent_ctrl, 0);
  workload::ImportReport skip;
  // One rank: its GPU collectives have nobody to exchange with, so no sends.
  check(workload::import_chakra(archive, {}, &skip), {n.comp, 0, 0},
        "feeder trace, CPU nodes skipped");
  EXPECT_EQ(skip.count("control dependencies on nodes absent from the file, dropped"),
            n.absent_ctrl);
  EXPECT_EQ(skip.count("CPU (is_cpu_op) nodes skipped, their dependencies passed on"), n.cpu);
  EXPECT_GT(skip.count("dependencies on nodes later in the file"), 0);
  workload::ChakraImportOptions stream;
  stream.cpu_nodes = workload::CpuNodes::stream;
  check(workload::import_chakra(archive, stream), {n.comp + n.cpu, 0, 0},
        "feeder trace, CPU nodes timed");
}

// ---- ASTRA-sim 1.0 / SimAI text: counts from the layer lines.

enum class Span { none, all, tp, dp };

struct TextCase {
  const char* file;
  int gpus, tp;
  // The groups each pass runs on under the file's policy (per layer where the policy varies).
  std::function<Span(int layer, int pass, const std::string& policy)> span;
};

// Sends and bytes of one collective on a group of p ranks (S: the size on the layer line).
void add_collective(Counts& c, const std::string& keyword, double s, int p, int groups) {
  const std::string base = keyword.substr(0, keyword.find('_'));
  if (base == "NONE" || s == 0 || p < 2) return;
  std::int64_t sends = 0;
  double bytes = 0;
  if (base == "ALLREDUCE" || base == "ALLREDUCEALLTOALL") {
    sends = 2LL * p * (p - 1), bytes = 2.0 * (p - 1) * s;  // ring: 2(p-1) steps of S/p
  } else if (base == "BROADCAST") {
    sends = p - 1, bytes = (p - 1) * s;  // a chain, S per hop
  } else {  // ALLGATHER, REDUCESCATTER (p-1 ring steps of S/p), ALLTOALL (S/p to each peer)
    sends = static_cast<std::int64_t>(p) * (p - 1), bytes = (p - 1) * s;
  }
  c.sends += sends * groups;
  c.bytes += bytes * groups;
}

Counts expected_text(const TextCase& tc) {
  std::ifstream in(kTraces + tc.file);
  std::string policy, tok;
  std::getline(in, tok);
  std::istringstream(tok) >> policy;
  int layers = 0;
  in >> layers;
  Counts c;
  c.computes = static_cast<std::int64_t>(tc.gpus) * layers * 4;  // fwd, ig, wg, update
  for (int l = 0; l < layers; ++l) {
    std::string name, dep, keyword[3], layer_policy;
    double compute = 0, size[3] = {0, 0, 0}, update = 0;
    in >> name >> dep;
    for (int k = 0; k < 3; ++k) in >> compute >> keyword[k] >> size[k];
    in >> update;
    if (policy == "HYBRID_CUSTOMIZED") in >> layer_policy;
    for (int k = 0; k < 3; ++k) {
      const std::string& kw = keyword[k];
      Span span = tc.span(l, k, layer_policy);
      if (kw.find("_TP") != std::string::npos || kw.find("_MP") != std::string::npos)
        span = Span::tp;
      if (kw.find("_DP") != std::string::npos) span = Span::dp;
      const int p = span == Span::all ? tc.gpus : span == Span::tp ? tc.tp : tc.gpus / tc.tp;
      if (span != Span::none) add_collective(c, kw, size[k], p, tc.gpus / p);
    }
  }
  return c;
}

Span data_parallel(int, int pass, const std::string&) {
  return pass == 2 ? Span::all : Span::none;
}
Span hybrid(int, int pass, const std::string&) {
  return pass == 2 ? Span::dp : Span::tp;
}

const TextCase kTextCases[] = {
    {"astra-text/microAllReduce.txt", 4, 1, data_parallel},
    {"astra-text/Resnet50_DataParallel.txt", 8, 1, data_parallel},
    {"astra-text/DLRM_HybridParallel.txt", 8, 1,
     [](int l, int pass, const std::string& p) {
       return l == 0 ? Span::all : data_parallel(l, pass, p);  // the embedding layer: all ranks
     }},
    {"astra-text/Transformer_HybridParallel.txt", 8, 4, hybrid},
    {"astra-text/sample_per_layer_parallel_HybridCustomized.txt", 8, 2,
     [](int, int pass, const std::string& p) {
       const bool wg = pass == 2;
       if (p == "DATA") return wg ? Span::all : Span::none;
       if (p == "MODEL") return wg ? Span::none : Span::all;
       if (p == "HYBRID_MODEL_DATA") return wg ? Span::tp : Span::dp;
       return wg ? Span::dp : Span::tp;  // HYBRID_DATA_MODEL
     }},
    {"simai/G13B-M1-C01_GPT13B_megatron_tp8_pp1_mbs1_A100.txt", 16, 8, hybrid},
    {"simai/L7B-M1-C04_Llama7B_megatron_tp2_pp1_mbs1_A100.txt", 4, 2, hybrid},
    {"simai/workload_oxc_32g.txt", 32, 8, hybrid},
    {"simai/all_to_all.txt", 8, 1, data_parallel},
};

TEST(TraceCorpus, AstraAndSimAiTextWorkloads) {
  for (const TextCase& tc : kTextCases) {
    workload::AstraImportOptions o;
    o.gpus = tc.gpus;
    o.model_group = tc.tp;
    workload::ImportReport report;
    const workload::Workload w = import_astra(kTraces + tc.file, o, &report);
    EXPECT_EQ(w.gpus, tc.gpus) << tc.file;
    check(w, expected_text(tc), tc.file);
    // The report says what became of every layer.
    std::ifstream in(kTraces + tc.file);
    std::string header;
    int layers = 0;
    std::getline(in, header);
    in >> layers;
    EXPECT_EQ(report.layers.size(), static_cast<std::size_t>(layers)) << tc.file;
  }
}

}  // namespace
}  // namespace flux::schedulers
