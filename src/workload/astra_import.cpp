// ASTRA-sim 1.0 / SimAI text workload (astra_text.hpp) -> flux.workload/1
// (workload_importers.hpp). Compute is in cycles (AstraImportOptions::seconds_per_cycle), sizes in
// bytes per rank. Ranks: model-parallel index fastest (ASTRA-sim's first network dimension).
// Which ranks a collective spans:
//  * a keyword suffix: _TP/_MP the model-parallel group, _DP (and _DP_EP) the data-parallel
//    group, _EP the expert group inside it;
//  * otherwise the policy's dimensions, as ASTRA-sim 1.0 assigns them: DATA, MICRO and DLRM
//    (after its first layer) communicate only the weight gradient, over all ranks; DLRM's first
//    layer everything over all ranks; MODEL forward and input gradient over all ranks;
//    HYBRID_TRANSFORMER and HYBRID_DATA_MODEL forward and input gradient over the model group,
//    weight gradient over the data group; HYBRID_MODEL_DATA the reverse; HYBRID_CUSTOMIZED
//    per layer. A pass the policy gives no dimension is not communicated (reported).
// Keywords: ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL, ALLREDUCEALLTOALL (an all-reduce),
// BROADCAST (SimAI), NONE; any other is an error (ASTRA-sim 1.0 silently ignores it).
// The iteration is ASTRA-sim's: forward layer by layer with blocking communication (DLRM: the
// first layer's all-to-all runs beside the bottom layers and the first top layer waits for it),
// backward in reverse with blocking input-gradient and overlapped weight-gradient communication,
// each layer's weight update after its gradients arrive. Collectives are expanded into ring steps
// (all-to-all: direct, broadcast: a chain) without reduction tasks (the file gives no memory
// bandwidth to time them). Not supported: pipeline parallelism (pp > 1), activation
// checkpointing (checkpoints > 0), DISTRIBUTED_INFERENCE.
#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/limits.hpp"
#include "workload/astra_text.hpp"
#include "workload/collectives.hpp"
#include "workload/gzip.hpp"
#include "workload/size_limit.hpp"
#include "workload/task_sink.hpp"
#include "workload/validate.hpp"
#include "workload/workload_importers.hpp"

namespace flux::workload {
namespace {

enum class Pass { fwd = 0, ig = 1, wg = 2 };
enum class Span { none, all, tp, dp, ep };
constexpr const char* kPassNames[] = {"fwd", "ig", "wg"};

// The dimensions ASTRA-sim 1.0 gives each pass under `policy`.
Span policy_span(const std::string& policy, Pass pass, bool first_layer) {
  const bool wg = pass == Pass::wg;
  if (policy.rfind("HYBRID_DLRM", 0) == 0 && first_layer) return Span::all;
  if (policy == "DATA" || policy == "MICRO" || policy.rfind("HYBRID_DLRM", 0) == 0)
    return wg ? Span::all : Span::none;
  if (policy == "MODEL") return wg ? Span::none : Span::all;
  if (policy == "HYBRID_MODEL_DATA") return wg ? Span::tp : Span::dp;
  return wg ? Span::dp : Span::tp;  // HYBRID_TRANSFORMER*, HYBRID_DATA_MODEL
}

bool needs_model_group(const std::string& policy) {
  return policy.rfind("HYBRID_TRANSFORMER", 0) == 0 || policy == "HYBRID_DATA_MODEL" ||
         policy == "HYBRID_MODEL_DATA";
}

class AstraBuilder {
 public:
  AstraBuilder(const AstraFile& f, const AstraImportOptions& o, const std::string& label,
               ImportReport& report, TaskSink& sink)
      : f_(f),
        o_(o),
        label_(label),
        report_(report),
        em_(sink, f.gpus),
        wait_(static_cast<std::size_t>(f.gpus)) {}

  // Tasks run() would emit, counted without emitting them: three passes and an update per layer
  // and rank, and per collective at most 2 (size - 1) sends per rank (a ring all-reduce; the other
  // expansions send fewer). O(layers).
  double estimate_tasks() const {
    double tasks = 4.0 * static_cast<double>(f_.layers.size()) * f_.gpus;
    for (int l = 0; l < static_cast<int>(f_.layers.size()); ++l)
      for (Pass pass : {Pass::fwd, Pass::ig, Pass::wg}) {
        const Group g = group_of(l, pass);
        if (g.span != Span::none && at(l).bytes[static_cast<int>(pass)] > 0)
          tasks += 2.0 * f_.gpus * (g.size - 1);
      }
    return tasks;
  }

  void run() {
    const int n = static_cast<int>(f_.layers.size());
    std::vector<Deps> embedding;  // DLRM: the first layer's forward all-to-all
    for (int l = 0; l < n; ++l) {
      if (l == f_.dlrm_last_bottom + 1 && !embedding.empty())
        for (int r = 0; r < f_.gpus; ++r) append(wait_[idx(r)], embedding[idx(r)]);
      std::vector<Deps> done = layer(l, Pass::fwd);
      if (l == 0 && f_.dlrm_last_bottom >= 0)
        embedding = std::move(done);
      else
        wait_ = std::move(done);
    }
    std::vector<std::vector<Deps>> wg_done(static_cast<std::size_t>(n));
    for (int l = n - 1; l >= 0; --l) {
      wait_ = layer(l, Pass::ig);
      wg_done[idx(l)] = layer(l, Pass::wg);
    }
    for (int l = n - 1; l >= 0; --l)
      for (int r = 0; r < f_.gpus; ++r)
        em_.compute(r, at(l).update * o_.seconds_per_cycle, at(l).name + ".update",
                    {l, -1, "update", "", -1}, wg_done[idx(l)][idx(r)]);
    for (std::string& d : described_) report_.layers.push_back(std::move(d));
    em_.finish();
  }

 private:
  static std::size_t idx(int i) { return static_cast<std::size_t>(i); }
  static void append(Deps& to, const Deps& from) { to.insert(to.end(), from.begin(), from.end()); }
  const AstraLayer& at(int l) const { return f_.layers[idx(l)]; }

  // Compute then communication of one pass; returns what the pass's successors wait for.
  std::vector<Deps> layer(int l, Pass pass) {
    const AstraLayer& a = at(l);
    const int k = static_cast<int>(pass);
    const TaskTags tags{l, -1, pass == Pass::fwd ? "fwd" : "bwd", "", -1};
    for (int r = 0; r < f_.gpus; ++r) {
      em_.compute(r, a.compute[k] * o_.seconds_per_cycle, a.name + "." + kPassNames[k], tags,
                  wait_[idx(r)]);
      wait_[idx(r)].clear();
    }
    return communicate(l, pass);
  }

  Span span_of(int l, Pass pass, const std::string& suffix) const {
    if (suffix == "TP" || suffix == "MP") return Span::tp;
    if (suffix == "DP" || suffix == "DP_EP") return Span::dp;
    if (suffix == "EP") return Span::ep;
    if (!suffix.empty())
      throw InputError(label_, fmt::format("line {}", at(l).line),
                       "a comm group suffix _TP, _MP, _DP, _EP or _DP_EP, got _" + suffix);
    const std::string& policy = at(l).policy.empty() ? f_.policy : at(l).policy;
    return policy_span(policy, pass, l == 0);
  }

  // The ranks one collective spans: groups of `size` ranks `stride` apart.
  struct Group {
    std::string base;  // the keyword without its group suffix
    Span span = Span::none;
    int stride = 1, size = 1;
  };
  Group group_of(int l, Pass pass) const {
    const AstraLayer& a = at(l);
    const std::string& type = a.type[static_cast<int>(pass)];
    Group g;
    g.base = type.substr(0, type.find('_'));
    const std::string suffix = g.base.size() < type.size() ? type.substr(g.base.size() + 1) : "";
    const std::string& base = g.base;
    if (base != "NONE" && base != "ALLREDUCE" && base != "ALLGATHER" && base != "REDUCESCATTER" &&
        base != "ALLTOALL" && base != "ALLREDUCEALLTOALL" && base != "BROADCAST")
      throw InputError(label_, fmt::format("line {}", a.line),
                       "ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL, ALLREDUCEALLTOALL, "
                       "BROADCAST or NONE, got " +
                           type);
    g.span = base == "NONE" ? Span::none : span_of(l, pass, suffix);
    g.size = f_.gpus;
    if (g.span == Span::tp) g.size = f_.tp;
    if (g.span == Span::dp) g.stride = f_.tp, g.size = f_.gpus / f_.tp;
    if (g.span == Span::ep) g.stride = f_.tp, g.size = f_.ep;
    return g;
  }

  std::vector<Deps> communicate(int l, Pass pass) {
    const AstraLayer& a = at(l);
    const int k = static_cast<int>(pass);
    const std::string& type = a.type[k];
    std::vector<Deps> done(idx(f_.gpus));
    for (int r = 0; r < f_.gpus; ++r) done[idx(r)] = {em_.tail(r)};
    const Group g = group_of(l, pass);
    const std::string& base = g.base;
    const Span span = g.span;
    const int stride = g.stride, size = g.size;
    std::string what = fmt::format("{} {} cycles", kPassNames[k], a.compute[k]);
    if (base == "NONE" || a.bytes[k] == 0) {
      describe(l, what);
      return done;
    }
    if (span == Span::none) {
      report_.add("collectives on a pass the policy gives no network dimension, not sent");
      describe(l, what + fmt::format(", {} {} B not sent (the policy gives {} no dimension)", type,
                                     a.bytes[k], kPassNames[k]));
      return done;
    }
    describe(l, what + fmt::format(", {} {} B -> {} over {} group(s) of {}", type, a.bytes[k],
                                   expansion(base), f_.gpus / size, size));
    CollectiveSpec spec;
    spec.bytes = a.bytes[k];
    spec.reduce_in_stream = false;  // the file has no memory bandwidth to time reductions with
    spec.name = a.name + "." + kPassNames[k] + "." + type;
    spec.tags = TaskTags{l, -1, pass == Pass::wg ? "dp" : (pass == Pass::fwd ? "fwd" : "bwd"),
                         span == Span::tp ? "tp" : (span == Span::ep ? "ep" : "dp"), -1};
    for (int r = 0; r < f_.gpus; ++r) {
      if ((r / stride) % size != 0) continue;  // r leads its group
      spec.ranks.clear();
      std::vector<Deps> ready;
      for (int m = 0; m < size; ++m) {
        spec.ranks.push_back(r + m * stride);
        ready.push_back(done[idx(r + m * stride)]);
      }
      std::vector<Deps> out = expand(base, spec, ready);
      for (int m = 0; m < size; ++m) done[idx(r + m * stride)] = std::move(out[idx(m)]);
    }
    return done;
  }

  static const char* expansion(const std::string& base) {
    if (base == "ALLTOALL") return "direct all-to-all";
    if (base == "BROADCAST") return "chain broadcast";
    if (base == "ALLGATHER") return "ring all-gather";
    if (base == "REDUCESCATTER") return "ring reduce-scatter";
    return "ring all-reduce";
  }

  std::vector<Deps> expand(const std::string& base, const CollectiveSpec& spec,
                           const std::vector<Deps>& ready) {
    if (base == "ALLGATHER") return all_gather(em_, spec, ready);
    if (base == "REDUCESCATTER") return reduce_scatter(em_, spec, ready);
    if (base == "BROADCAST") return broadcast(em_, spec, ready);
    if (base == "ALLTOALL") {
      const std::size_t p = spec.ranks.size();
      const double each = spec.bytes / static_cast<double>(p);
      return all_to_all(em_, spec,
                        std::vector<std::vector<double>>(p, std::vector<double>(p, each)), ready);
    }
    return all_reduce(em_, spec, ready);  // ALLREDUCE, ALLREDUCEALLTOALL
  }

  void describe(int l, const std::string& pass) {
    if (described_.size() <= idx(l)) described_.resize(idx(l) + 1);
    std::string& d = described_[idx(l)];
    if (d.empty())
      d = fmt::format("layer {} {} (line {}): ", l, at(l).name, at(l).line);
    else
      d += "; ";
    d += pass;
    if (pass.rfind("wg", 0) == 0) d += fmt::format("; update {} cycles", at(l).update);
  }

  const AstraFile& f_;
  const AstraImportOptions& o_;
  const std::string& label_;
  ImportReport& report_;
  TaskEmitter em_;
  std::vector<Deps> wait_;
  std::vector<std::string> described_;
};

// Times and sizes the simulator can represent (core/limits.hpp), checked per line.
void check_layer_limits(const AstraFile& f, const AstraImportOptions& options,
                        const std::string& label) {
  const double max_cycles = kMaxSeconds / options.seconds_per_cycle;
  for (const AstraLayer& a : f.layers) {
    const std::string where = fmt::format("line {}", a.line);
    for (double c : {a.compute[0], a.compute[1], a.compute[2], a.update})
      if (c > max_cycles)
        throw InputError(label, where,
                         fmt::format("compute times <= {:.3g} cycles ({:g} s at {:g} s per cycle, "
                                     "the simulator's clock range), got {:.6g}",
                                     max_cycles, kMaxSeconds, options.seconds_per_cycle, c));
    for (double b : a.bytes)
      if (b > kMaxBytes)
        throw InputError(
            label, where,
            fmt::format("collective sizes <= 2^53 = {:.0f} bytes, got {:.6g}", kMaxBytes, b));
  }
}

void check_supported(AstraFile& f, const AstraImportOptions& options, const std::string& label) {
  if (options.gpus < 0)
    throw InputError("", "--gpus", fmt::format("a positive GPU count, got {}", options.gpus));
  if (!(options.seconds_per_cycle > 0 && options.seconds_per_cycle <= 1))
    throw InputError("", "--cycle",
                     fmt::format("seconds per cycle in (0, 1], got {}", options.seconds_per_cycle));
  if (options.gpus > 0) f.gpus = options.gpus;
  if (f.gpus < 1) throw InputError(label, "all_gpus", "a GPU count in the header or --gpus");
  if (f.policy == "DISTRIBUTED_INFERENCE")
    throw InputError(label, "line 1", "a training policy (DISTRIBUTED_INFERENCE is not supported)");
  if (f.pp != 1)
    throw InputError(label, "pp", "1 (pipeline-parallel ASTRA workloads are not supported)");
  if (f.checkpoints > 0)
    throw InputError(label, "checkpoints",
                     "0 (recomputing checkpointed layers in the backward pass is not supported)");
  if (options.model_group > 0) f.tp = options.model_group;
  bool need = needs_model_group(f.policy);
  for (const AstraLayer& a : f.layers) need = need || needs_model_group(a.policy);
  if (need && f.tp < 1)
    throw InputError(label, "model_parallel_NPU_group",
                     "the model-parallel group size in the header or --model-group");
  if (f.tp < 1) f.tp = 1;
  if (f.gpus % f.tp != 0)
    throw InputError(label, "model_parallel_NPU_group",
                     fmt::format("a divisor of {} GPUs, got {}", f.gpus, f.tp));
  if (f.ep < 1 || (f.gpus / f.tp) % f.ep != 0)
    throw InputError(label, "ep", "a divisor of the data-parallel size");
  check_layer_limits(f, options, label);
}

}  // namespace

Workload parse_astra(const std::string& text, const std::string& label,
                     const AstraImportOptions& options, ImportReport* report) {
  AstraFile f = parse_astra_text(text, label);
  check_supported(f, options, label);
  ImportReport local;
  WorkloadSink sink;
  const auto check_size = [&](double tasks) {
    check_generated_size(tasks, label, options.gpus > 0 ? "--gpus" : "all_gpus",
                         fmt::format("{} layers on {} GPUs are too many (fewer GPUs with --gpus, "
                                     "or fewer layers)",
                                     f.layers.size(), f.gpus));
  };
  // The builder holds per-rank state: bound the ranks first, then the whole estimate.
  check_size(4.0 * static_cast<double>(std::max<std::size_t>(f.layers.size(), 1)) * f.gpus);
  AstraBuilder builder(f, options, label, report ? *report : local, sink);
  const double estimate = builder.estimate_tasks();
  check_size(estimate);
  // Filled without growing: each doubling copied the tasks into fresh pages (simulating the
  // 449 k-task ResNet-50 workload straight from its text took 45 % fewer page faults without).
  // At most 2^24 tasks (1.6 GB of address space): the estimate is a bound, and far above the
  // count where the collectives are not ring all-reduces.
  sink.reserve(static_cast<std::size_t>(std::min(estimate, 16777216.0)));
  builder.run();
  Workload w = sink.take();
  validate_workload(w, label);
  return w;
}

Workload import_astra(const std::string& path, const AstraImportOptions& options,
                      ImportReport* report) {
  return parse_astra(read_data_file(path), path, options, report);
}

}  // namespace flux::workload
