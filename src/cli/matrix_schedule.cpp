// `flux matrix schedule` and `flux matrix bound`.
#include <fmt/format.h>

#include <memory>

#include "cli/matrix_common.hpp"
#include "cli/progress_flag.hpp"
#include "cli/provenance.hpp"
#include "core/file_output.hpp"
#include "core/units.hpp"
#include "matrix/schedule.hpp"
#include "matrix_schedulers/checked_run.hpp"

namespace flux::cli {
namespace {

struct ScheduleArgs {
  ProblemArgs problem;
  std::string algorithm = "spectra";
  std::uint64_t seed = 1;
  std::string output;
};

double ratio(double makespan, double bound) {
  return bound > 0 ? makespan / bound : 1.0;
}

void print_bounds(const matrix::MatrixBounds& b, matrix::DemandUnit unit) {
  fmt::print("LB1 {}\nLB2 {}\nLB3 {} (all-stop only)\nLB4 {}\nbound {} (all-stop), {} (per-port)\n",
             show_time(b.lb1, unit), show_time(b.lb2, unit), show_time(b.lb3, unit),
             show_time(b.lb4, unit), show_time(b.all_stop, unit), show_time(b.bound, unit));
}

void print_summary(const ScheduleArgs& a, const matrix_schedulers::LoadedProblem& lp,
                   const matrix_schedulers::CheckedRun& run) {
  const matrix::MatrixSchedule& s = run.result.schedule;
  const matrix::DemandUnit unit = lp.demand.unit;
  fmt::print("input {}: n {}, unit {}, switches {}, delta {}{}\n", a.problem.demand,
             lp.demand.matrix.n(), to_string(unit), lp.problem.switches,
             show_time(lp.problem.delta, unit),
             unit == matrix::DemandUnit::bytes ? ", rate " + format_rate(lp.rate)
             : lp.rate_ignored                 ? " (--rate ignored: normalised demand has rate 1)"
                                               : "");
  fmt::print("algorithm {}\n", s.algorithm);
  fmt::print("makespan {}\n", show_time(s.makespan, unit));
  fmt::print("lower bound {} (LB1 {}, LB2 {}, LB3 {}, LB4 {})\n", show_time(s.lower_bound, unit),
             show_time(run.bounds.lb1, unit), show_time(run.bounds.lb2, unit),
             show_time(run.bounds.lb3, unit), show_time(run.bounds.lb4, unit));
  fmt::print("ratio {:.4f}\n", ratio(s.makespan, s.lower_bound));
  fmt::print("permutations {}\nsplits {}\nslots {}\n", run.result.permutations, run.result.splits,
             s.slots.size() + s.circuits.size());
  fmt::print("time {}\n", format_time(run.seconds));
  fmt::print("wrote {} (verified)\n", a.output);
}

void run_schedule(const ScheduleArgs& a, const CLI::App& cmd) {
  const matrix_schedulers::MatrixAlgorithm& algo =
      matrix_schedulers::algorithm_or_throw(a.algorithm);  // before any work
  const matrix_schedulers::LoadedProblem lp = load_problem(a.problem);
  matrix_schedulers::CheckedRun run;
  {
    ProgressStage stage(progress(), a.algorithm);  // seconds on 1,024-port matrices
    run = run_checked(algo, lp, {.seed = a.seed});
  }
  auto doc = matrix_schedule_document(run.result.schedule);
  doc["provenance"] = command_provenance(cmd, {a.problem.demand});
  write_file_atomic(a.output, doc.dump(1) + "\n");
  print_summary(a, lp, run);
}

}  // namespace

void add_matrix_schedule(CLI::App& matrix) {
  auto args = std::make_shared<ScheduleArgs>();
  auto* cmd = matrix.add_subcommand("schedule", "Schedule a demand matrix, verify, write it");
  add_problem_options(*cmd, args->problem);
  std::string names;
  for (const matrix_schedulers::MatrixAlgorithm& a : matrix_schedulers::matrix_algorithms())
    names += " " + a.name;
  cmd->add_option("--algorithm,-a", args->algorithm, "scheduler, one of:" + names)
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "seed for randomised schedulers")->capture_default_str();
  cmd->add_option("-o,--output", args->output, "schedule file (flux.matrix-schedule/1)")
      ->required();
  cmd->callback([args, cmd] { run_schedule(*args, *cmd); });
}

void add_matrix_bound(CLI::App& matrix) {
  auto args = std::make_shared<ProblemArgs>();
  auto* cmd = matrix.add_subcommand("bound", "Lower bounds LB1-LB4 on the makespan");
  add_problem_options(*cmd, *args);
  cmd->callback([args] {
    const matrix_schedulers::LoadedProblem lp = load_problem(*args);
    print_bounds(
        matrix::matrix_lower_bounds(lp.problem.time, lp.problem.switches, lp.problem.delta),
        lp.demand.unit);
  });
}

}  // namespace flux::cli
