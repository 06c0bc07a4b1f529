#include "core/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>

#include "core/units.hpp"

namespace flux {
namespace {

class NoProgress final : public Progress {
 public:
  void begin(std::string_view, double, ProgressUnit) override {}
  void update(double, std::string_view) override {}
  void advance(double, std::string_view) override {}
  void end(std::string_view, bool) override {}
};

// Wall time as a person reads it: "4.2s", "3:07", "1:02:03".
std::string wall(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  if (seconds < 60) return fmt::format("{:.1f}s", seconds);
  const auto s = static_cast<long long>(seconds);
  if (s < 3600) return fmt::format("{}:{:02}", s / 60, s % 60);
  return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
}

std::string amount(double v, ProgressUnit unit) {
  return unit == ProgressUnit::seconds ? format_time(v) : fmt::format("{:.0f}", v);
}

// The first `width` characters of UTF-8 `text` (never half a character).
std::string cut(const std::string& text, int width) {
  int chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && ++chars > width)
      return text.substr(0, i);
  return text;
}

constexpr std::string_view kEraseLine = "\r\x1b[K";  // carriage return, clear to end of line

}  // namespace

Progress& no_progress() {
  static NoProgress none;
  return none;
}

ProgressStage::ProgressStage(Progress& progress, std::string_view name, double total,
                             ProgressUnit unit)
    : progress_(progress), exceptions_(std::uncaught_exceptions()) {
  progress_.begin(name, total, unit);
}

ProgressStage::~ProgressStage() {
  if (open_) progress_.end({}, std::uncaught_exceptions() == exceptions_);
}

void ProgressStage::finish(std::string_view summary) {
  if (!open_) return;
  open_ = false;
  progress_.end(summary, true);
}

ProgressClock steady_progress_clock() {
  return [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
}

StageRenderer::StageRenderer(ProgressWrite write, ProgressClock clock)
    : write_(std::move(write)), clock_(std::move(clock)) {}

void StageRenderer::begin(std::string_view stage, double total, ProgressUnit unit) {
  std::lock_guard lock(mutex_);
  stack_.push_back({std::string(stage), total, 0.0, unit, {}, clock_()});
  changed(nullptr, true);
}

void StageRenderer::update(double done, std::string_view detail) {
  std::lock_guard lock(mutex_);
  if (stack_.empty()) return;
  update_locked(done, detail);
}

void StageRenderer::update_locked(double done, std::string_view detail) {
  stack_.back().done = done;
  if (!detail.empty()) stack_.back().detail = detail;
  changed(nullptr, true);
}

void StageRenderer::advance(double units, std::string_view detail) {
  std::lock_guard lock(mutex_);
  if (stack_.empty()) return;
  update_locked(stack_.back().done + units, detail);
}

void StageRenderer::end(std::string_view summary, bool completed) {
  std::lock_guard lock(mutex_);
  if (stack_.empty()) return;
  Stage ended = std::move(stack_.back());
  stack_.pop_back();
  if (!summary.empty()) ended.detail = summary;
  changed(&ended, completed);
}

std::string StageRenderer::describe(const Stage& s, double now, bool final) {
  std::string out = s.name;
  if (s.total > 0)
    out += fmt::format(" {}/{} ({:.0f}%)", amount(s.done, s.unit), amount(s.total, s.unit),
                       std::min(100.0, 100 * s.done / s.total));
  else if (s.done > 0)
    out += fmt::format(" {}", amount(s.done, s.unit));
  const double elapsed = now - s.started;
  if (final)
    out += fmt::format(" done in {}", wall(elapsed));
  else if (s.total > 0 && s.done > 0 && s.done < s.total)
    out += fmt::format(" ETA {}", wall(elapsed * (s.total - s.done) / s.done));
  if (!s.detail.empty()) out += fmt::format("; {}", s.detail);
  return out;
}

std::string StageRenderer::describe_stack(double now) const {
  std::string out;
  for (const Stage& s : stack_) {
    if (!out.empty()) out += " > ";
    out += describe(s, now, false);
  }
  return out;
}

TerminalProgress::TerminalProgress(ProgressWrite write, ProgressClock clock,
                                   std::function<int()> width, double interval)
    : StageRenderer(std::move(write), std::move(clock)),
      width_(std::move(width)),
      interval_(interval) {}

TerminalProgress::~TerminalProgress() {
  hide();
}

void TerminalProgress::hide() {
  std::lock_guard lock(mutex_);
  if (shown_) write_(kEraseLine);
  shown_ = false;
}

void TerminalProgress::draw(double now) {
  // One column short of the width: a full line would wrap on some terminals, and '\r' would
  // then return to the wrong row.
  write_(fmt::format("\r{}\x1b[K", cut(describe_stack(now), std::max(10, width_() - 1))));
  shown_ = true;
  last_draw_ = now;
}

void TerminalProgress::changed(const Stage* ended, bool completed) {
  const double now = clock_();
  if (ended != nullptr && stack_.empty()) {
    // The outermost stage leaves its final line (or none when an error stopped it, so that the
    // error message starts on a clean line).
    if (completed)
      write_(fmt::format("\r{}\x1b[K\n",
                         cut(describe(*ended, now, true), std::max(10, width_() - 1))));
    else if (shown_)
      write_(kEraseLine);
    shown_ = false;
    return;
  }
  if (now - last_draw_ >= interval_ && !stack_.empty()) draw(now);
}

void PlainProgress::changed(const Stage* ended, bool completed) {
  if (ended == nullptr || !completed) return;
  std::string prefix;
  for (const Stage& s : stack_) {
    prefix += s.name;
    if (s.total > 0)
      prefix += fmt::format(" {}/{}", amount(s.done, s.unit), amount(s.total, s.unit));
    prefix += " > ";
  }
  write_(prefix + describe(*ended, clock_(), true) + "\n");
}

std::unique_ptr<Progress> make_stderr_progress(bool quiet) {
  if (quiet) return std::make_unique<NoProgress>();
  auto write = [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  };
  if (isatty(STDERR_FILENO) == 0)
    return std::make_unique<PlainProgress>(write, steady_progress_clock());
  auto width = [] {
    winsize ws{};
    return ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? int{ws.ws_col} : 80;
  };
  return std::make_unique<TerminalProgress>(write, steady_progress_clock(), width);
}

}  // namespace flux
