#include "workload/astra_text.hpp"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "core/json_reader.hpp"

namespace flux::workload {
namespace {

const char* const kPolicies[] = {"DATA",
                                 "MODEL",
                                 "MICRO",
                                 "HYBRID_TRANSFORMER",
                                 "HYBRID_TRANSFORMER_FWD_IN_BCKWD",
                                 "HYBRID_DLRM",
                                 "HYBRID_DLRM_ENHANCED",
                                 "HYBRID_DATA_MODEL",
                                 "HYBRID_MODEL_DATA",
                                 "HYBRID_CUSTOMIZED",
                                 "DISTRIBUTED_INFERENCE"};

bool known_policy(const std::string& p) {
  for (const char* k : kPolicies)
    if (p == k) return true;
  return false;
}

std::vector<std::string> tokens(const std::string& line) {
  std::istringstream in(line);  // >> splits on spaces, tabs and '\r'
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

double number(const std::string& cell, const std::string& label, int line, const char* what) {
  std::size_t used = 0;
  double v = -1;
  try {
    v = std::stod(cell, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != cell.size() || !(v >= 0) || !std::isfinite(v))
    throw InputError(label, fmt::format("line {}", line),
                     fmt::format("a finite, non-negative number for {}, got '{}'", what, cell));
  return v == 0 ? 0.0 : v;  // "-0" is 0: a -0.0 would not survive the workload file's round trip
}

int count(const std::string& cell, const std::string& label, int line, const char* what) {
  constexpr double kMaxCount = 1 << 30;
  const double v = number(cell, label, line, what);
  if (v > kMaxCount || v != std::floor(v))  // before the cast, which overflow makes undefined
    throw InputError(label, fmt::format("line {}", line),
                     fmt::format("an integer in [0, 2^30] for {}, got '{}'", what, cell));
  return static_cast<int>(v);
}

void parse_header(const std::vector<std::string>& t, const std::string& label, AstraFile& f) {
  if (t.empty()) throw InputError(label, "line 1", "a parallelism policy");
  f.policy = t[0];
  if (!known_policy(f.policy))
    throw InputError(label, "line 1",
                     "an ASTRA-sim parallelism policy (DATA, MODEL, MICRO, "
                     "HYBRID_TRANSFORMER[_FWD_IN_BCKWD], HYBRID_DLRM[_ENHANCED], "
                     "HYBRID_DATA_MODEL, HYBRID_MODEL_DATA, HYBRID_CUSTOMIZED), "
                     "got '" +
                         f.policy + "'");
  std::size_t i = 1;
  if (f.policy.rfind("HYBRID_DLRM", 0) == 0) {
    if (t.size() < 2)
      throw InputError(label, "line 1", "the DLRM last bottom layer after " + f.policy);
    f.dlrm_last_bottom = count(t[1], label, 1, "the last bottom layer");
    i = 2;
  }
  while (i < t.size()) {
    const std::string& key = t[i];
    if (key.empty() || key.back() != ':')
      throw InputError(label, "line 1",
                       "`key: value` parameters after the policy, got '" + key + "'");
    if (i + 1 >= t.size()) throw InputError(label, "line 1", "a value after " + key);
    const int v = count(t[i + 1], label, 1, key.c_str());
    i += 2;
    if (key == "model_parallel_NPU_group:")
      f.tp = v;
    else if (key == "pp:")
      f.pp = v;
    else if (key == "ep:")
      f.ep = v;
    else if (key == "all_gpus:")
      f.gpus = v;
    else if (key == "checkpoints:" || key == "checkpoint_initiates:") {
      if (key == "checkpoints:") f.checkpoints = v;
      i += static_cast<std::size_t>(v);  // the layer indices
    }
  }
}

AstraLayer parse_layer(const std::vector<std::string>& c, const AstraFile& f,
                       const std::string& label, int line) {
  const std::size_t want = f.policy == "HYBRID_CUSTOMIZED" ? 13 : 12;
  if (c.size() != want)
    throw InputError(label, fmt::format("line {}", line),
                     fmt::format("{} whitespace-separated fields{}, got {}", want,
                                 want == 13 ? " (the 13th: the layer's policy)" : "", c.size()));
  AstraLayer a;
  a.line = line;
  a.name = c[0];
  if (!is_utf8(a.name))
    throw InputError(label, fmt::format("line {}", line), "a layer name in UTF-8");
  for (std::size_t k = 0; k < 3; ++k) {
    a.compute[k] = number(c[2 + 3 * k], label, line, "compute");
    a.type[k] = c[3 + 3 * k];
    a.bytes[k] = number(c[4 + 3 * k], label, line, "bytes");
  }
  a.update = number(c[11], label, line, "the update delay");
  if (want == 13) {
    a.policy = c[12];
    if (!known_policy(a.policy) || a.policy == "HYBRID_CUSTOMIZED")
      throw InputError(label, fmt::format("line {}", line),
                       "a layer policy (DATA, MODEL, HYBRID_DATA_MODEL, ...), got " + a.policy);
  }
  return a;
}

}  // namespace

AstraFile parse_astra_text(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  std::string line;
  AstraFile f;
  int number_of_line = 0;
  auto next = [&](std::vector<std::string>& t) {
    while (std::getline(in, line)) {
      ++number_of_line;
      t = tokens(line);
      if (!t.empty()) return true;  // ASTRA-sim reads tokens: blank lines carry nothing
    }
    return false;
  };
  std::vector<std::string> t;
  if (!next(t)) throw InputError(label, "line 1", "a parallelism policy");
  parse_header(t, label, f);
  if (!next(t) || t.size() != 1)
    throw InputError(label, fmt::format("line {}", number_of_line), "the number of layers alone");
  const int n = count(t[0], label, number_of_line, "the layer count");
  for (int l = 0; l < n; ++l) {
    if (!next(t))
      throw InputError(label, fmt::format("line {}", number_of_line + 1),
                       fmt::format("{} layer lines, found {}", n, l));
    f.layers.push_back(parse_layer(t, f, label, number_of_line));
  }
  return f;
}

}  // namespace flux::workload
