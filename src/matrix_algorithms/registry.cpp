#include "matrix_algorithms/registry.hpp"

#include "matrix_algorithms/baseline.hpp"
#include "matrix_algorithms/bvn.hpp"
#include "matrix_algorithms/eclipse.hpp"
#include "matrix_algorithms/naive.hpp"
#include "matrix_algorithms/per_port_greedy.hpp"
#include "matrix_algorithms/schedule_helpers.hpp"
#include "matrix_algorithms/solstice.hpp"
#include "spectra/spectra.hpp"

namespace flux {
namespace {

MatrixResult renamed(MatrixResult r, const char* name) {
  r.schedule.algorithm = name;
  return r;
}

// On byte demand no algorithm emits an empty or sub-byte slot (schedule_helpers.hpp).
std::vector<MatrixAlgorithm> with_whole_byte_slots(std::vector<MatrixAlgorithm> list) {
  for (MatrixAlgorithm& a : list)
    a.run = [run = std::move(a.run)](const MatrixProblem& p, const MatrixRunOptions& o) {
      MatrixResult r = run(p, o);
      whole_byte_slots(r.schedule, p);
      return r;
    };
  return list;
}

}  // namespace

const std::vector<MatrixAlgorithm>& matrix_algorithms() {
  static const std::vector<MatrixAlgorithm> list = with_whole_byte_slots({
      {"spectra", "Spectra, improved (default)",
       [](const MatrixProblem& p, const MatrixRunOptions&) { return spectra_improved(p); }},
      {"spectra-ref", "Spectra exactly as the reference (LP weights)",
       [](const MatrixProblem& p, const MatrixRunOptions&) { return spectra_reference(p); }},
      {"spectra-noeq", "ablation: Spectra reference without EQUALIZE (DECOMPOSE + LPT)",
       [](const MatrixProblem& p, const MatrixRunOptions&) {
         return renamed(spectra_reference(p, {.equalize = false}), "spectra-noeq");
       }},
      {"spectra-eclipse", "ablation: Eclipse's decomposition + SCHEDULE + EQUALIZE",
       [](const MatrixProblem& p, const MatrixRunOptions&) {
         check_problem(p);
         return renamed(
             schedule_decomposition(eclipse_decomposition(p.time, {.delta = p.delta}), p, true),
             "spectra-eclipse");
       }},
      {"baseline", "the paper's baseline: LESS split, Spectra decomposition per part, serial",
       [](const MatrixProblem& p, const MatrixRunOptions& o) { return less_baseline(p, o); }},
      {"baseline-eclipse", "the paper's baseline with Eclipse per part",
       [](const MatrixProblem& p, const MatrixRunOptions& o) {
         return less_baseline(p, o, {.decomposer = PartDecomposer::eclipse});
       }},
      {"eclipse", "Eclipse greedy decomposition, LPT onto the switches",
       [](const MatrixProblem& p, const MatrixRunOptions&) { return eclipse_schedule(p); }},
      {"bvn", "exact Birkhoff-von Neumann on the stuffed matrix, LPT onto the switches",
       [](const MatrixProblem& p, const MatrixRunOptions&) { return bvn_schedule(p); }},
      {"solstice", "Solstice QuickStuff + BigSlice, LPT onto the switches",
       [](const MatrixProblem& p, const MatrixRunOptions& o) { return solstice_schedule(p, o); }},
      {"naive", "D/s on every switch, decomposed once",
       [](const MatrixProblem& p, const MatrixRunOptions&) { return naive_schedule(p); }},
      {"per-port", "not-all-stop greedy on each switch's share of Spectra (per-port schedule)",
       [](const MatrixProblem& p, const MatrixRunOptions&) { return per_port_spectra(p); }},
      {"baseline-per-port", "not-all-stop greedy on each LESS part of the baseline (per-port)",
       [](const MatrixProblem& p, const MatrixRunOptions& o) { return per_port_baseline(p, o); }},
  });
  return list;
}

const MatrixAlgorithm* find_matrix_algorithm(std::string_view name) {
  for (const auto& a : matrix_algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace flux
