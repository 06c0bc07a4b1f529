#include "sweep/sweep_run.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/error.hpp"
#include "core/file_output.hpp"
#include "sweep/cell_run.hpp"

namespace flux::sweep {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

struct Worker {
  std::size_t cell = 0;  // index in the plan
  std::string partial;   // its folder
  Clock::time_point start;
};

// The child's side: run, write the files, exit; never returns. Errors go to error.txt.
[[noreturn]] void child(const Sweep& sweep, const SweepCell& cell, const std::string& partial,
                        const sigset_t& mask) {
  for (const int sig : {SIGINT, SIGTERM}) std::signal(sig, SIG_DFL);
  ::sigprocmask(SIG_SETMASK, &mask, nullptr);
  int code = 0;
  std::string error;
  try {
    for (const auto& [name, content] : run_cell(sweep, cell))
      write_file_now((fs::path(partial) / name).string(), content);
  } catch (const InputError& e) {
    error = e.what(), code = 3;
  } catch (const std::exception& e) {
    error = std::string("internal error: ") + e.what(), code = 4;
  }
  if (code) std::ofstream(fs::path(partial) / "error.txt") << error;
  std::fflush(nullptr);
  ::_exit(code);
}

std::string failure_text(int status, const std::string& partial) {
  std::ifstream in(fs::path(partial) / "error.txt");
  std::string line;
  if (in && std::getline(in, line) && !line.empty()) return line;
  if (WIFSIGNALED(status))
    return fmt::format("the cell's process was killed by signal {} ({})", WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
  return fmt::format("the cell's process exited with code {}", WEXITSTATUS(status));
}

// A failed cell keeps no partial output: only the params.json and status.json written next.
void clear_folder(const std::string& path) {
  for (const auto& entry : fs::directory_iterator(path)) fs::remove_all(entry.path());
}

class Runner {
 public:
  Runner(const Sweep& sweep, const SweepPlan& plan, const SweepRunOptions& o, Progress& progress)
      : sweep_(sweep), plan_(plan), o_(o), dir_{o.out}, progress_(progress) {}

  SweepRunTally run(const std::vector<std::size_t>& todo);

 private:
  void spawn(std::size_t cell);
  void finish(pid_t pid, int status);
  [[noreturn]] void stop(int sig);

  const Sweep& sweep_;
  const SweepPlan& plan_;
  const SweepRunOptions& o_;
  SweepDir dir_;
  Progress& progress_;
  sigset_t old_mask_{};
  std::map<pid_t, Worker> running_;
  SweepRunTally tally_;
};

void Runner::spawn(std::size_t cell) {
  const SweepCell& c = plan_.cells[cell];
  std::string tmpl = (fs::path(dir_.cells()) / (dir_.partial_prefix(c.id) + "XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) == nullptr)
    throw InputError(dir_.cells(), "--out-dir",
                     std::string("a writable folder (") + std::strerror(errno) + ")");
  std::fflush(nullptr);  // or the child would write the parent's buffered output again
  const pid_t pid = ::fork();
  if (pid < 0) {
    fs::remove_all(tmpl);
    throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) child(sweep_, c, tmpl, old_mask_);
  running_[pid] = {cell, tmpl, Clock::now()};
}

void Runner::finish(pid_t pid, int status) {
  const auto it = running_.find(pid);
  if (it == running_.end()) return;
  const Worker w = it->second;
  running_.erase(it);
  const SweepCell& c = plan_.cells[w.cell];
  const double wall = std::chrono::duration<double>(Clock::now() - w.start).count();
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  nlohmann::ordered_json st = {{"format", "flux.sweep-cell/1"},
                               {"id", c.id},
                               {"status", ok ? "done" : "failed"},
                               {"wall_s", wall}};
  if (!ok) {
    st["error"] = failure_text(status, w.partial);
    clear_folder(w.partial);
  }
  write_file_now((fs::path(w.partial) / "params.json").string(), c.params.dump(1) + "\n");
  write_file_now((fs::path(w.partial) / "status.json").string(), st.dump(1) + "\n");
  std::error_code ec;
  fs::rename(w.partial, dir_.cell(c.id), ec);
  if (ec) fs::remove_all(w.partial);  // another process completed the same cell first
  ++tally_.ran;
  if (!ok) ++tally_.failed;
  // The cell is reported when it ends (cells end in any order, stages must nest).
  progress_.advance(1);
  progress_.begin("cell " + c.id);
  std::string axes = cell_text(sweep_, c);
  axes = axes.substr(axes.find_first_not_of(' ', c.id.size()));
  progress_.end(fmt::format("{} {:.2f} s: {}{}", ok ? "ok" : "failed", wall, axes,
                            ok ? "" : ": " + st["error"].get<std::string>()),
                true);
}

void Runner::stop(int sig) {
  for (const auto& [pid, w] : running_) ::kill(pid, SIGKILL);
  for (const auto& [pid, w] : running_) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    std::error_code ec;
    fs::remove_all(w.partial, ec);
  }
  progress_.hide();
  fmt::print(stderr, "flux: sweep stopped by signal {}, {} unfinished cells removed\n", sig,
             running_.size());
  running_.clear();
  ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
  ::raise(sig);  // the process's own handler (or the default action) ends it
  ::_exit(128 + sig);
}

SweepRunTally Runner::run(const std::vector<std::size_t>& todo) {
  ProgressStage stage(progress_, "sweep", static_cast<double>(todo.size()));
  sigset_t set;
  sigemptyset(&set);
  for (const int sig : {SIGINT, SIGTERM, SIGCHLD}) sigaddset(&set, sig);
  ::sigprocmask(SIG_BLOCK, &set, &old_mask_);
  std::size_t next = 0;
  try {
    for (;;) {
      while (running_.size() < o_.jobs && next < todo.size()) spawn(todo[next++]);
      if (running_.empty()) break;
      siginfo_t info{};
      const timespec wait{1, 0};  // also reaps a child whose SIGCHLD merged with another
      const int sig = ::sigtimedwait(&set, &info, &wait);
      if (sig == SIGINT || sig == SIGTERM) stop(sig);
      int status = 0;
      for (pid_t pid; (pid = ::waitpid(-1, &status, WNOHANG)) > 0;) finish(pid, status);
    }
  } catch (...) {
    for (const auto& [pid, w] : running_) ::kill(pid, SIGKILL);
    for (const auto& [pid, w] : running_) {
      ::waitpid(pid, nullptr, 0);
      std::error_code ec;
      fs::remove_all(w.partial, ec);
    }
    ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
    throw;
  }
  ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
  return tally_;
}

// Partial folders by cell id, from one pass over cells/. A partial folder of a cell this run is
// about to start was left by a process that died without cleaning up (SIGKILL, a node failure).
std::map<std::string, std::vector<fs::path>> partial_folders(const SweepDir& dir) {
  std::map<std::string, std::vector<fs::path>> out;
  const std::string prefix = dir.partial_prefix("");
  for (const auto& entry : fs::directory_iterator(dir.cells())) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0) out[name.substr(prefix.size(), 16)].push_back(entry.path());
  }
  return out;
}

bool failed_cell(const SweepDir& dir, const std::string& id) {
  std::ifstream in(fs::path(dir.cell(id)) / "status.json");
  const auto status = nlohmann::json::parse(in, nullptr, false);
  return status.is_object() && status.value("status", "") == "failed";
}

}  // namespace

SweepRunTally run_sweep(const Sweep& sweep, const SweepPlan& plan, const SweepRunOptions& o,
                        Progress& progress) {
  if (o.jobs < 1) throw InputError("", "--jobs", "at least 1 worker");
  const SweepDir dir{o.out};
  prepare_sweep_dir(dir, sweep, plan);
  std::vector<std::size_t> todo;
  std::size_t skipped = 0;
  const auto stale = partial_folders(dir);
  for (std::size_t i : shard_cells(plan.cells.size(), o.shard)) {
    const std::string& id = plan.cells[i].id;
    if (fs::exists(dir.cell(id))) {
      if (!(o.retry_failed && failed_cell(dir, id))) {
        ++skipped;
        continue;
      }
      // Out of the way in one rename, so no half-removed cell folder is ever visible.
      const std::string old = (fs::path(dir.cells()) / (dir.partial_prefix(id) + "retry")).string();
      fs::remove_all(old);
      fs::rename(dir.cell(id), old);
      fs::remove_all(old);
    }
    if (const auto it = stale.find(id); it != stale.end())
      for (const fs::path& p : it->second) fs::remove_all(p);
    todo.push_back(i);
  }
  Runner runner(sweep, plan, o, progress);
  SweepRunTally tally = runner.run(todo);
  tally.skipped = skipped;
  return tally;
}

}  // namespace flux::sweep
