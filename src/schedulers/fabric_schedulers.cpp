#include "schedulers/fabric_schedulers.hpp"

#include "core/units.hpp"
#include "fabric_baselines/bvn_frame.hpp"
#include "fabric_baselines/ideal.hpp"
#include "fabric_baselines/rotornet.hpp"
#include "fabric_baselines/spectra_phase.hpp"
#include "fabric_baselines/static_topology.hpp"
#include "matrix_schedulers/registry.hpp"

namespace flux::schedulers {
namespace {

// A scheduler of the fabric that takes SchedulerOptions, filled from the values by `fill`.
template <class Fill, class Run>
std::function<ConfiguredScheduler(const OptionValues&)> with_options(Fill fill, Run run) {
  return [fill, run](const OptionValues& values) -> ConfiguredScheduler {
    fabric::SchedulerOptions o;
    fill(values, o);
    return [o, run](const SchedulingInput& in) {
      fabric::SchedulerOptions with_progress = o;
      with_progress.progress = &in.progress;
      with_progress.outputs = in.outputs;
      return SchedulerOutput{run(in.workload, in.fabric, with_progress), std::nullopt};
    };
  };
}

OptionSpec frame_option() {
  return {.key = "frame",
          .type = OptionType::time,
          .unit = "s",
          .default_value = 0.0,
          .min = 0.0,
          .help = "periodic frame length (0 = one-shot: the decomposition's own length)"};
}

}  // namespace

WorkloadScheduler static_scheduler() {
  return {"static",
          "fixed circuits per OCS (--topology, or the heaviest pairs)",
          {{.key = "topology",
            .type = OptionType::text,
            .default_value = std::string("heaviest"),
            .help = "circuits per OCS, e.g. \"0-1,2-3/1-2,0-3\" (one list per OCS), or heaviest: "
                    "the heaviest pairs"}},
          with_options(
              [](const OptionValues& v, fabric::SchedulerOptions& o) {
                o.topology = v.text("topology") == "heaviest" ? "" : v.text("topology");
              },
              fabric_baselines::schedule_static)};
}

WorkloadScheduler rotornet_scheduler(bool vlb) {
  return {vlb ? "rotornet-vlb" : "rotornet",
          vlb ? "RotorLB: RotorNet with two-hop relaying through the current neighbour"
              : "RotorNet-Direct: round-robin matchings, slot τ/(1-duty)",
          {{.key = "duty_cycle",
            .type = OptionType::real,
            .default_value = 0.9,
            .min = 0.0,
            .max = 1.0,
            .min_open = true,
            .max_open = true,
            .help = "share of a slot that carries data"},
           {.key = "slot",
            .type = OptionType::time,
            .unit = "s",
            .default_value = 0.0,
            .min = 0.0,
            .help = "slot length (0 = tau / (1 - duty_cycle))"}},
          with_options(
              [](const OptionValues& v, fabric::SchedulerOptions& o) {
                o.duty_cycle = v.real("duty_cycle");
                o.slot = v.real("slot");
              },
              [vlb](const workload::Workload& w, const fabric::Fabric& f,
                    const fabric::SchedulerOptions& o) {
                return fabric_baselines::schedule_rotornet(w, f, o, vlb);
              })};
}

WorkloadScheduler bvn_scheduler() {
  return {"bvn",
          "BvN on the aggregate traffic matrix, one-shot frame (--frame for periodic)",
          {frame_option()},
          with_options(
              [](const OptionValues& v, fabric::SchedulerOptions& o) { o.frame = v.real("frame"); },
              fabric_baselines::schedule_bvn)};
}

// bvn with its frame given as a multiple of the fabric's τ ("100tau", so one value serves a τ
// sweep) or as a duration ("5ms").
WorkloadScheduler bvn_periodic_scheduler() {
  return {"bvn-periodic",
          "BvN on the aggregate traffic matrix, repeated in periodic frames",
          {{.key = "bvn_frame",
            .type = OptionType::time_or_tau,
            .default_value = std::string("100tau"),
            .min = 0.0,
            .min_open = true,
            .help = "periodic frame length: a duration (5ms) or a multiple of the reconfiguration "
                    "delay (100tau); a bare number is rejected"}},
          [](const OptionValues& v) -> ConfiguredScheduler {
            const TimeOrTau frame = parse_time_or_tau(v.text("bvn_frame"), "bvn_frame");
            return [frame](const SchedulingInput& in) {
              fabric::SchedulerOptions o;
              o.frame = frame.seconds(in.fabric.reconfig_delay);
              o.progress = &in.progress;
              o.outputs = in.outputs;
              return SchedulerOutput{fabric_baselines::schedule_bvn(in.workload, in.fabric, o),
                                     std::nullopt};
            };
          }};
}

WorkloadScheduler spectra_phase_scheduler() {
  std::vector<std::string> algorithms;
  for (const matrix_schedulers::MatrixAlgorithm& a : matrix_schedulers::matrix_algorithms())
    algorithms.push_back(a.name);
  return {"spectra-phase",
          "Spectra on each communication phase's demand as it becomes ready",
          {{.key = "phase_algorithm",
            .type = OptionType::text,
            .default_value = std::string("spectra"),
            .help = "matrix scheduler for each phase",
            .choices = algorithms}},
          with_options(
              [](const OptionValues& v, fabric::SchedulerOptions& o) {
                o.phase_algorithm = v.text("phase_algorithm");
              },
              fabric_baselines::schedule_spectra_phase)};
}

WorkloadScheduler ideal_scheduler() {
  return {"ideal",
          "ideal electrical fabric: non-blocking sigma*B per GPU, max-min fair, no tau",
          {},
          with_options([](const OptionValues&, fabric::SchedulerOptions&) {},
                       [](const workload::Workload& w, const fabric::Fabric& f,
                          const fabric::SchedulerOptions& o) {
                         return fabric_baselines::schedule_ideal(w, f, *o.progress);
                       }),
          true};
}

}  // namespace flux::schedulers
