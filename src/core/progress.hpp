#pragma once
// Progress of long computations. Libraries never print: they report stages (a name, work done out
// of a total, and what is known so far, such as a solver's incumbent, bound and gap) to a Progress
// they are handed, and the command line decides how that is shown:
//   * TerminalProgress: one live line on an interactive stderr, redrawn in place ('\r') at most a
//     few times a second, with the nested stages side by side and an ETA for counted work;
//   * PlainProgress: one plain line per finished stage, for logs and pipes (no '\r', no escape);
//   * no_progress(): nothing (`--quiet`, Python, tests, and every caller that passes nothing).
// Results never depend on progress: it only ever goes to its own stream.
//
// Stages nest (a bench cell runs a scheduler that runs a search): begin/end are called by one
// thread, in LIFO order; update may come from any thread (the renderers lock).
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace flux {

// How a stage's work is counted: items ("3/48") or simulated seconds ("1.2ms/4ms").
enum class ProgressUnit { count, seconds };

class Progress {
 public:
  virtual ~Progress() = default;
  // A stage starts inside the current one; total = units of work expected, 0 when unknown.
  virtual void begin(std::string_view stage, double total = 0,
                     ProgressUnit unit = ProgressUnit::count) = 0;
  // The innermost stage has done `done` units; `detail` says what is known so far.
  virtual void update(double done, std::string_view detail = {}) = 0;
  // The innermost stage has done `units` more: how a loop that opens a stage per item (a bench
  // cell running a scheduler) counts its items in the stage around it.
  virtual void advance(double units = 1, std::string_view detail = {}) = 0;
  // The innermost stage ends; `summary` is its last word. completed = false: an error stopped it
  // (a failed command prints its one error line and nothing else).
  virtual void end(std::string_view summary = {}, bool completed = true) = 0;
  // Erases a live line so that other output to the same terminal starts on a clean line; the
  // next update draws it again.
  virtual void hide() {}
};

// Discards everything: the default wherever a caller has nothing to show progress on.
[[nodiscard]] Progress& no_progress();

// One stage, ended when it goes out of scope (as stopped when an exception is unwinding). Like
// Progress itself, update and advance act on the innermost open stage: count an outer stage's
// items after the inner stage of each has closed.
class ProgressStage {
 public:
  ProgressStage(Progress& progress, std::string_view name, double total = 0,
                ProgressUnit unit = ProgressUnit::count);
  ~ProgressStage();
  ProgressStage(const ProgressStage&) = delete;
  ProgressStage& operator=(const ProgressStage&) = delete;

  void update(double done, std::string_view detail = {}) { progress_.update(done, detail); }
  void advance(double units = 1, std::string_view detail = {}) { progress_.advance(units, detail); }
  // Ends the stage now with a summary (the destructor then does nothing).
  void finish(std::string_view summary = {});

 private:
  Progress& progress_;
  int exceptions_;  // std::uncaught_exceptions() at construction
  bool open_ = true;
};

// Seconds on a monotonic clock; injected so that tests control time.
using ProgressClock = std::function<double()>;
[[nodiscard]] ProgressClock steady_progress_clock();

// Where the renderers write: a stderr-like stream, injected so that tests capture it.
using ProgressWrite = std::function<void(std::string_view)>;

// The stage stack shared by the renderers, and how one stage reads ("MILP 2/5 ETA 0:12 ...").
class StageRenderer : public Progress {
 public:
  StageRenderer(ProgressWrite write, ProgressClock clock);
  void begin(std::string_view stage, double total, ProgressUnit unit) override;
  void update(double done, std::string_view detail) override;
  void advance(double units, std::string_view detail) override;
  void end(std::string_view summary, bool completed) override;

 protected:
  struct Stage {
    std::string name;
    double total = 0, done = 0;
    ProgressUnit unit = ProgressUnit::count;
    std::string detail;
    double started = 0;
  };
  void update_locked(double done, std::string_view detail);
  // Called with the lock held, after the stack changed; `ended` is the stage just popped, if any.
  virtual void changed(const Stage* ended, bool completed) = 0;
  // "name done/total (pct%) elapsed ETA detail" for one stage, at time `now`.
  [[nodiscard]] static std::string describe(const Stage& s, double now, bool final);
  // Every open stage, outermost first, joined by " > ".
  [[nodiscard]] std::string describe_stack(double now) const;

  ProgressWrite write_;
  ProgressClock clock_;
  std::vector<Stage> stack_;
  std::mutex mutex_;
};

// The live line of an interactive terminal. Redraws at most once per `interval` seconds (ends of
// outermost stages always), cut to the terminal's width so that '\r' can go back over it; the
// end of an outermost stage leaves its final line, an inner stage's end only updates the line.
class TerminalProgress : public StageRenderer {
 public:
  TerminalProgress(ProgressWrite write, ProgressClock clock, std::function<int()> width,
                   double interval = 0.1);
  ~TerminalProgress() override;
  void hide() override;

 private:
  void changed(const Stage* ended, bool completed) override;
  void draw(double now);
  std::function<int()> width_;
  double interval_;
  double last_draw_ = -1e300;
  bool shown_ = false;  // a live line is on the screen
};

// One line per finished stage, prefixed by the stages it ran in; nothing for a stage an error
// stopped.
class PlainProgress : public StageRenderer {
 public:
  using StageRenderer::StageRenderer;

 private:
  void changed(const Stage* ended, bool completed) override;
};

// The command line's choice for stderr: nothing when `quiet`, the live line when stderr is a
// terminal, plain lines otherwise.
[[nodiscard]] std::unique_ptr<Progress> make_stderr_progress(bool quiet);

}  // namespace flux
