// ASTRA-sim 1.0 / SimAI text workload -> flux.workload/1 (workload_importers.hpp).
// Line 1: the parallelism policy (DATA, MODEL, HYBRID_*), optionally followed by SimAI's
// `key: value` pairs (model_parallel_NPU_group, ep, pp, all_gpus, ...); line 2: the layer count;
// then per layer 12 fields: name, reserved, fwd compute, fwd comm type, fwd bytes, input-gradient
// compute/type/bytes, weight-gradient compute/type/bytes, weight-update delay. Compute is in
// cycles (ns), sizes in bytes per rank. Comm types ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL
// or NONE, optionally suffixed with the group (_TP/_MP, _DP, _EP, _DP_EP). Without a suffix the
// policy decides: DATA -> data-parallel, MODEL -> all GPUs, HYBRID -> forward and input-gradient
// over the model-parallel group, weight-gradient over the data-parallel group.
// Ranks: model-parallel index fastest. The iteration is ASTRA-sim's: forward layer by layer with
// blocking communication, backward in reverse with blocking input-gradient and overlapped
// weight-gradient communication, each layer's weight update after its gradients arrive.
// Collectives are expanded into ring steps (all-to-all: direct) without reduction tasks (the file
// gives no memory bandwidth to time them). Pipeline parallelism (pp > 1) is not supported.
#include <fmt/format.h>

#include <sstream>

#include "core/error.hpp"
#include "core/file_input.hpp"
#include "workload/collectives.hpp"
#include "workload/task_sink.hpp"
#include "workload/validate.hpp"
#include "workload/workload_importers.hpp"

namespace flux {
namespace {

struct AstraLayer {
  std::string name;
  double compute[3] = {0, 0, 0};  // fwd, input gradient, weight gradient (cycles)
  std::string type[3];
  double bytes[3] = {0, 0, 0};
  double update = 0;
};

struct AstraFile {
  std::string policy;
  int tp = 1, pp = 1, ep = 1, gpus = 0;
  std::vector<AstraLayer> layers;
};

double number(const std::string& cell, const std::string& label, int line, const char* what) {
  std::size_t used = 0;
  double v = -1;
  try {
    v = std::stod(cell, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != cell.size() || !(v >= 0))
    throw InputError(label, fmt::format("line {}", line),
                     fmt::format("a non-negative number for {}, got '{}'", what, cell));
  return v;
}

AstraFile parse_file(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  std::string line;
  AstraFile f;
  if (!std::getline(in, line)) throw InputError(label, "line 1", "a parallelism policy");
  std::istringstream head(line);
  head >> f.policy;
  for (std::string key, value; head >> key >> value;) {
    const auto as_int = [&] { return static_cast<int>(number(value, label, 1, key.c_str())); };
    if (key == "model_parallel_NPU_group:")
      f.tp = as_int();
    else if (key == "pp:")
      f.pp = as_int();
    else if (key == "ep:")
      f.ep = as_int();
    else if (key == "all_gpus:")
      f.gpus = as_int();
  }
  if (!std::getline(in, line)) throw InputError(label, "line 2", "the number of layers");
  const int n = static_cast<int>(number(line, label, 2, "the layer count"));
  for (int l = 0; l < n; ++l) {
    if (!std::getline(in, line))
      throw InputError(label, fmt::format("line {}", l + 3), fmt::format("{} layer lines", n));
    std::istringstream row(line);
    std::vector<std::string> cells;
    for (std::string c; row >> c;) cells.push_back(c);
    if (cells.size() != 12)
      throw InputError(label, fmt::format("line {}", l + 3),
                       fmt::format("12 whitespace-separated fields, got {}", cells.size()));
    AstraLayer a;
    a.name = cells[0];
    for (int k = 0; k < 3; ++k) {
      a.compute[k] = number(cells[static_cast<std::size_t>(2 + 3 * k)], label, l + 3, "compute");
      a.type[k] = cells[static_cast<std::size_t>(3 + 3 * k)];
      a.bytes[k] = number(cells[static_cast<std::size_t>(4 + 3 * k)], label, l + 3, "bytes");
    }
    a.update = number(cells[11], label, l + 3, "the update delay");
    f.layers.push_back(a);
  }
  return f;
}

enum class Pass { fwd = 0, ig = 1, wg = 2 };

class AstraBuilder {
 public:
  AstraBuilder(const AstraFile& f, const AstraImportOptions& o, const std::string& label,
               TaskSink& sink)
      : f_(f), o_(o), label_(label), em_(sink, f.gpus), wait_(static_cast<std::size_t>(f.gpus)) {}

  void run() {
    const int n = static_cast<int>(f_.layers.size());
    for (int l = 0; l < n; ++l) layer(l, Pass::fwd);
    std::vector<std::vector<Deps>> wg_done(static_cast<std::size_t>(n));
    for (int l = n - 1; l >= 0; --l) {
      layer(l, Pass::ig);
      wg_done[static_cast<std::size_t>(l)] = layer(l, Pass::wg);
    }
    for (int l = n - 1; l >= 0; --l)
      for (int r = 0; r < f_.gpus; ++r)
        em_.compute(r, f_.layers[static_cast<std::size_t>(l)].update * o_.seconds_per_cycle,
                    f_.layers[static_cast<std::size_t>(l)].name + ".update",
                    {l, -1, "update", "", -1},
                    wg_done[static_cast<std::size_t>(l)][static_cast<std::size_t>(r)]);
    em_.finish();
  }

 private:
  // Compute then communication of one pass; blocking passes make the next compute wait, the
  // weight-gradient pass returns its completion instead.
  std::vector<Deps> layer(int l, Pass pass) {
    const AstraLayer& a = f_.layers[static_cast<std::size_t>(l)];
    const int k = static_cast<int>(pass);
    static constexpr const char* kNames[] = {"fwd", "ig", "wg"};
    const TaskTags tags{l, -1, pass == Pass::fwd ? "fwd" : "bwd", "", -1};
    for (int r = 0; r < f_.gpus; ++r) {
      em_.compute(r, a.compute[k] * o_.seconds_per_cycle, a.name + "." + kNames[k], tags,
                  wait_[static_cast<std::size_t>(r)]);
      wait_[static_cast<std::size_t>(r)].clear();
    }
    std::vector<Deps> done = communicate(a.type[k], a.bytes[k], pass, a.name + "." + kNames[k], l);
    if (pass == Pass::wg) return done;
    wait_ = std::move(done);
    return {};
  }

  std::vector<Deps> communicate(const std::string& type, double bytes, Pass pass,
                                const std::string& name, int l) {
    std::vector<Deps> done(static_cast<std::size_t>(f_.gpus));
    if (type == "NONE" || bytes == 0) return done;
    const std::size_t us = type.find('_');
    const std::string base = type.substr(0, us);
    const std::string group = us == std::string::npos ? default_group(pass) : type.substr(us + 1);
    int stride = 1, size = f_.gpus;
    if (group == "TP" || group == "MP")
      size = f_.tp;
    else if (group == "DP" || group == "DP_EP")
      stride = f_.tp, size = f_.gpus / f_.tp;
    else if (group == "EP")
      stride = f_.tp, size = f_.ep;
    else if (group != "ALL")
      throw InputError(label_, name,
                       "a comm group suffix _TP, _MP, _DP, _EP or _DP_EP, got " + group);
    CollectiveSpec spec;
    spec.bytes = bytes;
    spec.reduce_in_stream = false;  // the file has no memory bandwidth to time reductions with
    spec.name = name + "." + type;
    spec.tags = TaskTags{l, -1, pass == Pass::wg ? "dp" : (pass == Pass::fwd ? "fwd" : "bwd"),
                         group == "TP" || group == "MP" ? "tp" : (group == "EP" ? "ep" : "dp"), -1};
    for (int r = 0; r < f_.gpus; ++r) {
      if ((r / stride) % size != 0) continue;  // r leads its group
      spec.ranks.clear();
      std::vector<Deps> ready;
      for (int k = 0; k < size; ++k) {
        const int m = r + k * stride;
        spec.ranks.push_back(m);
        ready.push_back(wait_[static_cast<std::size_t>(m)]);
        if (em_.tail(m) >= 0) ready.back().push_back(em_.tail(m));
      }
      std::vector<Deps> out;
      if (base == "ALLREDUCE")
        out = all_reduce(em_, spec, ready);
      else if (base == "ALLGATHER")
        out = all_gather(em_, spec, ready);
      else if (base == "REDUCESCATTER")
        out = reduce_scatter(em_, spec, ready);
      else if (base == "ALLTOALL") {
        const double each = bytes / size;
        out = all_to_all(em_, spec,
                         std::vector<std::vector<double>>(
                             static_cast<std::size_t>(size),
                             std::vector<double>(static_cast<std::size_t>(size), each)),
                         ready);
      } else {
        throw InputError(label_, name,
                         "ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL or NONE, got " + type);
      }
      for (int k = 0; k < size; ++k)
        done[static_cast<std::size_t>(r + k * stride)] =
            std::move(out[static_cast<std::size_t>(k)]);
    }
    return done;
  }

  std::string default_group(Pass pass) const {
    if (f_.policy == "DATA") return "DP";
    if (f_.policy == "MODEL") return "ALL";
    return pass == Pass::wg ? "DP" : "TP";
  }

  const AstraFile& f_;
  const AstraImportOptions& o_;
  const std::string& label_;
  TaskEmitter em_;
  std::vector<Deps> wait_;
};

}  // namespace

Workload parse_astra(const std::string& text, const std::string& label,
                     const AstraImportOptions& options) {
  AstraFile f = parse_file(text, label);
  if (options.gpus > 0) f.gpus = options.gpus;
  if (f.gpus < 1) throw InputError(label, "all_gpus", "a GPU count in the header or --gpus");
  if (f.pp != 1)
    throw InputError(label, "pp", "1 (pipeline-parallel ASTRA workloads are not supported)");
  if (f.tp < 1 || f.gpus % f.tp != 0)
    throw InputError(label, "model_parallel_NPU_group",
                     fmt::format("a divisor of {} GPUs", f.gpus));
  if (f.ep < 1 || (f.gpus / f.tp) % f.ep != 0)
    throw InputError(label, "ep", "a divisor of the data-parallel size");
  WorkloadSink sink;
  AstraBuilder(f, options, label, sink).run();
  Workload w = sink.take();
  validate_workload(w, label);
  return w;
}

Workload import_astra(const std::string& path, const AstraImportOptions& options) {
  return parse_astra(read_file(path), path, options);
}

}  // namespace flux
