#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/error.hpp"
#include "workload/chakra_trace.hpp"
#include "workload/dag_builder.hpp"
#include "workload/protobuf_wire.hpp"
#include "workload/workload_importers.hpp"

namespace flux::workload {
namespace {

std::string temp_prefix(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "flux_chakra_test";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

TEST(ProtobufWire, VarintsRoundTripAndTruncationIsAnError) {
  WireWriter w;
  for (std::uint64_t v : {0ULL, 1ULL, 127ULL, 128ULL, 300ULL, ~0ULL}) w.varint(v);
  const std::string data = w.data();
  WireReader r(data, "x.et");
  for (std::uint64_t v : {0ULL, 1ULL, 127ULL, 128ULL, 300ULL, ~0ULL}) EXPECT_EQ(r.varint(), v);
  EXPECT_TRUE(r.done());
  WireReader cut(std::string_view(data).substr(0, data.size() - 1), "x.et");
  try {
    for (int i = 0; i < 6; ++i) (void)cut.varint();
    ADD_FAILURE() << "truncated varint accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("varint"), std::string::npos) << e.what();
    EXPECT_EQ(e.field(), "byte " + std::to_string(data.size() - 1));
  }
  EXPECT_EQ(zigzag_decode(zigzag_encode(-5)), -5);
  EXPECT_EQ(zigzag_encode(-1), 1u);
}

TEST(ChakraTrace, EveryIntegerWidthReadsBack) {
  ChakraTrace t;
  ChakraNode n;
  n.id = 7;
  n.type = static_cast<int>(ChakraNodeType::comm_send);
  const std::vector<std::uint32_t> fields = {7, 9, 11, 13, 15, 17, 19, 21, 23, 25};
  for (std::uint32_t f : fields) n.attrs.push_back(chakra_int("v" + std::to_string(f), 1234, f));
  n.attrs.push_back(chakra_int("neg32", -3, 7));
  n.attrs.push_back(chakra_int("negz", -3, 17));
  n.attrs.push_back(chakra_int("flag", 1, 27));
  t.nodes.push_back(n);
  const ChakraTrace back = parse_chakra(encode_chakra(t), "t.et");
  ASSERT_EQ(back.nodes.size(), 1u);
  for (std::uint32_t f : fields) {
    const ChakraAttr* a = back.nodes[0].attr("v" + std::to_string(f));
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->kind, ChakraAttr::Kind::integer);
    EXPECT_EQ(a->integer, 1234) << "field " << f;
  }
  EXPECT_EQ(back.nodes[0].attr("neg32")->integer, -3);
  EXPECT_EQ(back.nodes[0].attr("negz")->integer, -3);
  EXPECT_EQ(back.nodes[0].attr("flag")->integer, 1);
}

TEST(ChakraTrace, MalformedFilesAreInputErrors) {
  ChakraTrace t;
  t.nodes.resize(2);
  t.nodes[1].name = "a node with a name";
  const std::string good = encode_chakra(t);
  EXPECT_EQ(parse_chakra(good, "t.et").nodes.size(), 2u);
  EXPECT_THROW((void)parse_chakra(good.substr(0, good.size() - 3), "t.et"), InputError);
  EXPECT_THROW((void)parse_chakra(std::string("\x05\x0a\xff\xff\xff\xff", 6), "t.et"), InputError);
  EXPECT_THROW((void)parse_chakra("", "t.et"), InputError);
  EXPECT_THROW((void)parse_chakra(std::string("\x1f\x8b\x08", 3), "t.et"), InputError);
  t.nodes[1].name = "M\xff";  // node names become task names in JSON, which carries only UTF-8
  EXPECT_THROW((void)parse_chakra(encode_chakra(t), "t.et"), InputError);
}

TEST(ChakraConvert, RoundTripIsLossless) {
  Scenario s =
      read_scenario(std::string(FLUX_TEST_DATA_DIR) + "/../../examples/llama3-8b-8l-tp4-dp2.json");
  s.model.num_layers = 2;
  const Workload w = build_workload(s);
  const std::string prefix = temp_prefix("llama");
  export_chakra(w, prefix);
  const Workload back = import_chakra(prefix);
  ASSERT_EQ(back.gpus, w.gpus);
  ASSERT_EQ(back.tasks.size(), w.tasks.size());
  std::map<std::int64_t, const Task*> by_id;
  for (const Task& t : back.tasks) by_id[t.id] = &t;
  ASSERT_EQ(by_id.size(), w.tasks.size());
  auto after_ids = [](const Workload& wl, const Task& t) {
    std::vector<std::int64_t> ids;
    for (int p : t.after) ids.push_back(wl.tasks[static_cast<std::size_t>(p)].id);
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  for (const Task& t : w.tasks) {
    const Task& b = *by_id.at(t.id);
    EXPECT_EQ(b.kind, t.kind);
    EXPECT_EQ(b.name, t.name);
    EXPECT_EQ(b.gpu, t.gpu);
    EXPECT_EQ(b.src, t.src);
    EXPECT_EQ(b.dst, t.dst);
    EXPECT_EQ(b.bytes, t.bytes);
    EXPECT_EQ(b.duration, t.duration);
    EXPECT_EQ(b.layer, t.layer);
    EXPECT_EQ(b.microbatch, t.microbatch);
    EXPECT_EQ(b.phase, t.phase);
    EXPECT_EQ(b.group, t.group);
    EXPECT_EQ(b.collective, t.collective);
    EXPECT_EQ(after_ids(back, b), after_ids(w, t)) << t.name;
  }
}

TEST(ChakraConvert, ReadsForeignStyleTraces) {
  // Two ranks as a PyTorch-style producer writes them: node ids restart per rank, comm_src as
  // uint32, comm_size as int64, no flux attributes.
  ChakraTrace r0, r1;
  ChakraNode c;
  c.id = 0;
  c.type = static_cast<int>(ChakraNodeType::comp);
  c.duration_micros = 250;
  ChakraNode s = c;
  s.id = 1;
  s.type = static_cast<int>(ChakraNodeType::comm_send);
  s.ctrl_deps = {0};
  s.attrs = {chakra_int("comm_dst", 1, 23), chakra_int("comm_size", 4096, 9),
             chakra_int("comm_tag", 5, 11)};
  r0.nodes = {c, s};
  ChakraNode rv = c;
  rv.id = 0;
  rv.type = static_cast<int>(ChakraNodeType::comm_recv);
  rv.attrs = {chakra_int("comm_src", 0, 11), chakra_int("comm_size", 4096, 13),
              chakra_int("comm_tag", 5, 7)};
  ChakraNode c1 = c;
  c1.id = 1;
  c1.data_deps = {0};
  r1.nodes = {rv, c1};
  const std::string prefix = temp_prefix("foreign");
  std::filesystem::remove(prefix + ".2.et");
  for (auto [r, t] : {std::pair{0, &r0}, std::pair{1, &r1}}) {
    std::ofstream(prefix + "." + std::to_string(r) + ".et", std::ios::binary) << encode_chakra(*t);
  }
  const Workload w = import_chakra(prefix);
  ASSERT_EQ(w.tasks.size(), 3u);
  EXPECT_EQ(w.tasks[0].duration, 250e-6);
  EXPECT_EQ(w.tasks[1].kind, TaskKind::send);
  EXPECT_EQ(w.tasks[1].bytes, 4096);
  EXPECT_EQ(w.tasks[1].after, std::vector<int>{0});
  EXPECT_EQ(w.tasks[2].after, std::vector<int>{1});  // waits for the matched send
}

ChakraNode node(std::uint64_t id, ChakraNodeType type, std::vector<std::uint64_t> deps = {}) {
  ChakraNode n;
  n.id = id;
  n.type = static_cast<int>(type);
  n.name = "n" + std::to_string(id);
  n.duration_micros = 100;
  n.data_deps = std::move(deps);
  return n;
}

TEST(ChakraConvert, ExpandsCollectivesPerProcessGroup) {
  // 4 ranks: compute, an all-reduce on the rank's pair ("a": {0,1}, "b": {2,3}), an all-to-all on
  // all ranks (no pg_name), compute.
  const std::string prefix = temp_prefix("coll");
  std::filesystem::remove(prefix + ".4.et");
  for (int r = 0; r < 4; ++r) {
    ChakraTrace t;
    t.nodes.push_back(node(10, ChakraNodeType::comp));
    ChakraNode ar = node(11, ChakraNodeType::comm_coll, {10});
    ar.attrs = {chakra_int("comm_type", 0, 7), chakra_int("comm_size", 4000, 13),
                chakra_text("pg_name", r < 2 ? "a" : "b")};
    ChakraNode a2a = node(12, ChakraNodeType::comm_coll, {11});
    a2a.attrs = {chakra_int("comm_type", 6), chakra_int("comm_size", 800)};
    t.nodes.insert(t.nodes.end(), {ar, a2a, node(13, ChakraNodeType::comp, {12})});
    std::ofstream(prefix + "." + std::to_string(r) + ".et", std::ios::binary) << encode_chakra(t);
  }
  const std::string groups = temp_prefix("groups.json");
  std::ofstream(groups) << R"({"a": [0, 1], "b": [2, 3]})";
  ChakraImportOptions options;
  options.comm_groups = groups;
  const Workload w = import_chakra(prefix, options);
  double ar_bytes = 0, a2a_bytes = 0;
  int ar_sends = 0;
  for (const Task& t : w.tasks) {
    if (t.kind != TaskKind::send) continue;
    if (t.name.view().starts_with("n11")) {
      ar_bytes += t.bytes, ++ar_sends;
      EXPECT_EQ(t.src / 2, t.dst / 2);  // inside its pair
    } else {
      a2a_bytes += t.bytes;
    }
  }
  EXPECT_EQ(ar_sends, 2 * 2 * 2);          // 2 pairs x 2 ranks x 2(p-1) steps
  EXPECT_DOUBLE_EQ(ar_bytes, 4 * 4000.0);  // 2(p-1)/p * S per rank
  EXPECT_DOUBLE_EQ(a2a_bytes, 4 * 3 * 200.0);
  // The last compute of rank 0 waits for the all-to-all from the three other ranks.
  const Task& last = w.tasks.back();
  EXPECT_EQ(last.kind, TaskKind::compute);
  EXPECT_EQ(last.after.size(), 4u);  // 3 receives + the previous compute of its chain
  std::ofstream(groups) << R"({"a": [0, 1], "b": [2, 7]})";
  EXPECT_THROW((void)import_chakra(prefix, options), InputError);
}

TEST(ChakraConvert, ATraceThatCannotProceedIsAnError) {
  const std::string prefix = temp_prefix("stuck");
  std::filesystem::remove(prefix + ".1.et");
  ChakraTrace t;
  ChakraNode recv = node(1, ChakraNodeType::comm_recv);
  recv.attrs = {chakra_int("comm_src", 0), chakra_int("comm_size", 1)};
  t.nodes = {recv};
  std::ofstream(prefix + ".0.et", std::ios::binary) << encode_chakra(t);
  try {
    (void)import_chakra(prefix);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "node 1");
  }
}

}  // namespace
}  // namespace flux::workload
