#pragma once
// Sends ready bytes on whatever circuit is up (the periodic schedulers' rule): the dispatch rule
// shared by the static, rotor, BvN-frame and per-phase schedulers. Each OCS plays a sequence of
// windows (a set of circuits held over [up, end)) given by a WindowSource; a circuit direction
// carries its queued bytes FIFO at B, back to back, splitting a message at the window end (α per
// hop). With `relay` (RotorLB) the windows opening at one instant form a slot, played as
// RotorLB's published model plays it (rotor_lb.hpp): every circuit i→j first forwards the bytes
// parked at i for j (fair between their sources), then i's own bytes for j; then each receiver
// accepts part of its neighbours' remaining backlog (at most one slot's worth per final
// destination, counting what it already holds for it), which the senders relay on the rest of
// the window and which is parked until a later slot brings up a circuit to its destination.
// Bytes that become ready during a slot go direct if their circuit is up, and are offered for
// relaying from the next slot on.
// A rotor source (WindowSource::cycle) names each window's matching instead of listing its
// circuits: the dispatcher then books every circuit direction with bytes queued for the next slot
// of each OCS that brings it up, and a window visits only the directions booked for it — in the
// matching's circuit order, as if it visited every circuit — instead of all n GPUs.
// Cost per window: O(circuits + hops sent), or with a rotor cycle O(booked · log + hops sent);
// per RotorLB slot add O(backlogged senders · σ + n · σ · destinations offered · rounds); per
// ready send: O(σ log σ). Memory: the circuits recorded (every circuit, or only those that
// carried bytes: DispatchOptions) plus the queues and the sends in flight, their index (n² slots
// up to a size, then one entry per queue), plus with a rotor cycle σ bookings per direction
// booked, their index and a list per slot of the cycle's period.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fabric/engine.hpp"
#include "fabric/fabric.hpp"
#include "fabric/run_budget.hpp"
#include "fabric_baselines/circuit_log.hpp"
#include "fabric_baselines/rotor_cycle.hpp"
#include "fabric_baselines/rotor_lb.hpp"

namespace flux::fabric_baselines {

struct Window {
  fabric::Time up = 0, end = fabric::kNever;
  std::vector<std::pair<int, int>> circuits;  // duplex {a, b}; simplex a -> b
  // From a rotor source (WindowSource::cycle): the cycle's matching held, in the OCS's slot
  // `slot` (counted from 0, one after the other); `circuits` is then empty.
  int matching = -1;
  std::int64_t slot = -1;
};

class WindowSource {
 public:
  virtual ~WindowSource() = default;
  // The next window of switch `sw`: up >= the previous window's end plus τ where ports change,
  // or nullopt when the switch has nothing (more) to play for now.
  [[nodiscard]] virtual std::optional<Window> next(int sw, fabric::Time now) = 0;
  // A send became ready; a source that plans on demand may prepare windows (spectra-phase).
  virtual void on_send_ready(int /*task*/, fabric::Time /*now*/) {}
  // Every switch is idle but bytes are queued, as (from, to, bytes) sorted: a source that plans on
  // demand must add windows that carry them, or the run stalls.
  virtual void on_idle(const std::vector<std::tuple<int, int, double>>& /*backlog*/,
                       fabric::Time /*now*/) {}
  // A rotor source: its windows name matchings of this cycle (and its slots), never circuits.
  [[nodiscard]] virtual const RotorCycle* cycle() const { return nullptr; }
};

struct DispatchOptions {
  bool relay = false;  // RotorLB two-hop indirection
  // Record only the circuits that carried a hop. A rotor plays n/2 circuits per OCS per slot
  // whether or not anyone sends; storing all of them is O(slots · n) memory (tens of GB at 1,024
  // GPUs), while the used ones are bounded by the hops. An unused circuit moves no byte, so
  // leaving it out changes neither the hops nor the iteration; it does change the circuit list,
  // the reconfiguration count and the utilization, which then describe the circuits in use.
  bool used_circuits_only = false;
  Progress* progress = nullptr;      // where the run reports (engine.hpp)
  fabric::CircuitOutputs outputs{};  // the files the run writes: the circuit records it may keep
  // The largest dense index of the directions (n² slots of 4 bytes) the dispatch allocates, for
  // each queue table and for a rotor's bookings; above it each source keeps a sorted list of its
  // directions. The two give the same schedule (tests set 0 to run the sparse one on small
  // fabrics); the sparse one cost RotorLB 8–24 % more CPU at 1,024 GPUs. 64 MB takes the dense
  // one up to 4,096 GPUs, where the rotor cycle's own n² tables are larger.
  std::size_t dense_queue_index_bytes = std::size_t{64} << 20;
};

class CircuitDispatch final : public fabric::Transport {
 public:
  CircuitDispatch(const workload::Workload& w, const fabric::Fabric& f, WindowSource& source,
                  const DispatchOptions& opt = {});

  void begin(fabric::Engine& e) override;
  void on_ready(fabric::Engine& e, int task) override;
  void on_timer(fabric::Engine& e, std::int64_t tag) override;

  // The log of every circuit recorded, with those of the windows still open at the end of the
  // run (after CircuitLog::mark_open), moved out of the dispatch.
  [[nodiscard]] CircuitLog take_circuits();

 private:
  struct Entry {
    int task;
    int send;  // its slot in sends_
    double remaining;
    fabric::Time available;  // relayed bytes: when they finished arriving at the intermediate
  };
  struct Queue {
    std::vector<Entry> items;
    std::size_t head = 0;
    double bytes = 0;  // remaining bytes from head on (RotorLB reads every queue every slot)
    bool empty() const { return head == items.size(); }
    void push(const Entry& x) {
      items.push_back(x);
      bytes += x.remaining;
    }
    // `b` bytes of x (an entry of this queue) sent; a rest below `eps` goes with them, so that
    // many split pieces do not each leave a sliver behind. Returns the bytes taken off x.
    double take(Entry& x, double b, double eps) {
      const double before = x.remaining;
      x.remaining -= b;
      if (x.remaining <= eps) x.remaining = 0;
      bytes -= before - x.remaining;
      return before - x.remaining;
    }
    void reset() {
      items.clear();
      head = 0;
      bytes = 0;
    }
  };
  // Where the record of each direction (from, to) that has one is kept: its place in the
  // caller's array. Up to a size (DispatchOptions) a dense index of n² slots: RotorLB reads a few
  // queues per final destination in every slot, and hashing the direction (a division, then a
  // bucket and a node in memory) was the dispatch's largest cost. Above it the dense index would
  // dominate the run (1 GB at 16,384 GPUs, most of it for directions that never carry a byte),
  // so each source instead keeps its directions sorted, and the index grows with the records.
  class DirectionIndex {
   public:
    DirectionIndex(int n, std::size_t dense_bytes);
    // The place of (from, to): -1 until the caller sets it, at once (a later use of the index
    // may move the slot).
    std::int32_t& place(int from, int to);
    std::int32_t find(int from, int to) const;  // -1 before its first use

   private:
    using Row = std::vector<std::pair<int, std::int32_t>>;  // (to, place) by `to`
    static Row::const_iterator find_in(const Row& row, int to);

    int n_;
    bool dense_;
    std::vector<std::int32_t> index_;  // dense: [from · n + to] its place, -1: none yet
    std::vector<Row> rows_;            // sparse: [from] its directions with a place
  };
  // The queues of the directions that ever held bytes.
  class QueueTable {
   public:
    QueueTable(int n, std::size_t dense_bytes) : index_(n, dense_bytes) {}
    Queue& operator()(int from, int to);        // empty on first use
    const Queue* find(int from, int to) const;  // nullptr before its first use
    Queue* find(int from, int to);
    // f(from, to, queue) for every queue, in the order they were made: a walk over the queues,
    // not over the dense index's n² slots (4 MB at 1,024 GPUs, walked whenever every OCS is idle).
    template <typename F>
    void for_each(F&& f) const {
      for (std::size_t i = 0; i < queues_.size(); ++i)
        f(directions_[i].first, directions_[i].second, queues_[i]);
    }

   private:
    DirectionIndex index_;
    std::deque<Queue> queues_;  // a deque: a queue in use stays put as others are added
    std::vector<std::pair<int, int>> directions_;  // (from, to) of each of queues_
  };
  // A direction booked for a rotor slot, with its queues as far as known (nullptr: none when it
  // was booked or looked up; a queue, once made, stays put), so a visit looks up only the others.
  struct Booked {
    int from, to;
    Queue *direct = nullptr, *parked = nullptr;
  };
  struct SwitchState {
    std::optional<Window> win;
    bool open = false;
    std::vector<int> partner;  // TX partner of each GPU while the window is open, else -1
    std::vector<char> sent;    // [gpu] sent a hop in the open window (used_circuits_only)
    std::vector<int> senders;  // the GPUs with `sent` set
    // Rotor cycle: the directions booked for a later window, in a calendar of one list per slot
    // of the cycle's period (at [slot mod period]), with the slot it holds. A booking is for one
    // of the next `period` slots, so a list holds one slot's bookings, or a skipped slot's until
    // the list is used again: a booking costs a push instead of a heap's O(log bookings) moves.
    struct Due {
      std::int64_t slot = -1;
      std::vector<Booked> directions;
    };
    std::vector<Due> due;
    std::int64_t next_slot = 0;  // rotor cycle: the first slot not yet opened
  };

  void fetch(fabric::Engine& e, int sw);
  void recover_if_idle(fabric::Engine& e);
  void open(fabric::Engine& e, int sw);
  void open_cycle(fabric::Engine& e, int sw);
  int partner(int sw, int gpu) const;
  static bool pending(const Queue* direct, const Queue* parked);
  void book(const Booked& b);
  // Books from -> to on `sw` for its matching m's next slot; `place` is its booking place, or -1
  // until this looks it up.
  void book_on(int sw, int m, const Booked& b, std::int32_t& place);
  std::int32_t booking_place(int from, int to);
  void add_backlog(int from, int to, Queue& q);
  void drop_backlog(int from, int to);
  void close(fabric::Engine& e, int sw);
  void pump(fabric::Engine& e, int sw, int from);
  // pump() on the circuit from -> to, with its queues: `parked` at `from` for `to` (relay, may be
  // nullptr) and from's own.
  void pump_to(fabric::Engine& e, int sw, int from, int to, Queue* parked, Queue& own);
  std::optional<fabric::Hop> next_hop(int sw, int from, int to, const Entry& x,
                                      fabric::Time cursor) const;
  std::optional<double> send_part(fabric::Engine& e, int sw, int from, int to, Queue& q, Entry& x,
                                  double limit, fabric::Time& cursor);
  bool drain(fabric::Engine& e, int sw, int from, int to, Queue& q, fabric::Time& cursor);
  void forward_relayed(fabric::Engine& e, int sw, int from, int to, Queue* parked,
                       fabric::Time& cursor);
  void balance(fabric::Engine& e);
  bool send_relayed(fabric::Engine& e, int sw, int from, int to, int d, double amount, Queue& q);
  // Appends to `out` the bytes m queues from `from` to each of `to`, in order.
  void queued_to(const QueueTable& m, int from, std::span<const int> to, std::vector<double>& out);
  // The same for the direct queues of a source, from its backlog (`to` sorted).
  // `queues`, if given, gets the queues read (nullptr: none).
  void backlogged_to(int from, std::span<const int> to, std::vector<double>& out,
                     std::vector<Queue*>* queues = nullptr);
  void read_found(std::vector<double>& out) const;
  int start_send(int task);
  void deliver(fabric::Engine& e, const Entry& x, double bytes, fabric::Time end);
  void add_hop(fabric::Engine& e, int task, const fabric::Hop& h);
  void record_used(const SwitchState& s, int sw);

  const workload::Workload& w_;
  const fabric::Fabric& f_;
  WindowSource& source_;
  const RotorCycle* cycle_;
  DispatchOptions opt_;
  fabric::LinkTiming lt_;
  int n_;
  std::vector<SwitchState> sw_;
  std::vector<fabric::Time> tx_free_;  // [sw * n + gpu]
  QueueTable direct_, relay_;
  // RotorLB: [src] the destinations it has direct bytes queued for, sorted (a few per source: a
  // flat set, where a std::set cost a node allocation per insert), each with its queue, and the
  // sources with any, in no order (balance() sorts what it builds from them) with [src] its place
  // there or -1. A direct queue outside its source's backlog is empty and holds 0 bytes, so
  // balance() reads a source's queued bytes from its backlog, not through the table's index.
  struct Backlogged {
    int to;
    Queue* queue;
  };
  std::vector<std::vector<Backlogged>> backlog_;
  std::vector<int> backlogged_, backlogged_at_;
  DirectionIndex booked_at_;          // rotor cycle: the directions ever booked
  std::vector<std::int64_t> booked_;  // rotor cycle: [place · σ + sw] the slot booked on sw
  fabric::Time balanced_at_ = -1;     // the slot whose RotorLB step is scheduled (relay)
  // A send in flight: from its ready time until its completion is scheduled. Only these need
  // a count of bytes still to arrive, so they take slots reused as sends complete rather than a
  // record per task (17 bytes on each of the 18.5 M tasks of the 1,024-GPU iteration, a third of
  // a GB at the end of the run, when its hops and circuits hold the most).
  struct Send {
    int task = -1;  // -1: a free slot
    double undelivered = 0;
    fabric::Time last_end = 0;
  };
  std::vector<Send> sends_;
  std::vector<int> free_sends_;  // the free slots of sends_
  CircuitLog circuits_;
  // Scratch lists of a window's opening (directions to visit), a ready send (the switches that
  // can take it) and a window's close (circuits used): kept between calls, as allocating them
  // anew cost a malloc and a free for each of tens of millions of windows and sends.
  struct Visit {
    int order;      // the direction's rank in the matching's circuit order
    Booked booked;  // its queues completed a few visits ahead
  };
  std::vector<Visit> visit_;
  std::vector<int> ready_, used_;
  // And of RotorLB's phase 1a at each circuit with parked bytes: their sources, the bytes each
  // holds and its fair share of the window.
  std::vector<int> sources_;
  std::vector<double> held_, share_;
  std::vector<std::size_t> share_order_;
  // And of RotorLB's offer and accept in every slot, at every receiver (balance()).
  struct Link {
    int to, from, sw;
    auto operator<=>(const Link&) const = default;
  };
  struct Grant {
    int from, to, d, sw;
    double bytes;
    Queue* queue;  // from's queue for d (the order never gets to it: one grant per from, to, d)
    auto operator<=>(const Grant&) const = default;
  };
  std::vector<Link> links_;
  std::vector<Grant> grants_;
  std::vector<int> cols_;
  std::vector<double> own_, held_for_, room_, offers_, spare_, accepted_;
  std::vector<Queue*> offered_;  // the queue of each offer
  std::vector<const Queue*> found_;
  AcceptScratch accept_;
  // Records made before `kept_at_` (their circuits went up before it, and the iteration ends no
  // earlier than an instant the engine reaches): they stay in the schedule.
  std::size_t kept_ = 0;
  fabric::Time kept_at_ = 0;
  std::size_t max_kept_;  // fabric::max_circuit_records of the files the run writes
  void record_window(fabric::Time now, int sw, const std::vector<std::pair<int, int>>& circuits,
                     fabric::Time up, fabric::Time end);
};

// Runs the DAG with this dispatch rule; the schedule holds the hops and the circuits up to the
// iteration end. A run that cannot finish is a bug of the source (std::logic_error).
[[nodiscard]] fabric::ScheduleRun run_dispatch(const workload::Workload& w, const fabric::Fabric& f,
                                               WindowSource& source, const DispatchOptions& opt,
                                               const std::string& name);

}  // namespace flux::fabric_baselines
