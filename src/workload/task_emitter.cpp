#include "workload/task_emitter.hpp"

#include <algorithm>
#include <limits>

#include "core/error.hpp"

namespace flux::workload {

TaskEmitter::TaskEmitter(TaskSink& sink, int gpus)
    : sink_(sink), tail_(static_cast<std::size_t>(gpus), -1) {
  sink_.begin(gpus);
}

TaskEmitter::~TaskEmitter() = default;

void TaskEmitter::finish() {
  if (!finished_) sink_.end();
  finished_ = true;
}

Deps TaskEmitter::tail_deps(int gpu) const {
  const int t = tail(gpu);
  return t < 0 ? Deps{} : Deps{t};
}

int TaskEmitter::emit(const TaskTags& tags) {
  // Task::after holds int indices; larger iterations need a wider index type.
  if (next_ >= std::numeric_limits<int>::max())
    throw InputError("", "scenario", "an iteration of fewer than 2^31 tasks");
  scratch_.id = next_;
  scratch_.layer = tags.layer;
  scratch_.microbatch = tags.microbatch;
  scratch_.phase = tags.phase;
  scratch_.group = tags.group;
  scratch_.collective = tags.collective;
  // Duplicate predecessors would be harmless but inflate files; they are rare and lists short.
  std::sort(scratch_.after.begin(), scratch_.after.end());
  scratch_.after.erase(std::unique(scratch_.after.begin(), scratch_.after.end()),
                       scratch_.after.end());
  sink_.add(scratch_);
  return static_cast<int>(next_++);
}

void TaskEmitter::set_name(const std::string& name) {
  // Consecutive tasks mostly share their name (a stage's ranks, a collective step's messages):
  // they then share one string.
  if (scratch_.name != name) scratch_.name = name;
}

int TaskEmitter::compute(int gpu, double seconds, std::string name, const TaskTags& tags,
                         const Deps& deps) {
  scratch_.kind = TaskKind::compute;
  scratch_.gpu = gpu;
  scratch_.src = scratch_.dst = -1;
  scratch_.bytes = 0;
  scratch_.duration = seconds;
  set_name(name);
  scratch_.after.assign(deps.begin(), deps.end());
  if (tail(gpu) >= 0) scratch_.after.push_back(tail(gpu));
  const int index = emit(tags);
  tail_[static_cast<std::size_t>(gpu)] = index;
  return index;
}

int TaskEmitter::send(int src, int dst, double bytes, std::string name, const TaskTags& tags,
                      const Deps& deps) {
  scratch_.kind = TaskKind::send;
  scratch_.gpu = -1;
  scratch_.src = src;
  scratch_.dst = dst;
  scratch_.bytes = bytes;
  scratch_.duration = 0;
  set_name(name);
  scratch_.after.assign(deps.begin(), deps.end());
  return emit(tags);
}

}  // namespace flux::workload
