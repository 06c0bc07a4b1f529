// The readers' limits through the real binary: values that would overflow the simulator's
// picosecond clock or its byte counts, and inputs that would build workloads or schedules too
// large for memory, are refused up front with exit 2 and one line naming the file and field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "support/cli.hpp"

namespace flux {
namespace {

class Limits : public testing::CliTest {
 protected:
  // An ASTRA-sim text file with `header` on line 1, `count` on line 2 and `layer` for each layer.
  std::string astra(const std::string& name, const std::string& header, const std::string& count,
                    const std::string& layer = "l -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 100 5") const {
    return write(name, header + "\n" + count + "\n" + layer + "\n" + layer + "\n" + layer + "\n");
  }
  std::string import(const std::string& file, const std::string& options = "") const {
    return "workload import --astra " + file + " -o out.json " + options;
  }
  // A two-GPU fabric; `rate` is its link rate.
  std::string fabric(const std::string& name, const std::string& rate, int gpus = 2) const {
    return write_fabric(name, {.gpus = gpus, .ocs = 1, .rate = rate});
  }
  // A two-GPU workload of one compute task of `duration` s and one send of `bytes`.
  std::string workload(const std::string& name, const std::string& duration,
                       const std::string& bytes) const {
    return write(name, R"({"format": "flux.workload/1", "gpus": 2, "tasks": [
      {"id": 0, "kind": "compute", "gpu": 0, "duration": )" +
                           duration + R"(, "after": []},
      {"id": 1, "kind": "send", "src": 0, "dst": 1, "bytes": )" +
                           bytes + R"(, "after": [0]}]})");
  }
};

TEST_F(Limits, AstraLayerCountsMustBeWholeNumbers) {
  for (const char* count : {"2.5", "1e300", "1073741825"})
    expect_rejected(import(astra("a.txt", "DATA all_gpus: 4", count)),
                    "a.txt: line 2: an integer in [0, 2^30] for the layer count");
  for (const char* count : {"inf", "-1", "nan"})
    expect_rejected(import(astra("a.txt", "DATA all_gpus: 4", count)),
                    "a.txt: line 2: a finite, non-negative number for the layer count");
  expect_rejected(import(astra("a.txt", "DATA all_gpus: 1e300", "1")), "a.txt: line 1:");
}

TEST_F(Limits, AstraOptionsAndPolicies) {
  const std::string ok = astra("ok.txt", "DATA all_gpus: 4", "3");
  expect_rejected(import(ok, "--gpus -4"), "--gpus: a positive GPU count, got -4");
  expect_rejected(import(ok, "--cycle -1"), "--cycle: expected a non-negative quantity");
  expect_rejected(import(ok, "--cycle 2s"), "--cycle: seconds per cycle in (0, 1]");
  expect_rejected(import(astra("p.txt", "DATAPARALLEL all_gpus: 4", "3")),
                  "p.txt: line 1: an ASTRA-sim parallelism policy");
  ASSERT_EQ(flux(import(ok)).code, 0);
}

TEST_F(Limits, AstraTimesAndSizesWithinTheClock) {
  expect_rejected(import(astra("c.txt", "DATA all_gpus: 4", "3",
                               "l -1 1e300 NONE 0 5 NONE 0 5 ALLREDUCE 100 5")),
                  "c.txt: line 3: compute times <= 9e+15 cycles");
  expect_rejected(import(astra("u.txt", "DATA all_gpus: 4", "3",
                               "l -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 100 1e16")),
                  "u.txt: line 3: compute times");
  expect_rejected(
      import(astra("b.txt", "DATA all_gpus: 4", "3", "l -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 1e18 5")),
      "b.txt: line 3: collective sizes <= 2^53");
}

// A million GPUs with an all-reduce over all of them is ~6e12 tasks: refused before building,
// with the estimate and what governs it.
TEST_F(Limits, AstraSizeEstimatedBeforeBuilding) {
  const std::string big = astra("big.txt", "DATA all_gpus: 1000000", "3");
  expect_rejected(import(big),
                  "big.txt: all_gpus: a workload of at most 5e+07 tasks; this one "
                  "would have about 6e+12 tasks");
  expect_rejected(import(astra("ok.txt", "DATA all_gpus: 4", "3"), "--gpus 1000000"),
                  "ok.txt: --gpus: a workload of at most 5e+07 tasks");
}

TEST_F(Limits, WorkloadTimesAndBytes) {
  workload("long.json", "1e7", "1");
  expect_rejected("workload stats long.json",
                  "long.json: /tasks/0/duration: expected a time <= 9e+06 s");
  workload("huge.json", "1", "1e18");
  expect_rejected("workload stats huge.json",
                  "huge.json: /tasks/1/bytes: expected a byte count <= 2^53");
  workload("ok.json", "1", "1e6");
  EXPECT_EQ(flux("workload stats ok.json").code, 0);
}

TEST_F(Limits, FabricRatesAndTimes) {
  workload("w.json", "1e-3", "1e6");
  fabric("slow.json", "1e-300");
  expect_rejected("simulate --workload w.json --fabric slow.json --scheduler static -o out",
                  "slow.json: /link_rate: expected a rate >= 1.11e-07 bytes/s");
  write_fabric("late.json", {.gpus = 2, .ocs = 1, .rate = "1e9", .latency = "1e7", .tau = "0"});
  expect_rejected("simulate --workload w.json --fabric late.json --scheduler static -o out",
                  "late.json: /latency: expected a time <= 9e+06 s");
}

// A small dense scenario with `from` replaced by `to` in its text.
std::string scenario_text(const std::string& from, const std::string& to) {
  std::string text = R"({"format": "flux.scenario/1", "model": {"preset": "llama3-8b",
    "num_layers": 8}, "parallelism": {"world_size": 8, "tensor_model_parallel_size": 4},
    "training": {"micro_batch_size": 1, "global_batch_size": 2, "seq_length": 2048},
    "hardware": {"gpu": "a100", "mfu": 0.5}})";
  return text.replace(text.find(from), from.size(), to);
}

TEST_F(Limits, ScenarioRefusedBeforeGenerating) {
  const std::string generate = "workload generate --scenario s.json -o out.json";
  write("s.json", scenario_text("\"mfu\": 0.5", "\"mfu\": 1e-12"));
  expect_rejected(generate,
                  "s.json: /hardware/mfu: an iteration within the simulator's clock "
                  "range (9e+06 s): at mfu 1e-12 one rank computes for at least");
  write("s.json", scenario_text("\"num_layers\": 8", "\"num_layers\": 1000000"));
  expect_rejected(generate,
                  "s.json: /model/num_layers: a workload of at most 5e+07 tasks; this "
                  "one would have about 2.08e+08 tasks");
  write("s.json", scenario_text("\"seq_length\": 2048",
                                "\"seq_length\": 2048, "
                                "\"ddp_bucket_size\": 1e300"));
  expect_rejected(generate, "s.json: /training/ddp_bucket_size: a bucket of at most 2^53 bytes");
  write("s.json", scenario_text("\"mfu\": 0.5", "\"mfu\": 0.5"));
  EXPECT_EQ(flux(generate).code, 0);
}

// A scenario for another GPU count than the fabric's is refused from its world size, before its
// tasks are built (the 18.5 M-task GPT-3 example would take a minute and GBs to reach the check).
TEST_F(Limits, ScenarioForAnotherFabricRefusedBeforeBuilding) {
  fabric("f.json", "1e11");
  write("s.json", scenario_text("\"mfu\": 0.5", "\"mfu\": 0.5"));
  for (const std::string command : {"simulate --scheduler ideal", "cosched --scheduler flux"})
    expect_rejected(command + " --scenario s.json --fabric f.json -o out",
                    "s.json: /parallelism/world_size: the fabric's GPU count (2), got 8");
  EXPECT_FALSE(exists("out"));
}

// A 65,536-GPU fabric and one send: every matrix scheduler would need ~100 GB, rotornet would
// step through 4e9 pairs per cycle. Refused before allocating, naming the fabric file.
TEST_F(Limits, SchedulersBoundedByTheFabricSize) {
  fabric("big.json", "1e11", 65536);
  write("one.json", R"({"format": "flux.workload/1", "gpus": 65536, "tasks": [
    {"id": 0, "kind": "send", "src": 0, "dst": 1, "bytes": 1000, "after": []}]})");
  for (const std::string s : {"static", "bvn", "spectra-phase"})
    expect_rejected("simulate --workload one.json --fabric big.json -o out --scheduler " + s,
                    "big.json: --scheduler: a fabric small enough for " + s +
                        ": it holds 65536x65536 demand matrices, about 103 GB (at most 8 GB)");
  expect_rejected("simulate --workload one.json --fabric big.json -o out --scheduler rotornet",
                  "big.json: --scheduler: a fabric small enough for rotornet: one matching "
                  "cycle visits "
                  "4.29e+09 GPU pairs");
}

// A one-shot BvN frame of ~20 us repeated over a 30 s compute: 3 million circuit records. The
// scheduler stops as soon as the records it keeps pass the cap (5e8 B / 270 B a record), not
// after holding all of them (at 1,024 GPUs and τ = 1 µs, that was more than 7 GB), and plays the
// frame again listing only the circuit that carried the send; the summary and the output say so.
TEST_F(Limits, PastTheRecordCapOnlyTheCircuitsInUseAreListed) {
  fabric("f.json", "1e11");
  workload("w.json", "30", "1000");
  const testing::CliResult r =
      flux("simulate --workload w.json --fabric f.json -o out --scheduler bvn");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("circuits: bvn played more than the 1851851 records its outputs may hold: "
                       "only the circuits that carried bytes are listed"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(
      nlohmann::json::parse(testing::slurp(path("out/summary.json")))["scheduler"]["circuits"],
      "used");
  const std::string csv = testing::slurp(path("out/circuits.csv"));  // a header and one circuit
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2) << csv;
  EXPECT_NE(csv.find("\n0,0,1,30.0000030"), std::string::npos) << csv;
}

// A pipe or device is read up to 64 MiB (FLUX_STREAM_LIMIT changes it), so an endless stream is
// refused after a fraction of a second, while a workload piped in is read whole. A workload is
// parsed as it is read: /dev/zero is refused at its first byte, endless blanks at the limit.
TEST_F(Limits, StreamsAreReadUpToTheStreamLimit) {
  // `input | flux workload stats /dev/stdin` is stopped at the limit the message names.
  const auto expect_stopped = [&](const std::string& input, const std::string& env,
                                  const std::string& limit) {
    const testing::CliResult r =
        run_shell(input + " | " + env + "'" FLUX_BINARY "' workload stats /dev/stdin");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "flux: error: /dev/stdin: a stream of at most " + limit +
                         "; it is not a regular file): save it to a file, or raise "
                         "FLUX_STREAM_LIMIT\n");
  };
  expect_rejected("workload stats /dev/zero", "/dev/zero: expected valid JSON");
  expect_stopped("yes ' '", "", "64MiB (67108864 bytes");
  workload("w.json", "1", "1e6");
  expect_rejected("simulate --workload w.json --fabric /dev/zero -o out --scheduler ideal",
                  "/dev/zero: a stream of at most 64MiB");
  const testing::CliResult piped = flux_piped("w.json", "workload stats /dev/stdin");
  EXPECT_EQ(piped.code, 0) << piped.err;
  EXPECT_NE(piped.out.find("tasks 2 (1 compute, 1 send)"), std::string::npos) << piped.out;
  expect_stopped("cat w.json", "FLUX_STREAM_LIMIT=100B ", "100B (100 bytes");

  ::setenv("FLUX_STREAM_LIMIT", "1KiB", 1);
  expect_rejected("workload stats /dev/zero", "/dev/zero: a stream of at most 1KiB (1024 bytes;");
  ::setenv("FLUX_STREAM_LIMIT", "lots", 1);
  expect_rejected(
      "workload stats w.json",
      "FLUX_STREAM_LIMIT: expected a non-negative quantity such as '16MiB', got 'lots'");
  ::setenv("FLUX_STREAM_LIMIT", "0", 1);
  expect_rejected("workload stats w.json", "FLUX_STREAM_LIMIT: a positive size, got '0'");
  ::unsetenv("FLUX_STREAM_LIMIT");
}

}  // namespace
}  // namespace flux
