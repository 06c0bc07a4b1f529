#pragma once
// Shared by the two translation units of the fluxocs module: running library calls off the GIL
// so that Ctrl-C works, and turning Python arguments into library inputs.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>

namespace fluxocs {

namespace py = pybind11;

// Runs `work` on a worker thread with the GIL released and returns its result (or rethrows its
// exception). The library's loops have no cancellation points, so Ctrl-C cannot stop `work`
// itself: the caller checks for signals every 50 ms, and on KeyboardInterrupt abandons the worker
// (it runs to completion in the background and its result is dropped). `work` must therefore own
// everything it touches (capture by value or shared_ptr), never references to the caller's frame;
// Python memory it reads in place (a borrowed numpy buffer) is `keep_alive`, which an abandoned
// worker keeps referenced for good (a deliberate leak, only on Ctrl-C, so it never reads freed
// memory).
template <class Work>
auto run_interruptible(Work work, py::handle keep_alive = {}) -> decltype(work()) {
  using Result = decltype(work());
  auto task = std::make_shared<std::packaged_task<Result()>>(std::move(work));
  std::future<Result> done = task->get_future();
  std::thread worker([task] { (*task)(); });
  for (;;) {
    {
      py::gil_scoped_release release;
      if (done.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready) break;
    }
    if (PyErr_CheckSignals() != 0) {
      if (keep_alive) keep_alive.inc_ref();
      worker.detach();
      throw py::error_already_set();
    }
  }
  worker.join();
  return done.get();
}

// `json.loads(text)`: the library's JSON documents (summaries, statistics) as Python objects.
inline py::object json_loads(const std::string& text) {
  return py::module_::import("json").attr("loads")(text);
}

// A str or os.PathLike as a file name.
inline std::string path_string(py::handle p) {
  return py::str(py::module_::import("os").attr("fspath")(p));
}

void bind_matrix(py::module_& m);
void bind_workload(py::module_& m);

}  // namespace fluxocs
