// fluxocs: the module definition and the matrix side (Spectra and the baselines of the registry,
// lower bounds, the verifier, the generators). Numbers go through the same library calls as
// `flux matrix schedule | bound | verify | generate`, so results match the CLI exactly.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include "common.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "matrix/generators.hpp"
#include "matrix/verify.hpp"
#include "matrix_schedulers/checked_run.hpp"

namespace fluxocs {
namespace {

using flux::InputError;
using DemandArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

constexpr int kMaxSwitches = 1 << 20;  // what the schedule reader accepts, as in the CLI

// The demand as the library's Matrix, borrowing the array's memory: pybind11 hands over a
// C-contiguous float64 array as is (anything else arrives converted, once), and the library reads
// it in place. The caller keeps `a` alive as long as the matrix is used.
flux::Matrix to_matrix(const DemandArray& a) {
  if (a.ndim() != 2 || a.shape(0) != a.shape(1) || a.shape(0) < 1 ||
      a.shape(0) > flux::matrix::kMaxPorts)
    throw InputError(
        "", "demand",
        fmt::format("expected a square 2-D array with 1 to {} rows", flux::matrix::kMaxPorts));
  const int n = static_cast<int>(a.shape(0));
  const double* entries = a.data();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (const double v = entries[static_cast<std::size_t>(i) * n + j];
          !(v >= 0 && v <= flux::matrix::kMaxDemandEntry))
        throw InputError("", fmt::format("demand[{}, {}]", i, j),
                         fmt::format("expected a number in [0, {:g}], got {}",
                                     flux::matrix::kMaxDemandEntry, v));
  return flux::Matrix::borrow(entries, n);
}

// The entries of `m` without taking a copy (a non-const access would).
const double* a_data(const flux::Matrix& m) {
  return m.data().data();
}

// A time: seconds as a number, or a string with a unit ("10us") like the CLI's --tau.
double time_arg(py::handle v, const char* name) {
  const double t =
      py::isinstance<py::str>(v) ? flux::parse_time(v.cast<std::string>(), name) : v.cast<double>();
  if (!std::isfinite(t) || t < 0)
    throw InputError("", name, fmt::format("expected a time >= 0, got {}", t));
  return t;
}

// The problem as `flux matrix schedule` loads it: normalised demand without a rate, bytes with
// one (bytes per second, or "800Gbps"); time = demand / rate.
flux::matrix_schedulers::LoadedProblem load_problem(const DemandArray& demand, int switches,
                                                    py::handle delta, py::handle rate) {
  if (switches < 1 || switches > kMaxSwitches)
    throw InputError("", "switches",
                     fmt::format("expected an integer in [1, {}], got {}", kMaxSwitches, switches));
  flux::matrix_schedulers::LoadedProblem lp;
  lp.demand.matrix = to_matrix(demand);
  lp.problem.switches = switches;
  lp.problem.delta = time_arg(delta, "delta");
  if (rate.is_none()) {  // the schedulers read the array itself
    lp.demand.unit = flux::matrix::DemandUnit::normalized;
    lp.problem.time = flux::Matrix::borrow(a_data(lp.demand.matrix), lp.demand.matrix.n());
    return lp;
  }
  lp.demand.unit = flux::matrix::DemandUnit::bytes;
  lp.rate = py::isinstance<py::str>(rate) ? flux::parse_rate(rate.cast<std::string>(), "rate")
                                          : rate.cast<double>();
  if (!(lp.rate > 0 && std::isfinite(lp.rate))) throw InputError("", "rate", "expected a rate > 0");
  lp.problem.time = lp.demand.matrix.scaled(1.0 / lp.rate);
  return lp;
}

// One verified run and the caller's demand array (kept, not copied).
struct Schedule {
  flux::matrix_schedulers::CheckedRun run;
  py::object demand;
  std::uintptr_t read_from = 0;  // where the scheduler read the demand (for the no-copy test)
  const flux::matrix::MatrixSchedule& s() const { return run.result.schedule; }
};

// Slots of one switch as arrays: start, end (k) and perm (k x n, -1 = input idle).
py::dict switch_slots(const flux::matrix::MatrixSchedule& s, int sw) {
  std::vector<const flux::matrix::Slot*> mine;
  for (const flux::matrix::Slot& slot : s.slots)
    if (slot.sw == sw) mine.push_back(&slot);
  const auto k = static_cast<py::ssize_t>(mine.size());
  py::array_t<double> start(k), end(k);
  py::array_t<int> perm({k, static_cast<py::ssize_t>(s.n)});
  for (py::ssize_t i = 0; i < k; ++i) {
    start.mutable_at(i) = mine[i]->start;
    end.mutable_at(i) = mine[i]->end;
    std::copy(mine[i]->perm.begin(), mine[i]->perm.end(), perm.mutable_data(i, 0));
  }
  py::dict d;
  d["start"] = start;
  d["end"] = end;
  d["perm"] = perm;
  return d;
}

py::dict circuit_columns(const flux::matrix::MatrixSchedule& s) {
  const auto k = static_cast<py::ssize_t>(s.circuits.size());
  py::array_t<int> sw(k), src(k), dst(k);
  py::array_t<double> start(k), end(k);
  for (py::ssize_t i = 0; i < k; ++i) {
    const flux::matrix::PortCircuit& c = s.circuits[static_cast<std::size_t>(i)];
    sw.mutable_at(i) = c.sw;
    src.mutable_at(i) = c.src;
    dst.mutable_at(i) = c.dst;
    start.mutable_at(i) = c.start;
    end.mutable_at(i) = c.end;
  }
  py::dict d;
  d["switch"] = sw;
  d["src"] = src;
  d["dst"] = dst;
  d["start"] = start;
  d["end"] = end;
  return d;
}

py::dict report_dict(const flux::matrix::VerifyReport& r) {
  py::dict d;
  d["valid"] = r.valid();
  d["violations"] = r.total();
  py::list messages;
  for (const flux::matrix::Violation& v : r.violations())
    messages.append(fmt::format("{}: {}", flux::matrix::to_string(v.kind), v.message));
  d["messages"] = messages;
  return d;
}

Schedule spectra(const DemandArray& demand, int switches, py::handle delta,
                 const std::string& algorithm, py::handle rate, std::uint64_t seed) {
  const flux::matrix_schedulers::MatrixAlgorithm& algo =
      flux::matrix_schedulers::algorithm_or_throw(algorithm);
  auto lp = std::make_shared<const flux::matrix_schedulers::LoadedProblem>(
      load_problem(demand, switches, delta, rate));
  Schedule out;
  out.run = run_interruptible(
      [lp, &algo, seed] { return flux::matrix_schedulers::run_checked(algo, *lp, {.seed = seed}); },
      demand);
  out.demand = demand;
  out.read_from = reinterpret_cast<std::uintptr_t>(lp->problem.time.row(0));
  return out;
}

py::dict bounds(const DemandArray& demand, int switches, py::handle delta, py::handle rate) {
  auto lp = std::make_shared<const flux::matrix_schedulers::LoadedProblem>(
      load_problem(demand, switches, delta, rate));
  const flux::matrix::MatrixBounds b = run_interruptible(
      [lp] {
        return flux::matrix::matrix_lower_bounds(lp->problem.time, lp->problem.switches,
                                                 lp->problem.delta);
      },
      demand);
  py::dict d;
  d["lb1"] = b.lb1;
  d["lb2"] = b.lb2;
  d["lb3"] = b.lb3;
  d["lb4"] = b.lb4;
  d["bound"] = b.bound;
  d["all_stop"] = b.all_stop;
  return d;
}

// The schedule as a Schedule object, or flux.matrix-schedule/1 text or file.
flux::matrix::MatrixSchedule schedule_arg(py::handle s) {
  if (py::isinstance<Schedule>(s)) return s.cast<const Schedule&>().s();
  const std::string text = s.cast<std::string>();
  if (!text.empty() && text.front() == '{')
    return flux::matrix::parse_matrix_schedule(text, "schedule");
  return flux::matrix::read_matrix_schedule(text);
}

py::dict verify(const DemandArray& demand, py::handle schedule) {
  auto m = std::make_shared<const flux::Matrix>(to_matrix(demand));
  auto s = std::make_shared<const flux::matrix::MatrixSchedule>(schedule_arg(schedule));
  return report_dict(
      run_interruptible([m, s] { return flux::matrix::verify_matrix_schedule(*m, *s); }, demand));
}

// Keyword arguments of generate() onto GeneratorOptions; names as in `flux matrix generate`
// without the dashes (top_k for --topk, permutations for --k).
using GeneratorSetter = void (*)(flux::matrix::GeneratorOptions&, py::handle);
const std::map<std::string, GeneratorSetter>& generator_options() {
  using O = flux::matrix::GeneratorOptions;
  static const std::map<std::string, GeneratorSetter> table = {
      {"large", [](O& o, py::handle v) { o.large_flows = v.cast<int>(); }},
      {"small", [](O& o, py::handle v) { o.small_flows = v.cast<int>(); }},
      {"large_share", [](O& o, py::handle v) { o.large_share = v.cast<double>(); }},
      {"noise", [](O& o, py::handle v) { o.noise = v.cast<double>(); }},
      {"tokens", [](O& o, py::handle v) { o.tokens = v.cast<int>(); }},
      {"top_k", [](O& o, py::handle v) { o.top_k = v.cast<int>(); }},
      {"experts", [](O& o, py::handle v) { o.experts = v.cast<int>(); }},
      {"popularity",
       [](O& o, py::handle v) {
         const std::string p = v.cast<std::string>();
         if (p != "dirichlet" && p != "zipf")
           throw InputError("", "popularity",
                            fmt::format("expected dirichlet or zipf, got '{}'", p));
         o.popularity =
             p == "zipf" ? flux::matrix::Popularity::zipf : flux::matrix::Popularity::dirichlet;
       }},
      {"alpha", [](O& o, py::handle v) { o.alpha = v.cast<double>(); }},
      {"zipf_s", [](O& o, py::handle v) { o.zipf_s = v.cast<double>(); }},
      {"permutations", [](O& o, py::handle v) { o.permutations = v.cast<int>(); }},
      {"density", [](O& o, py::handle v) { o.density = v.cast<double>(); }},
  };
  return table;
}

py::array_t<double> generate(const std::string& kind, int n, std::uint64_t seed,
                             const py::kwargs& params) {
  flux::matrix::GeneratorOptions opt;
  opt.n = n;
  for (const auto& [key, value] : params) {
    const std::string name = py::str(key);
    const auto it = generator_options().find(name);
    if (it == generator_options().end()) throw InputError("", name, "not a generator option");
    try {
      it->second(opt, value);
    } catch (const py::cast_error&) {
      throw InputError("", name, "expected a number");
    }
  }
  const flux::Matrix m = run_interruptible(
      [kind, opt, seed] { return flux::matrix::generate_matrix(kind, opt, seed); });
  py::array_t<double> out({m.n(), m.n()});
  std::copy(m.data().begin(), m.data().end(), out.mutable_data());
  return out;
}

void bind_schedule_class(py::module_& m) {
  py::class_<Schedule>(m, "Schedule",
                       "A verified matrix schedule (flux.matrix-schedule/1) and its demand.")
      .def_property_readonly("algorithm", [](const Schedule& s) { return s.s().algorithm; })
      .def_property_readonly("n", [](const Schedule& s) { return s.s().n; })
      .def_property_readonly("switches", [](const Schedule& s) { return s.s().switches; })
      .def_property_readonly("delta", [](const Schedule& s) { return s.s().delta; })
      .def_property_readonly("rate", [](const Schedule& s) { return s.s().rate; })
      .def_property_readonly("reconfiguration",
                             [](const Schedule& s) {
                               return std::string(flux::matrix::to_string(s.s().reconfiguration));
                             })
      .def_property_readonly("makespan", [](const Schedule& s) { return s.s().makespan; })
      .def_property_readonly("lower_bound", [](const Schedule& s) { return s.s().lower_bound; })
      .def_property_readonly("lb1", [](const Schedule& s) { return s.run.bounds.lb1; })
      .def_property_readonly("lb2", [](const Schedule& s) { return s.run.bounds.lb2; })
      .def_property_readonly("lb3", [](const Schedule& s) { return s.run.bounds.lb3; })
      .def_property_readonly("lb4", [](const Schedule& s) { return s.run.bounds.lb4; })
      .def_property_readonly("permutations",
                             [](const Schedule& s) { return s.run.result.permutations; })
      .def_property_readonly("splits", [](const Schedule& s) { return s.run.result.splits; })
      .def_property_readonly(
          "seconds", [](const Schedule& s) { return s.run.seconds; },
          "wall time of the algorithm alone")
      .def_property_readonly(
          "demand", [](const Schedule& s) { return s.demand; },
          "the demand array passed in (the same object, not a copy)")
      .def_property_readonly(
          "_read_address", [](const Schedule& s) { return s.read_from; },
          "test hook: the address the scheduler read the demand from (the array's buffer when "
          "it was read in place)")
      .def_property_readonly(
          "slots",
          [](const Schedule& s) {
            py::list per_switch;
            for (int sw = 0; sw < s.s().switches; ++sw) per_switch.append(switch_slots(s.s(), sw));
            return per_switch;
          },
          "all-stop: one dict per switch with arrays start, end (k) and perm (k x n, -1 = idle)")
      .def_property_readonly(
          "circuits", [](const Schedule& s) { return circuit_columns(s.s()); },
          "per-port: columns switch, src, dst, start, end")
      .def(
          "to_json", [](const Schedule& s) { return flux::matrix::matrix_schedule_to_json(s.s()); },
          "the schedule as flux.matrix-schedule/1 text (what `flux matrix schedule -o` writes)")
      .def("__repr__", [](const Schedule& s) {
        return fmt::format("<fluxocs.Schedule {} n={} switches={} makespan={:.6g} bound={:.6g}>",
                           s.s().algorithm, s.s().n, s.s().switches, s.s().makespan,
                           s.run.bounds.bound);
      });
}

}  // namespace

void bind_matrix(py::module_& m) {
  bind_schedule_class(m);
  m.def("spectra", &spectra, py::arg("demand"), py::arg("switches"), py::arg("delta"),
        py::arg("algorithm") = "spectra", py::arg("rate") = py::none(), py::arg("seed") = 1,
        R"(Schedule a demand matrix on `switches` parallel all-stop OCSes.

demand: square 2-D array. A C-contiguous float64 array is read in place (no copy; do not change
it during the call). Any other layout or dtype is converted once to a C-contiguous float64 copy
(np.ascontiguousarray(demand, dtype=np.float64) avoids that on repeated calls). With `rate`,
the schedulers work on demand / rate, one scaled copy.
delta: reconfiguration delay. Without `rate` the demand is normalised (time units) and delta a
plain number; with `rate` (bytes/s, or a string such as "800Gbps") the demand is in bytes and
delta in seconds (or a string such as "10us").
algorithm: any name of fluxocs.algorithms(). seed: for randomised algorithms.
Returns a verified Schedule; raises ValueError for bad input (the CLI's message).)");
  m.def(
      "bounds", &bounds, py::arg("demand"), py::arg("switches"), py::arg("delta"),
      py::arg("rate") = py::none(),
      "Makespan lower bounds as a dict (time units or s): lb1 to lb4, bound = max(lb1, lb2, lb4)\n"
      "(valid under every reconfiguration model) and all_stop = max(bound, lb3) (all-stop only).");
  m.def("verify", &verify, py::arg("demand"), py::arg("schedule"),
        R"(Check a schedule against a demand (in the schedule's unit: bytes when it has a rate).

schedule: a Schedule, flux.matrix-schedule/1 text, or a file name.
Returns {"valid": bool, "violations": count, "messages": [str, ...]}.)");
  m.def("generate", &generate, py::arg("kind"), py::arg("n") = 0, py::arg("seed") = 1,
        R"(A seeded demand matrix normalised to a busiest line sum of 1 (as `flux matrix generate`).

kind: synthetic, gpt, moe, alltoall, perm or sparse; n: ports (0 = the kind's default).
Keyword options: large, small, large_share, noise, tokens, top_k, experts, popularity,
alpha, zipf_s, permutations, density.)");
  m.def(
      "algorithms",
      [] {
        py::dict d;
        for (const flux::matrix_schedulers::MatrixAlgorithm& a :
             flux::matrix_schedulers::matrix_algorithms())
          d[a.name.c_str()] = a.description;
        return d;
      },
      "Every matrix scheduler of the registry: {name: description}.");
}

}  // namespace fluxocs

PYBIND11_MODULE(fluxocs, m) {
  m.doc() =
      "Flux from Python: Spectra and the matrix baselines, lower bounds, the verifier, workloads, "
      "the simulator and the Flux co-scheduler, over the same C++ libraries as the flux CLI.";
  m.attr("__version__") = FLUX_VERSION;
  // Bad input raises ValueError with the one line the CLI prints after "flux: error: ".
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const flux::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  fluxocs::bind_matrix(m);
  fluxocs::bind_workload(m);
}
