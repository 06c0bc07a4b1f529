#include "matrix_schedulers/registry.hpp"

#include "matrix_baselines/baseline.hpp"
#include "matrix_baselines/bvn.hpp"
#include "matrix_baselines/eclipse.hpp"
#include "matrix_baselines/naive.hpp"
#include "matrix_baselines/per_port_greedy.hpp"
#include "matrix_baselines/schedule_helpers.hpp"
#include "matrix_baselines/solstice.hpp"
#include "matrix_schedulers/compositions.hpp"
#include "spectra/spectra.hpp"

namespace flux::matrix_schedulers {
namespace {

using P = const matrix::MatrixProblem&;
using O = const matrix::MatrixRunOptions&;
using V = const OptionValues&;

// An algorithm without options.
MatrixAlgorithm plain(std::string name, std::string description,
                      std::function<matrix::MatrixResult(P, O)> run) {
  return {
      std::move(name), std::move(description), {}, [run](P p, O o, V) { return run(p, o); }, {}};
}

// `base` under another name with some of its options fixed.
MatrixAlgorithm preset(const MatrixAlgorithm& base, std::string name, std::string description,
                       OptionValues values) {
  return {std::move(name), std::move(description), base.options, base.run_with, std::move(values)};
}

OptionValues one(const std::string& key, OptionValue value) {
  OptionValues v;
  v.set(key, std::move(value));
  return v;
}

// The reference Spectra with its two ablations as options.
MatrixAlgorithm spectra_ref() {
  return {"spectra-ref",
          "Spectra exactly as the reference (LP weights)",
          {{.key = "equalize",
            .type = OptionType::boolean,
            .default_value = true,
            .help = "EQUALIZE after SCHEDULE (false: DECOMPOSE + LPT only)"},
           {.key = "decomposition",
            .type = OptionType::text,
            .default_value = std::string("spectra"),
            .help = "DECOMPOSE (spectra) or Eclipse's greedy decomposition",
            .choices = {"spectra", "eclipse"}}},
          [](P p, O, V v) {
            if (v.text("decomposition") == "spectra")
              return spectra::spectra_reference(p, {.equalize = v.boolean("equalize")});
            check_problem(p);
            return schedule_decomposition(
                matrix_baselines::eclipse_decomposition(p.time, {.delta = p.delta}), p,
                v.boolean("equalize"));
          },
          {}};
}

MatrixAlgorithm baseline() {
  return {"baseline",
          "the paper's baseline: LESS split, Spectra decomposition per part, serial",
          {{.key = "decomposer",
            .type = OptionType::text,
            .default_value = std::string("spectra"),
            .help = "decomposition of each LESS part",
            .choices = {"spectra", "eclipse"}}},
          [](P p, O o, V v) {
            return matrix_baselines::less_baseline(p, o, part_decomposer(v.text("decomposer")));
          },
          {}};
}

// On byte demand no algorithm emits an empty or sub-byte slot (schedule_helpers.hpp).
std::vector<MatrixAlgorithm> with_whole_byte_slots(std::vector<MatrixAlgorithm> list) {
  for (MatrixAlgorithm& a : list)
    a.run_with = [run = std::move(a.run_with)](P p, O o, V v) {
      matrix::MatrixResult r = run(p, o, v);
      matrix_baselines::whole_byte_slots(r.schedule, p);
      return r;
    };
  return list;
}

}  // namespace

matrix::MatrixResult MatrixAlgorithm::run(const matrix::MatrixProblem& p,
                                          const matrix::MatrixRunOptions& o,
                                          const OptionValues& given) const {
  OptionValues values = preset;
  for (const auto& [key, value] : given.items()) values.set(key, value);
  matrix::MatrixResult r = run_with(p, o, resolve_options(options, values));
  if (!preset.items().empty()) r.schedule.algorithm = name;  // the base algorithm named itself
  return r;
}

const std::vector<MatrixAlgorithm>& matrix_algorithms() {
  static const MatrixAlgorithm ref = spectra_ref(), less = baseline();
  static const std::vector<MatrixAlgorithm> list = with_whole_byte_slots({
      plain("spectra", "Spectra, improved (default)",
            [](P p, O) { return spectra::spectra_improved(p); }),
      ref,
      preset(ref, "spectra-noeq", "ablation: Spectra reference without EQUALIZE (DECOMPOSE + LPT)",
             one("equalize", false)),
      preset(ref, "spectra-eclipse", "ablation: Eclipse's decomposition + SCHEDULE + EQUALIZE",
             one("decomposition", std::string("eclipse"))),
      less,
      preset(less, "baseline-eclipse", "the paper's baseline with Eclipse per part",
             one("decomposer", std::string("eclipse"))),
      plain("eclipse", "Eclipse greedy decomposition, LPT onto the switches",
            [](P p, O) { return matrix_baselines::eclipse_schedule(p); }),
      plain("bvn", "exact Birkhoff-von Neumann on the stuffed matrix, LPT onto the switches",
            [](P p, O) { return matrix_baselines::bvn_schedule(p); }),
      plain("solstice", "Solstice QuickStuff + BigSlice, LPT onto the switches",
            [](P p, O o) { return matrix_baselines::solstice_schedule(p, o); }),
      plain("naive", "D/s on every switch, decomposed once",
            [](P p, O) { return matrix_baselines::naive_schedule(p, spectra_part_decomposer()); }),
      plain("per-port", "not-all-stop greedy on each switch's share of Spectra (per-port schedule)",
            [](P p, O) { return per_port_spectra(p); }),
      plain("baseline-per-port", "not-all-stop greedy on each LESS part of the baseline (per-port)",
            [](P p, O o) {
              return matrix_baselines::per_port_baseline(p, o, spectra_part_decomposer());
            }),
  });
  return list;
}

const MatrixAlgorithm* find_matrix_algorithm(std::string_view name) {
  for (const auto& a : matrix_algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace flux::matrix_schedulers
