// One test per way real traces used to be rejected or misread by the importers.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "core/error.hpp"
#include "core/file_input.hpp"
#include "workload/chakra_trace.hpp"
#include "workload/gzip.hpp"
#include "workload/workload_importers.hpp"
#include "workload/workload_stats.hpp"

namespace flux::workload {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, so rank discovery sees only this test's files.
std::string fresh_prefix(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("flux_trace_import_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return (dir / name).string();
}

void write(const std::string& file, const std::string& data) {
  std::ofstream(file, std::ios::binary) << data;
}

void write_ranks(const std::string& prefix, const std::vector<ChakraTrace>& ranks) {
  for (std::size_t r = 0; r < ranks.size(); ++r)
    write(chakra_rank_file(prefix, static_cast<int>(r)), encode_chakra(ranks[r]));
}

ChakraNode node(std::uint64_t id, ChakraNodeType type, std::vector<std::uint64_t> data = {},
                std::vector<std::uint64_t> ctrl = {}) {
  ChakraNode n;
  n.id = id;
  n.type = static_cast<int>(type);
  n.name = fmt::format("n{}", id);
  n.duration_micros = 10;
  n.data_deps = std::move(data);
  n.ctrl_deps = std::move(ctrl);
  return n;
}

ChakraNode all_reduce(std::uint64_t id, std::int64_t bytes, std::vector<std::uint64_t> deps) {
  ChakraNode n = node(id, ChakraNodeType::comm_coll, std::move(deps));
  n.attrs = {chakra_int("comm_type", 0)};
  if (bytes >= 0) n.attrs.push_back(chakra_int("comm_size", bytes));
  return n;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TraceImport, DependencyOnALaterNodeOfTheFile) {
  // Node 1 is listed first but depends on node 2, as Chakra's own feeder accepts.
  const std::string prefix = fresh_prefix("forward");
  ChakraTrace t;
  t.nodes = {node(1, ChakraNodeType::comp, {2}), node(2, ChakraNodeType::comp)};
  write_ranks(prefix, {t});
  ImportReport report;
  const Workload w = import_chakra(prefix, {}, &report);
  ASSERT_EQ(w.tasks.size(), 2u);
  EXPECT_EQ(w.tasks[0].name, "n2");
  EXPECT_EQ(w.tasks[1].name, "n1");
  EXPECT_EQ(w.tasks[1].after, std::vector<int>{0});
  EXPECT_EQ(report.count("dependencies on nodes later in the file"), 1);
}

TEST(TraceImport, AbsentControlDependenciesAreDroppedAndCounted) {
  const std::string prefix = fresh_prefix("absent");
  ChakraTrace t;
  t.nodes = {node(5, ChakraNodeType::comp, {}, {3, 4}), node(6, ChakraNodeType::comp, {5}, {9})};
  write_ranks(prefix, {t});
  ImportReport report;
  const Workload w = import_chakra(prefix, {}, &report);
  EXPECT_EQ(w.tasks.size(), 2u);
  EXPECT_EQ(report.count("control dependencies on nodes absent from the file, dropped"), 3);
  // An absent data dependency still is an error: the data would be missing.
  t.nodes[1].data_deps = {7};
  write_ranks(prefix, {t});
  const std::string e = error_of([&] { (void)import_chakra(prefix); });
  EXPECT_NE(e.find("node 6"), std::string::npos) << e;
  EXPECT_NE(e.find("7 is absent"), std::string::npos) << e;
}

TEST(TraceImport, ControlDependencyCyclesAreBroken) {
  // As PyTorch-converted traces have them: a node on itself, two nodes on each other. Chakra's
  // feeder follows data dependencies only; the importer keeps control dependencies but drops
  // the ones that close a cycle.
  const std::string prefix = fresh_prefix("cycle");
  ChakraTrace t;
  t.nodes = {node(1, ChakraNodeType::comp, {}, {1}), node(2, ChakraNodeType::comp, {1}, {3}),
             node(3, ChakraNodeType::comp, {}, {2})};
  write_ranks(prefix, {t});
  ImportReport report;
  const Workload w = import_chakra(prefix, {}, &report);
  EXPECT_EQ(w.tasks.size(), 3u);
  EXPECT_EQ(report.count("control dependencies closing a dependency cycle, dropped"), 2);
  // A cycle of data dependencies cannot be broken.
  t.nodes[1].data_deps = {1, 3};
  t.nodes[2].data_deps = {2};
  write_ranks(prefix, {t});
  const std::string e = error_of([&] { (void)import_chakra(prefix); });
  EXPECT_NE(e.find("data dependencies without a cycle"), std::string::npos) << e;
}

TEST(TraceImport, FileWithoutMetadataHeaderKeepsItsFirstNode) {
  const std::string prefix = fresh_prefix("noheader");
  ChakraTrace t;
  t.has_metadata = false;
  t.nodes = {node(0, ChakraNodeType::comp), node(1, ChakraNodeType::comp, {0})};
  write_ranks(prefix, {t});
  ImportReport report;
  const Workload w = import_chakra(prefix, {}, &report);
  EXPECT_EQ(w.tasks.size(), 2u);
  EXPECT_EQ(report.count("files without a metadata header"), 1);
  // A header with attributes only (as newer converters write it) is still a header.
  ChakraTrace h;
  h.metadata = {chakra_text("schema", "1.0.1"), chakra_int("pid", 7, 13)};
  h.nodes = t.nodes;
  const ChakraTrace back = parse_chakra(encode_chakra(h), "h.et");
  EXPECT_TRUE(back.has_metadata);
  EXPECT_EQ(back.nodes.size(), 2u);
  ASSERT_EQ(back.metadata.size(), 2u);
  EXPECT_EQ(back.metadata[0].text, "1.0.1");
}

TEST(TraceImport, CollectiveWithoutCommSizeIsAZeroByteSynchronisation) {
  const std::string prefix = fresh_prefix("nosize");
  std::vector<ChakraTrace> ranks(3);
  for (ChakraTrace& t : ranks)
    t.nodes = {node(0, ChakraNodeType::comp), all_reduce(1, -1, {0}),
               node(2, ChakraNodeType::comp, {1})};
  ranks[2].nodes[0].duration_micros = 500;  // the slowest rank holds the others back
  write_ranks(prefix, ranks);
  ImportReport report;
  const Workload w = import_chakra(prefix, {}, &report);
  EXPECT_EQ(w.tasks.size(), 6u);  // compute only
  EXPECT_EQ(report.count("communication nodes without comm_size (0 bytes)"), 1);
  // Every rank's second compute waits for every rank's first one.
  for (const Task& t : w.tasks) {
    if (t.name != "n2") continue;
    EXPECT_EQ(t.after.size(), 3u) << t.gpu;
  }
  EXPECT_NEAR(workload_stats(w).compute_critical_path, 510e-6, 1e-12);
}

TEST(TraceImport, CpuNodesAreSkippedOrTimed) {
  // GPU compute 0 -> CPU op 1 (100 us) -> GPU compute 2: skipping passes the dependency on.
  const std::string prefix = fresh_prefix("cpu");
  ChakraTrace t;
  ChakraNode cpu = node(1, ChakraNodeType::comp, {0});
  cpu.duration_micros = 100;
  cpu.attrs = {chakra_int("is_cpu_op", 1, 27)};
  ChakraNode cpu_coll = node(3, ChakraNodeType::comm_coll, {}, {1});  // c10d::allreduce_ on host
  cpu_coll.attrs = {chakra_int("is_cpu_op", 1, 27)};
  t.nodes = {node(0, ChakraNodeType::comp), cpu, node(2, ChakraNodeType::comp, {1}), cpu_coll};
  write_ranks(prefix, {t});
  ImportReport report;
  const Workload skip = import_chakra(prefix, {}, &report);
  ASSERT_EQ(skip.tasks.size(), 2u);
  EXPECT_EQ(skip.tasks[1].after, std::vector<int>{0});
  EXPECT_EQ(report.count("CPU (is_cpu_op) nodes skipped, their dependencies passed on"), 2);
  ChakraImportOptions o;
  o.cpu_nodes = CpuNodes::stream;
  const Workload stream = import_chakra(prefix, o);
  ASSERT_EQ(stream.tasks.size(), 4u);
  EXPECT_DOUBLE_EQ(stream.tasks[1].duration, 100e-6);
}

TEST(TraceImport, OpCountOnlyComputeIsTimedByTheRoofline) {
  const std::string prefix = fresh_prefix("numops");
  ChakraTrace t;
  ChakraNode c = node(0, ChakraNodeType::comp);
  c.duration_micros = 0;
  c.attrs = {chakra_int("num_ops", 312'000'000'000, 13), chakra_int("tensor_size", 1000, 13)};
  t.nodes = {c};
  write_ranks(prefix, {t});
  const std::string e = error_of([&] { (void)import_chakra(prefix); });
  EXPECT_NE(e.find("--gpu"), std::string::npos) << e;
  ChakraImportOptions o;
  o.hardware = gpu_hardware("a100", "--gpu");
  ImportReport report;
  const Workload w = import_chakra(prefix, o, &report);
  // 312 GFLOP on an A100 (312 TFLOP/s) at the default 50 % MFU: 2 ms.
  EXPECT_NEAR(w.tasks.at(0).duration, 2e-3, 1e-12);
  EXPECT_EQ(report.count("compute nodes timed from num_ops by the roofline"), 1);
}

TEST(TraceImport, MissingOrDuplicatedRankIsAnError) {
  const std::string prefix = fresh_prefix("ranks");
  std::vector<ChakraTrace> ranks(5);
  for (ChakraTrace& t : ranks) t.nodes = {node(0, ChakraNodeType::comp)};
  write_ranks(prefix, ranks);
  EXPECT_EQ(import_chakra(prefix).gpus, 5);
  fs::remove(chakra_rank_file(prefix, 3));
  std::string e = error_of([&] { (void)import_chakra(prefix); });
  EXPECT_NE(e.find("rank 3 is missing"), std::string::npos) << e;
  EXPECT_NE(e.find(chakra_rank_file(prefix, 3)), std::string::npos) << e;
  write(chakra_rank_file(prefix, 3), encode_chakra(ranks[3]));
  write(prefix + ".03.et", encode_chakra(ranks[3]));
  e = error_of([&] { (void)import_chakra(prefix); });
  EXPECT_NE(e.find("rank 3 is also in"), std::string::npos) << e;
}

std::string gzip(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST(TraceImport, GzipCompressedTracesAreRead) {
  const std::string prefix = fresh_prefix("gz");
  ChakraTrace t;
  t.nodes = {node(0, ChakraNodeType::comp), node(1, ChakraNodeType::comp, {0})};
  write(prefix + ".0.et.gz", gzip(encode_chakra(t)));
  write(prefix + ".1.et", encode_chakra(t));
  const Workload w = import_chakra(prefix);
  EXPECT_EQ(w.gpus, 2);
  EXPECT_EQ(w.tasks.size(), 4u);
  const std::string cut = gzip(encode_chakra(t));
  write(prefix + ".0.et.gz", cut.substr(0, cut.size() / 2));
  const std::string e = error_of([&] { (void)import_chakra(prefix); });
  EXPECT_NE(e.find(".0.et.gz"), std::string::npos) << e;
  EXPECT_NE(e.find("gzip"), std::string::npos) << e;
}

TEST(TraceImport, BroadcastAndReduceCollectives) {
  const std::string prefix = fresh_prefix("bcast");
  std::vector<ChakraTrace> ranks(4);
  for (ChakraTrace& t : ranks) {
    ChakraNode b = all_reduce(0, 4096, {});
    b.attrs[0] = chakra_int("comm_type", 5);  // broadcast
    ChakraNode r = all_reduce(1, 1024, {0});
    r.attrs[0] = chakra_int("comm_type", 1);  // reduce
    t.nodes = {b, r};
  }
  write_ranks(prefix, ranks);
  const WorkloadStats s = workload_stats(import_chakra(prefix));
  EXPECT_EQ(s.send_tasks, 2 * 3);                        // a chain of p - 1 hops each
  EXPECT_DOUBLE_EQ(s.total_bytes, 3 * 4096 + 3 * 1024);  // the whole buffer per hop
}

// ---- ASTRA-sim 1.0 / SimAI text.

TEST(TraceImport, AstraTextWithCrlfAndTabs) {
  const std::string text =
      "DATA\t\t\t\r\n2\t\t\r\nconv1\t-1\t5\tNONE\t0\t5\tNONE\t0\t5\tALLREDUCE\t512\t5\t\r\n"
      "conv2 -1 5 NONE 0 5 NONE 0 5  ALLREDUCE 256 5   \r\n";
  AstraImportOptions o;
  o.gpus = 4;
  const Workload w = parse_astra(text, "w.txt", o);
  EXPECT_DOUBLE_EQ(workload_stats(w).total_bytes, 2 * 3 * (512.0 + 256.0));  // 2(p-1) S
  // A bad number is quoted without the line ending.
  const std::string e = error_of([&] { (void)parse_astra("DATA\r\n5x\r\n", "w.txt", o); });
  EXPECT_NE(e.find("'5x'"), std::string::npos) << e;
  EXPECT_EQ(e.find('\r'), std::string::npos);
}

TEST(TraceImport, AstraSimAiBroadcastAndEveryKeyword) {
  const std::string text =
      "HYBRID_TRANSFORMER_FWD_IN_BCKWD\tmodel_parallel_NPU_group: 2 checkpoints: 0 "
      "checkpoint_initiates: 0\n"
      "2\n"
      "norm -1 0 BROADCAST 100 1 NONE 0 1 ALLREDUCEALLTOALL 1000 1\n"
      "attn -1 1 ALLGATHER 200 1 REDUCESCATTER 400 1 ALLTOALL_DP 800 1\n";
  AstraImportOptions o;
  o.gpus = 4;  // TP pairs {0,1}, {2,3}; DP pairs {0,2}, {1,3}
  ImportReport report;
  const Workload w = parse_astra(text, "w.txt", o, &report);
  const double expected = 2 * 100.0         // broadcast over 2 TP pairs: 1 hop of S
                          + 2 * 2 * 1000.0  // all-reduce over 2 DP pairs: 2(p-1) S
                          + 2 * 200.0 + 2 * 400.0 + 2 * 800.0;  // (p-1) S per pair
  EXPECT_DOUBLE_EQ(workload_stats(w).total_bytes, expected);
  ASSERT_EQ(report.layers.size(), 2u);
  EXPECT_NE(report.layers[0].find("BROADCAST 100 B -> chain broadcast over 2 group(s) of 2"),
            std::string::npos)
      << report.layers[0];
  const std::string e = error_of(
      [&] { (void)parse_astra("DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 GATHER 8 0\n", "w.txt", o); });
  EXPECT_NE(e.find("line 3"), std::string::npos) << e;
  EXPECT_NE(e.find("GATHER"), std::string::npos) << e;
}

TEST(TraceImport, AstraPerLayerPolicyIsTheThirteenthField) {
  const std::string text =
      "HYBRID_CUSTOMIZED\n2\n"
      "a -1 1 ALLGATHER 100 1 NONE 0 1 ALLREDUCE 100 1 HYBRID_DATA_MODEL\n"
      "b -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 100 1 DATA\n";
  AstraImportOptions o;
  o.gpus = 4;
  o.model_group = 2;
  const WorkloadStats s = workload_stats(parse_astra(text, "w.txt", o));
  // a: all-gather over 2 model pairs, all-reduce over 2 data pairs; b: all-reduce over all 4.
  EXPECT_DOUBLE_EQ(s.total_bytes, 2 * 100.0 + 2 * 2 * 100.0 + 2 * 3 * 100.0);
  const std::string e = error_of([&] {
    (void)parse_astra("DATA\n1\na -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 100 1 DATA\n", "w.txt", o);
  });
  EXPECT_NE(e.find("12 whitespace-separated fields, got 13"), std::string::npos) << e;
}

}  // namespace
}  // namespace flux::workload
