#pragma once
// Set-up chains: family 5 of the Flux lower bound (lower_bound.hpp). The set-up pigeonhole of
// family 3 raised along the DAG: σ + 1 messages of one GPU side on pairwise different circuits
// that are all ancestors of a task v put two on one port, so the later of that pair starts τ
// after the earlier one ends, and v starts no earlier than the later one's end plus the longest
// known path from it to v (its lag). If v is itself a message at that side, σ ancestors suffice
// (v is the (σ + 1)-th). This raises v's head; over descendants in reversed time, its tail.
// The side need not be v's own: a pipeline hop's sender g pays τ against its last ring send,
// which the hop does not depend on, but both reach the next stage's ring, whose tasks carry
// g's side with lags and charge it there.
// Proof in setup_chain.cpp. Per task it keeps, for its own GPU sides and the `foreign` other
// sides with the latest-ending companions, the σ + 1 latest-ending (end + lag) ancestor messages
// on distinct circuits, merged from its neighbours; a list is dropped once every neighbour that
// needs it was visited, so memory follows the frontier of the pass.
#include <span>
#include <vector>

#include "cosched/instance.hpp"

namespace flux::cosched {

// One pass, forward (heads, over ancestors) or backward (tails, over descendants in reversed time).
class SetupChains {
 public:
  SetupChains(const CoschedInstance& inst, bool forward, int foreign);
  // A valid lower bound on time[v] (head if forward, tail if backward) from the companions of v,
  // which it records for v's successors (predecessors if backward). Call for every task in
  // topological order (reversed if backward), with `time` final for the tasks visited before.
  [[nodiscard]] double visit(int v, const std::vector<double>& time);

 private:
  struct Companion {
    int side, task;
    double lag;  // ≤ the longest path from the end of `task` to the start of the holder
  };
  struct Sides {
    int side[4];
    int count = 0;
  };
  [[nodiscard]] Sides sides_of(int v) const;
  // The partner GPU of message task m at `side`, or -1 when m does not use that side.
  [[nodiscard]] int partner(int m, int side) const;
  [[nodiscard]] double bound_at(int v, std::span<const Companion> picked,
                                const std::vector<double>& time);
  void gather(int v, const std::vector<double>& time);
  void keep_list(int v);     // kept_ as v's list
  void release_list(int u);  // u's list, once its last neighbour is visited

  const CoschedInstance& inst_;
  bool forward_;
  int keep_;     // σ + 1 companions per side
  int foreign_;  // sides other than the task's own kept per task
  // The companion lists of the frontier (tasks with neighbours still to visit), grouped by side,
  // in slots reused as tasks leave it: a list header per task was 0.44 GB on the 18.5 M-task
  // GPT-3 iteration, where a slot number is a quarter of that.
  std::vector<std::vector<Companion>> lists_;
  std::vector<int> free_lists_;  // slots of lists_ not in use
  std::vector<int> list_of_;     // per task, its slot in lists_, or -1
  std::vector<int> waiting_;     // per task, neighbours still to visit
  // Scratch: a companion with its circuit (partner GPU) and end + lag; a side's group of them.
  struct Candidate {
    Companion companion;
    int circuit;
    double end;
  };
  struct Group {
    std::size_t begin, size;
    bool mine;
    double latest;
  };
  std::vector<Candidate> candidates_;
  std::vector<Group> groups_;
  std::vector<Companion> kept_, others_;
};

}  // namespace flux::cosched
