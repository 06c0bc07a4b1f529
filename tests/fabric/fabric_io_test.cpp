#include "fabric/fabric_io.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "core/error.hpp"
#include "support/fabrics.hpp"

namespace flux::fabric {
namespace {

const std::string kFabric = testing::fabric_json(
    {.rate = "100e9", .latency = "1e-6", .circuit = "simplex", .initial_free = true});

std::string field_of_error(const std::string& text) {
  try {
    (void)parse_fabric(text, "f.json");
  } catch (const InputError& e) {
    return e.field();
  }
  return "no error";
}

TEST(FabricIo, ReadsAndRoundTrips) {
  Fabric f = parse_fabric(kFabric, "f.json");
  EXPECT_EQ(f.gpus, 8);
  EXPECT_EQ(f.ocs, 2);
  EXPECT_DOUBLE_EQ(f.link_rate, 1e11);
  EXPECT_DOUBLE_EQ(f.latency, 1e-6);
  EXPECT_DOUBLE_EQ(f.reconfig_delay, 1e-5);
  EXPECT_EQ(f.circuit, CircuitKind::simplex);
  EXPECT_TRUE(f.initial_config_free);
  EXPECT_DOUBLE_EQ(f.nic_window, 1e-6);  // absent: 1 µs
  f.nic_window = 2.5e-6;
  Fabric g = parse_fabric(fabric_to_json(f), "g.json");
  EXPECT_EQ(fabric_to_json(g), fabric_to_json(f));
  EXPECT_DOUBLE_EQ(g.nic_window, 2.5e-6);
}

TEST(FabricIo, RejectsBadFieldsNamingThem) {
  std::string base = kFabric;
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = base;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  EXPECT_EQ(field_of_error(with("\"ocs\": 2", "\"ocs\": 0")), "/ocs");
  EXPECT_EQ(field_of_error(with("\"reconfig_delay\": 1e-5", "\"reconfig_delay\": -1")),
            "/reconfig_delay");
  EXPECT_EQ(field_of_error(with("\"simplex\"", "\"triplex\"")), "/circuit");
  EXPECT_EQ(field_of_error(with("flux.fabric/1", "flux.fabric/2")), "/format");
  EXPECT_EQ(field_of_error(with("\"latency\": 1e-6,", "")), "/latency");
  EXPECT_EQ(field_of_error(with("\"gpus\": 8", "\"gpus\": 8.5")), "/gpus");
  EXPECT_EQ(field_of_error(with("\"ocs\": 2", "\"ocs\": 2, \"nic_window\": -1e-6")), "/nic_window");
  EXPECT_EQ(field_of_error(with("\"ocs\": 2", "\"ocs\": 2, \"nic_window\": \"1us\"")),
            "/nic_window");
}

// A misspelt optional field would otherwise fall back to its default without a word.
TEST(FabricIo, RejectsUnknownFields) {
  std::string typo = kFabric;
  typo.replace(typo.find("\"reconfig_delay\""), 16, "\"reconfig_dealy\": 1, \"reconfig_delay\"");
  EXPECT_EQ(field_of_error(typo), "/reconfig_dealy");
}

TEST(CircuitScheduleIo, RoundTripsAtomicAndSplitMessages) {
  Fabric f = parse_fabric(kFabric, "f.json");
  CircuitSchedule s{
      "flux",
      {{3, 1, 0.25, {}}, {4, -1, 0.0, {{0, 0.1, 0.2, 1e6, -1, 5}, {1, 0.3, 0.4, 1e6, 5, -1}}}},
      {{1, 0, 7, 0.0, 1.5}},
      2.0};
  std::string text = circuit_schedule_to_json(s);
  CircuitSchedule r = parse_circuit_schedule(text, "s.json", f);
  EXPECT_EQ(circuit_schedule_to_json(r), text);
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_EQ(r.messages[1].pieces[0].to, 5);
  EXPECT_EQ(r.messages[1].pieces[1].from, 5);
}

TEST(CircuitScheduleIo, RejectsOutOfRangeSwitchAndGpu) {
  Fabric f = parse_fabric(kFabric, "f.json");
  const char* bad_switch =
      R"({"format": "flux.circuit-schedule/1", "scheduler": "x", "iteration_time": 1,
          "messages": [{"task": 1, "switch": 2, "start": 0}], "circuits": []})";
  const char* bad_gpu =
      R"({"format": "flux.circuit-schedule/1", "scheduler": "x", "iteration_time": 1,
          "messages": [], "circuits": [{"switch": 0, "a": 0, "b": 8, "up": 0, "down": 1}]})";
  try {
    (void)parse_circuit_schedule(bad_switch, "s.json", f);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "/messages/0/switch");
  }
  try {
    (void)parse_circuit_schedule(bad_gpu, "s.json", f);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "/circuits/0/b");
  }
}

// Written by Flux, the messages and circuits are read as parsed; in another order, from the DOM.
TEST(CircuitScheduleIo, ReadsTheMembersInAnyOrder) {
  Fabric f = parse_fabric(kFabric, "f.json");
  const char* last = R"({"circuits": [{"switch": 0, "a": 0, "b": 7, "up": 0, "down": 1.5}],
      "iteration_time": 2, "messages": [{"task": 3, "switch": 1, "start": 0.25}],
      "scheduler": "flux", "format": "flux.circuit-schedule/1"})";
  const CircuitSchedule s{"flux", {{3, 1, 0.25, {}}}, {{0, 0, 7, 0.0, 1.5}}, 2.0};
  EXPECT_EQ(circuit_schedule_to_json(parse_circuit_schedule(last, "s.json", f)),
            circuit_schedule_to_json(s));
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// A fabric built in code is held to the reader's rules, and its errors read the same.
TEST(FabricIo, FabricsBuiltInCodeFailLikeTheFileWithTheSameValue) {
  const Fabric good = parse_fabric(kFabric, "f.json");
  EXPECT_EQ(error_of([&] { validate_fabric(good, "f.json"); }), "no error");
  struct Case {
    const char* from;
    const char* to;
    void (*set)(Fabric&);
  };
  const Case cases[] = {
      {R"("ocs": 2)", R"("ocs": 0)", [](Fabric& f) { f.ocs = 0; }},
      {R"("gpus": 8)", R"("gpus": 70000)", [](Fabric& f) { f.gpus = 70000; }},
      {R"("link_rate": 100e9)", R"("link_rate": 1e-09)", [](Fabric& f) { f.link_rate = 1e-9; }},
  };
  for (const Case& c : cases) {
    std::string text = kFabric;
    text.replace(text.find(c.from), std::string(c.from).size(), c.to);
    Fabric f = good;
    c.set(f);
    const std::string from_file = error_of([&] { (void)parse_fabric(text, "f.json"); });
    EXPECT_NE(from_file, "no error") << c.to;
    EXPECT_EQ(error_of([&] { validate_fabric(f, "f.json"); }), from_file);
  }
  Fabric negative = good;
  negative.latency = -1.0;
  EXPECT_NE(error_of([&] { validate_fabric(negative, "fabric"); }).find("/latency"),
            std::string::npos);
}

}  // namespace
}  // namespace flux::fabric
