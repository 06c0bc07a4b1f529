#include "core/file_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <vector>

#include "core/error.hpp"

namespace flux {

namespace fs = std::filesystem;

namespace {

// Temporaries that a signal handler must remove. A lock-free list of slots that are never freed,
// only reused, so that the handler can walk it at any moment; its length is the largest number of
// temporaries ever open at once.
struct TempSlot {
  std::atomic<const char*> path{nullptr};
  TempSlot* next = nullptr;
};
std::atomic<TempSlot*> g_slots{nullptr};

TempSlot* claim_slot(const char* path) {
  for (TempSlot* s = g_slots.load(); s; s = s->next) {
    const char* expected = nullptr;
    if (s->path.compare_exchange_strong(expected, path)) return s;
  }
  auto* s = new TempSlot;  // lives as long as the process (see above)
  s->path.store(path);
  s->next = g_slots.load();
  while (!g_slots.compare_exchange_weak(s->next, s)) {
  }
  return s;
}

extern "C" void remove_temporaries_and_exit(int sig) {
  for (TempSlot* s = g_slots.load(); s; s = s->next)
    if (const char* p = s->path.load()) ::unlink(p);
  static const char msg[] = "flux: interrupted, unfinished output files removed\n";
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
  ::_exit(128 + sig);
}

mode_t new_file_mode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

// Where the bytes go: through a symlink to its target; a device or FIFO is written in place.
struct Target {
  std::string path;
  bool in_place = false;
};

Target resolve_target(const std::string& path) {
  std::error_code ec;
  Target t{path, false};
  if (fs::is_symlink(fs::symlink_status(path, ec))) {
    t.path = fs::weakly_canonical(path, ec).string();
    if (ec) throw InputError(path, "", "cannot resolve symbolic link: " + ec.message());
  }
  const fs::file_status st = fs::status(t.path, ec);  // not_found is fine: a new file
  if (fs::is_directory(st)) throw InputError(path, "", "is a directory; expected a file path");
  t.in_place = fs::exists(st) && !fs::is_regular_file(st);
  return t;
}

}  // namespace

struct OutputFile::State {
  std::string path;  // as the user gave it, for messages
  Target target;
  std::string tmp;  // empty when written in place
  std::ofstream out;
  TempSlot* slot = nullptr;

  void forget_temp() {
    if (slot) slot->path.store(nullptr);
    slot = nullptr;
  }
  void discard() {
    if (out.is_open()) out.close();
    if (!tmp.empty()) ::unlink(tmp.c_str());
    forget_temp();
  }
  void publish() {
    std::error_code ec;
    if (!tmp.empty()) fs::rename(tmp, target.path, ec);
    if (ec) {
      discard();
      throw InputError(path, "", "cannot rename temporary file: " + ec.message());
    }
    forget_temp();
  }
};

namespace {

// The open batch, if any: files staged in it await its commit.
struct Batch {
  std::mutex mutex;
  std::vector<std::unique_ptr<OutputFile::State>> staged;
};
Batch* g_batch = nullptr;

}  // namespace

OutputFile::OutputFile(std::string path) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.path = std::move(path);
  s.target = resolve_target(s.path);
  if (s.target.in_place) {
    s.out.open(s.target.path, std::ios::binary);
  } else {
    std::string tmpl = s.target.path + ".tmp-XXXXXX";
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
      throw InputError(s.path, "", std::string("cannot open for writing: ") + std::strerror(errno));
    ::fchmod(fd, new_file_mode());
    ::close(fd);
    s.tmp = std::move(tmpl);
    s.slot = claim_slot(s.tmp.c_str());
    s.out.open(s.tmp, std::ios::binary | std::ios::trunc);
  }
  if (!s.out) {
    s.discard();
    throw InputError(s.path, "", "cannot open for writing");
  }
}

OutputFile::~OutputFile() {
  if (state_) state_->discard();
}

std::ostream& OutputFile::stream() {
  return state_->out;
}

namespace {

void finish_writing(OutputFile::State& s) {
  s.out.flush();
  if (!s.out) {
    s.discard();
    throw InputError(s.path, "", "write failed");
  }
  s.out.close();
}

}  // namespace

void OutputFile::commit_now() {
  finish_writing(*state_);
  state_->publish();
  state_.reset();
}

void OutputFile::commit() {
  State& s = *state_;
  finish_writing(s);
  if (g_batch && !s.tmp.empty()) {
    const std::lock_guard lock(g_batch->mutex);
    g_batch->staged.push_back(std::move(state_));
    return;
  }
  s.publish();
  state_.reset();
}

void write_file_atomic(const std::string& path, const std::string& content) {
  OutputFile file(path);
  file.stream() << content;
  file.commit();
}

void write_file_now(const std::string& path, const std::string& content) {
  OutputFile file(path);
  file.stream() << content;
  file.commit_now();
}

void prepare_output_dir(const std::string& dir, const std::string& flag) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir) || ::access(dir.c_str(), W_OK) != 0)
    throw InputError(dir, flag, "a folder that can be created and written to");
}

OutputBatch::OutputBatch() {
  if (g_batch) throw std::logic_error("OutputBatch: a batch is already open");
  g_batch = new Batch;
}

OutputBatch::~OutputBatch() {
  if (!g_batch) return;
  for (auto& s : g_batch->staged) s->discard();
  delete g_batch;
  g_batch = nullptr;
}

void OutputBatch::commit() {
  std::vector<std::unique_ptr<OutputFile::State>> staged;
  {
    const std::lock_guard lock(g_batch->mutex);
    staged.swap(g_batch->staged);
  }
  for (std::size_t i = 0; i < staged.size(); ++i) {
    try {
      staged[i]->publish();
    } catch (...) {
      for (std::size_t j = i + 1; j < staged.size(); ++j) staged[j]->discard();
      throw;
    }
  }
}

void remove_outputs_on_signal() {
  for (const int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    ::sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // e.g. started with nohup: keep ignoring
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_exit;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace flux
