#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "core/limits.hpp"
#include "workload/size_limit.hpp"
#include "workload/validate.hpp"
#include "workload/workload_importers.hpp"
#include "workload/workload_io.hpp"
#include "workload/workload_stats.hpp"

namespace flux::workload {
namespace {

const char* kHybrid =
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 ga: 1 "
    "all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0\n"
    "2\n"
    "attn -1 1000 ALLREDUCE 1024 2000 ALLREDUCE 1024 2000 ALLREDUCE_DP 4096 10\n"
    "mlp  -1 1000 NONE 0 2000 ALLGATHER 2048 2000 REDUCESCATTER 8192 10\n";

double bytes(const WorkloadStats& s, const std::string& g) {
  auto it = s.bytes_per_group.find(g);
  return it == s.bytes_per_group.end() ? 0 : it->second;
}

TEST(AstraImport, HybridTransformerExpandsCollectivesPerGroup) {
  const Workload w = parse_astra(kHybrid, "w.txt");
  EXPECT_EQ(w.gpus, 8);
  EXPECT_NO_THROW(validate_workload(w, "w.txt"));
  const WorkloadStats s = workload_stats(w);
  // TP pairs (4 groups of 2): fwd AR 1024 + ig AR 1024 + ig AG 2048 (output), ring over 2 ranks:
  // AR sends 2(p-1)/p*S per rank, AG (p-1)/p*S.
  EXPECT_DOUBLE_EQ(bytes(s, "tp"), 8 * (1024.0 + 1024.0 + 0.5 * 2048));
  // DP groups of 4 (stride 2): AR 4096 -> 2*3/4*S, RS 8192 -> 3/4*S per rank, weight-gradient.
  EXPECT_DOUBLE_EQ(bytes(s, "dp"), 8 * (1.5 * 4096 + 0.75 * 8192));
  // Compute: 2 layers x (1000 + 2000 + 2000) cycles + 2 x 10 update = 10,020 ns on each GPU.
  EXPECT_NEAR(s.max_gpu_compute, 10020e-9, 1e-15);
}

TEST(AstraImport, BadFilesNameTheLine) {
  try {
    (void)parse_astra("DATA all_gpus: 4\n1\nl -1 1 NONE 0 1 NONE 0 1 NONE\n", "w.txt");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "line 3");
  }
  EXPECT_THROW((void)parse_astra("DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n", "w.txt"),
               InputError);  // no GPU count
  EXPECT_THROW(
      (void)parse_astra("DATA all_gpus: 4\n1\nl -1 1 SCATTER 8 1 NONE 0 1 NONE 0 0\n", "w.txt"),
      InputError);
  try {  // task names end up in JSON, which carries only UTF-8
    (void)parse_astra("DATA all_gpus: 4\n1\nM\xff -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n", "w.txt");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "line 3");
    EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
  }
  const Workload w =
      parse_astra("DATA all_gpus: 4\n1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 400 0\n", "w.txt");
  EXPECT_DOUBLE_EQ(workload_stats(w).total_bytes, 4 * 1.5 * 400);
}

// Found by fuzzing: 2,000 GPUs in a few bytes ask for tens of millions of tasks, which took the
// fuzz target past its time limit under the sanitizers. The fuzz targets lower the task limit;
// the importer then refuses the file from its estimate, before building anything.
TEST(AstraImport, TaskLimitIsCheckedBeforeBuilding) {
  const std::string text =
      "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 1 ep: 1 pp: 1 vpp: 1 ga: 1 "
      "all_gpus: 2000 ALLREDs: 0 checkpoint_initiates: 0\n2\n"
      "attn -1 1000 ALLREDUCE 1023 2000 ALLREDUCE 1024 2000 ALLREDUCE_DP 4096 10\n"
      "mlp -1 1000 NONE 0 6000 ALLGATHER 2048 2000 REDUCESCATTER 8192 10\n";
  set_generated_task_limit(2e5);
  try {
    (void)parse_astra(text, "w.txt");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "all_gpus");
    EXPECT_NE(std::string(e.what()).find("at most 2e+05 tasks"), std::string::npos) << e.what();
  }
  set_generated_task_limit(kMaxGeneratedTasks);
  EXPECT_EQ(generated_task_limit(), kMaxGeneratedTasks);
}

// Found by fuzzing: a compute time of "-000" cycles was kept as -0.0, which the workload file
// writes as "-0.0" and reads back as 0, so the imported workload did not survive its own format.
TEST(AstraImport, NegativeZeroReadsAsZero) {
  const Workload w =
      parse_astra("DATA all_gpus: 4\n1\nl -1 -000 NONE 0 1 NONE 0 1 NONE 0 0\n", "w.txt");
  for (const Task& t : w.tasks) EXPECT_FALSE(std::signbit(t.duration)) << t.name;
  EXPECT_EQ(workload_to_json(parse_workload(workload_to_json(w), "w.json")), workload_to_json(w));
}

}  // namespace
}  // namespace flux::workload
