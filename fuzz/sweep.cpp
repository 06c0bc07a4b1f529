// Fuzz target: flux.sweep/1 (read, every axis value checked, then planned). Inputs naming base
// files by path are skipped: the fuzzer must not read the machine's files. An accepted sweep's
// plan must hold distinct ids, and no more cells than combinations.
#include <nlohmann/json.hpp>
#include <set>

#include "fuzz_support.hpp"
#include "sweep/sweep_plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = flux::fuzz::text_of(data, size);
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_object())
    for (const char* key : {"scenario", "fabric", "workload"})
      if (j.contains(key) && j[key].is_string()) return 0;
  try {
    const flux::sweep::Sweep sweep = flux::sweep::parse_sweep(text, "fuzz");
    double combinations = 1;
    for (const flux::sweep::SweepAxis& a : sweep.axes)
      combinations *= static_cast<double>(a.values.size());
    if (combinations > 256) return 0;  // the grid's size is checked; its cells cost time each
    const flux::sweep::SweepPlan plan = flux::sweep::plan_sweep(sweep);
    std::set<std::string> ids;
    for (const flux::sweep::SweepCell& c : plan.cells) ids.insert(c.id);
    if (ids.size() != plan.cells.size() || plan.cells.size() > plan.combinations) std::abort();
  } catch (const flux::InputError&) {
  }
  return 0;
}
