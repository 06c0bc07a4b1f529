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

#include "core/error.hpp"
#include "workload/astra_text.hpp"
#include "workload/collectives.hpp"
#include "workload/gzip.hpp"
#include "workload/task_sink.hpp"
#include "workload/validate.hpp"
#include "workload/workload_importers.hpp"

namespace flux {
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

  std::vector<Deps> communicate(int l, Pass pass) {
    const AstraLayer& a = at(l);
    const int k = static_cast<int>(pass);
    const std::string& type = a.type[k];
    std::vector<Deps> done(idx(f_.gpus));
    for (int r = 0; r < f_.gpus; ++r) done[idx(r)] = {em_.tail(r)};
    const std::string base = type.substr(0, type.find('_'));
    const std::string suffix = base.size() < type.size() ? type.substr(base.size() + 1) : "";
    if (base != "NONE" && base != "ALLREDUCE" && base != "ALLGATHER" && base != "REDUCESCATTER" &&
        base != "ALLTOALL" && base != "ALLREDUCEALLTOALL" && base != "BROADCAST")
      throw InputError(label_, fmt::format("line {}", a.line),
                       "ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL, ALLREDUCEALLTOALL, "
                       "BROADCAST or NONE, got " +
                           type);
    const Span span = base == "NONE" ? Span::none : span_of(l, pass, suffix);
    int stride = 1, size = f_.gpus;
    if (span == Span::tp) size = f_.tp;
    if (span == Span::dp) stride = f_.tp, size = f_.gpus / f_.tp;
    if (span == Span::ep) stride = f_.tp, size = f_.ep;
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

void check_supported(AstraFile& f, const AstraImportOptions& options, const std::string& label) {
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
}

}  // namespace

Workload parse_astra(const std::string& text, const std::string& label,
                     const AstraImportOptions& options, ImportReport* report) {
  AstraFile f = parse_astra_text(text, label);
  check_supported(f, options, label);
  ImportReport local;
  WorkloadSink sink;
  AstraBuilder(f, options, label, report ? *report : local, sink).run();
  Workload w = sink.take();
  validate_workload(w, label);
  return w;
}

Workload import_astra(const std::string& path, const AstraImportOptions& options,
                      ImportReport* report) {
  return parse_astra(read_data_file(path), path, options, report);
}

}  // namespace flux
