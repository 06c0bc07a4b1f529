// `flux matrix generate KIND [opts] --seed N -o D.json`: the seeded generators of
// matrix/generators.hpp (the Spectra paper's workloads and a few more). An option that does not
// belong to KIND is an error, not ignored.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "cli/matrix_common.hpp"
#include "core/error.hpp"
#include "core/file_output.hpp"
#include "core/units.hpp"
#include "matrix/generators.hpp"

namespace flux::cli {
namespace {

struct GenerateArgs {
  std::string kind;
  matrix::GeneratorOptions opt;
  double noise = 0.0;  // copied into opt.noise when given
  bool noisy = false;
  std::string popularity = "dirichlet";
  std::string bytes;  // scale the busiest port to this many bytes (unit bytes)
  std::uint64_t seed = 1;
  std::string output;
};

// Long option names each kind accepts besides the common ones.
const std::map<std::string, std::set<std::string>>& kind_options() {
  static const std::map<std::string, std::set<std::string>> m = {
      {"synthetic", {"--n", "--large", "--small", "--large-share", "--noise"}},
      {"gpt", {"--n", "--noisy", "--noise"}},
      {"moe", {"--n", "--tokens", "--topk", "--experts", "--popularity", "--alpha", "--zipf-s"}},
      {"alltoall", {"--n"}},
      {"perm", {"--n", "--k"}},
      {"sparse", {"--n", "--density"}},
  };
  return m;
}

std::string kind_list() {
  std::string out;
  for (const std::string& k : matrix::generator_kinds()) out += (out.empty() ? "" : ", ") + k;
  return out;
}

void check_options_fit_kind(const CLI::App& cmd, const std::string& kind) {
  if (std::ranges::count(matrix::generator_kinds(), kind) == 0)
    throw InputError("", "KIND", fmt::format("unknown kind '{}'; valid: {}", kind, kind_list()));
  const auto it = kind_options().find(kind);
  if (it == kind_options().end()) return;  // a kind this table does not know yet: no check
  static const std::set<std::string> common = {"--seed", "--output", "--bytes"};
  for (const CLI::Option* o : cmd.get_options()) {
    if (o->count() == 0 || o->get_lnames().empty()) continue;
    const std::string name = "--" + o->get_lnames()[0];
    if (!common.contains(name) && !it->second.contains(name)) {
      std::string allowed;
      for (const std::string& a : it->second) allowed += " " + a;
      throw InputError("", name,
                       fmt::format("not an option of '{}' (its options:{})", kind, allowed));
    }
  }
}

matrix::Popularity parse_popularity(const std::string& text) {
  if (text == "dirichlet") return matrix::Popularity::dirichlet;
  if (text == "zipf") return matrix::Popularity::zipf;
  throw InputError("", "--popularity", fmt::format("expected dirichlet or zipf, got '{}'", text));
}

// A byte demand counts whole bytes: entries rounded to the nearest byte, a positive one to >= 1.
Matrix whole_bytes(Matrix m) {
  for (int i = 0; i < m.n(); ++i)
    for (int j = 0; j < m.n(); ++j)
      if (m(i, j) > 0) m(i, j) = std::max(1.0, std::round(m(i, j)));
  return m;
}

void run_generate(const CLI::App& cmd, GenerateArgs a) {
  check_options_fit_kind(cmd, a.kind);
  if (cmd.count("--noise") > 0)
    a.opt.noise = a.noise;
  else if (a.noisy)
    a.opt.noise = 0.003;  // the Spectra paper's noisy GPT variant
  a.opt.popularity = parse_popularity(a.popularity);
  matrix::Demand d;
  d.matrix = generate_matrix(a.kind, a.opt, a.seed);
  if (!a.bytes.empty()) {
    d.matrix = whole_bytes(d.matrix.scaled(parse_bytes(a.bytes, "--bytes")));
    d.unit = matrix::DemandUnit::bytes;
  }
  write_file_atomic(a.output, demand_to_json(d));
  fmt::print("wrote {}: {} n = {}, {} non-zeros, at most {} per line, unit {}\n", a.output, a.kind,
             d.matrix.n(), d.matrix.nonzeros(), d.matrix.max_line_nonzeros(), to_string(d.unit));
}

void add_generator_options(CLI::App& cmd, GenerateArgs& a) {
  matrix::GeneratorOptions& o = a.opt;
  cmd.add_option("--n,--ports,--ranks", o.n, "ports (ranks for moe); 0 = the kind's default");
  cmd.add_option("--large", o.large_flows, "synthetic: large flows per port")
      ->capture_default_str();
  cmd.add_option("--small", o.small_flows, "synthetic: small flows per port")
      ->capture_default_str();
  cmd.add_option("--large-share", o.large_share, "synthetic: load share of the large flows")
      ->capture_default_str();
  cmd.add_option("--noise", a.noise, "noise std (synthetic default 0.003, gpt 0)");
  cmd.add_flag("--noisy", a.noisy, "gpt: the noisy variant (noise 0.003)");
  cmd.add_option("--tokens", o.tokens, "moe: tokens per rank")->capture_default_str();
  cmd.add_option("--topk", o.top_k, "moe: experts per token")->capture_default_str();
  cmd.add_option("--experts", o.experts, "moe: experts (multiple of n; 0 = one per rank)");
  cmd.add_option("--popularity", a.popularity, "moe: dirichlet or zipf")->capture_default_str();
  cmd.add_option("--alpha", o.alpha, "moe: Dirichlet concentration")->capture_default_str();
  cmd.add_option("--zipf-s", o.zipf_s, "moe: Zipf exponent")->capture_default_str();
  cmd.add_option("--k", o.permutations, "perm: number of random permutations")
      ->capture_default_str();
  cmd.add_option("--density", o.density, "sparse: probability of a non-zero")
      ->capture_default_str();
}

}  // namespace

void add_matrix_generate(CLI::App& matrix) {
  auto args = std::make_shared<GenerateArgs>();
  auto* cmd = matrix.add_subcommand("generate", "Generate a seeded demand matrix");
  cmd->add_option("KIND", args->kind, "one of " + kind_list())->required();
  add_generator_options(*cmd, *args);
  cmd->add_option("--bytes", args->bytes,
                  "scale so the busiest port sends this much (e.g. 64MiB); default: normalised")
      ->type_name("BYTES");
  cmd->add_option("--seed", args->seed, "random seed")->capture_default_str();
  cmd->add_option("-o,--output", args->output, "demand file (flux.demand/1)")->required();
  cmd->callback([cmd, args] { run_generate(*cmd, *args); });
}

}  // namespace flux::cli
