#include "fabric_baselines/ideal.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <queue>
#include <tuple>
#include <utility>
#include <vector>

namespace flux::fabric_baselines {

namespace {

// A send in flight. Its ends and its drain threshold are copied from the task: the flows a change
// reaches are visited at every event, and reading them from the task list cost a cache miss each.
struct Flow {
  int task;
  int src, dst;
  double remaining;
  double drained_below;               // remaining bytes that count as none (rounding noise)
  double rate = 0.0;                  // bytes per ps; -1 while fair_rates has not frozen it
  fabric::Time since = 0;             // where the stretch not yet recorded starts (advance())
  fabric::Time due = fabric::kNever;  // when it drains at its rate
  // Its last piece, [piece_start, piece_end) carrying piece_bytes (piece_start -1: none yet),
  // kept here until the next one starts: extending it touches only the flow, not the pieces_
  // log, at each of the instants a flow lives through.
  fabric::Time piece_start = -1, piece_end = 0;
  double piece_bytes = 0.0;
  double piece_rate = -1.0;  // the rate of its last piece; -1: none that a stretch may extend
};

class IdealTransport final : public fabric::Transport {
 public:
  explicit IdealTransport(const fabric::Fabric& f)
      : cap_(f.ocs * f.link_rate / fabric::kPsPerSecond),
        alpha_(fabric::to_time(f.latency)),
        gpus_(f.gpus),
        on_link_(2 * static_cast<std::size_t>(f.gpus)),
        dirty_link_(on_link_.size(), 0),
        reached_link_(on_link_.size(), 0),
        touched_link_(on_link_.size(), 0),
        left_(on_link_.size(), 0.0),
        users_(on_link_.size(), 0),
        version_(on_link_.size(), 0) {}

  void on_ready(fabric::Engine& e, int task) override {
    const workload::Task& t = e.workload().tasks[static_cast<std::size_t>(task)];
    const int id =
        new_flow({task, t.src, t.dst, t.bytes, 1e-9 * std::max(1.0, t.bytes), 0.0, e.now()});
    order_.push_back(id);
    for (std::size_t l : links(id)) {
      on_link_[l].push_back(id);
      mark_dirty(l);
    }
    complete_drained(e);
  }
  void on_timer(fabric::Engine& e, std::int64_t tag) override {
    if (tag == kSettleTag) {
      settle(e);
      return;
    }
    if (tag != generation_) return;  // rates changed since this timer was set
    complete_drained(e);
  }

 private:
  // The sender's TX link and the receiver's RX link of flow `id`.
  std::array<std::size_t, 2> links(int id) const {
    const Flow& fl = flows_[static_cast<std::size_t>(id)];
    return {static_cast<std::size_t>(fl.src), static_cast<std::size_t>(gpus_ + fl.dst)};
  }
  // Of a flow's two links, the one that is not l.
  std::size_t other_link(const Flow& fl, std::size_t l) const {
    const auto tx = static_cast<std::size_t>(fl.src);
    return l == tx ? static_cast<std::size_t>(gpus_ + fl.dst) : tx;
  }
  // A finished flow's slot serves the next one, so flows_ holds the flows in flight, not every
  // send of the run (12 M sends in the 1,024-GPU iteration).
  int new_flow(const Flow& fl) {
    if (free_.empty()) {
      flows_.push_back(fl);
      pieces_.emplace_back();
      return static_cast<int>(flows_.size()) - 1;
    }
    const int id = free_.back();
    free_.pop_back();
    flows_[static_cast<std::size_t>(id)] = fl;
    return id;
  }
  void mark_dirty(std::size_t l) {
    if (!dirty_link_[l]) dirty_.push_back(l);
    dirty_link_[l] = 1;
  }

  // Moves flow `id` to now, recording what it carried at its last rate.
  void advance(fabric::Engine& e, int id) {
    Flow& fl = flows_[static_cast<std::size_t>(id)];
    const fabric::Time dt = e.now() - fl.since;
    if (dt > 0 && fl.rate > 0) {
      const double full = fl.rate * static_cast<double>(dt);
      const double bytes = std::min(fl.remaining, full);
      record(e, id, bytes, bytes == full);
      fl.remaining -= bytes;
    }
    fl.since = e.now();
  }

  // Records `bytes` carried by flow `id` from fl.since to now. Every event advances every flow in
  // flight, but a flow's rate changes only where a change reaches it: on the ResNet-50 trace 95 %
  // of those stretches continue the flow's last piece at the same rate, and one piece per rate
  // (not per event) is what the check, the replay and the metrics then read. A stretch at full
  // rate that follows a full-rate piece of the same rate without a gap extends it; a drained
  // flow's last stretch (bytes < rate · dt) is a piece of its own, so every piece stays exactly
  // constant-rate.
  void record(fabric::Engine& e, int id, double bytes, bool full) {
    Flow& fl = flows_[static_cast<std::size_t>(id)];
    if (full && fl.piece_rate == fl.rate && fl.piece_start >= 0 && fl.piece_end == fl.since) {
      fl.piece_end = e.now();
      fl.piece_bytes += bytes;
      return;
    }
    if (fl.piece_start >= 0) pieces_[static_cast<std::size_t>(id)].push_back(last_piece(fl));
    fl.piece_start = fl.since;
    fl.piece_end = e.now();
    fl.piece_bytes = bytes;
    fl.piece_rate = full ? fl.rate : -1.0;  // a drained stretch is never extended
  }
  static fabric::Hop last_piece(const Flow& fl) {
    return {fabric::kElectrical, fl.src, fl.dst, fl.piece_start, fl.piece_end, fl.piece_bytes};
  }

  // At the first event of an instant, moves every flow to now and completes, at once, those that
  // drained, in one pass: their completions keep their place among the events of the instant.
  // Later in the instant only the flow just added can have drained (a 0-byte send). The rates
  // wait for the instant's settle.
  void complete_drained(fabric::Engine& e) {
    const auto drained = [&](int id) {
      const Flow& fl = flows_[static_cast<std::size_t>(id)];
      return fl.remaining <= fl.drained_below;
    };
    if (e.now() != advanced_to_) {
      advanced_to_ = e.now();
      moved_ = true;
      std::erase_if(order_, [&](int id) {
        advance(e, id);
        return drained(id) && finish(e, id);
      });
    } else if (!order_.empty() &&
               flows_[static_cast<std::size_t>(order_.back())].since == e.now() &&
               drained(order_.back())) {
      finish(e, order_.back());
      order_.pop_back();
    }
    if (settle_due_) return;
    settle_due_ = true;
    e.set_timer(e.now(), kSettleTag);
  }

  // Recomputes the fair rates of the flows a change can reach and sets the next completion
  // timer: once per instant, after its events (a timer set at the instant fires after the events
  // already queued for it). A collective's chunks often start together, and settling after each
  // of them refilled the same links again and again: on the ResNet-50 trace 442 k settles for
  // 6,858 instants, 22.4 M rate updates and as many due times pushed into a heap; once per
  // instant, 11.5 M rate updates (there every change reaches every flow in flight: they share
  // links).
  void settle(fabric::Engine& e) {
    settle_due_ = false;
    fair_rates();
    // Time moved: every flow's remainder did, so every due time is computed again; else only
    // those of the flows whose rate changed. The timer is the earliest: a scan, where a heap of
    // due times was rebuilt at nearly every settle for the one entry on top.
    fabric::Time next = fabric::kNever;
    if (moved_) {
      for (int id : order_) next = std::min(next, set_due(e, id));
    } else {
      for (int id : changed_) set_due(e, id);
      for (int id : order_) next = std::min(next, flows_[static_cast<std::size_t>(id)].due);
    }
    moved_ = false;
    ++generation_;
    if (!order_.empty()) e.set_timer(next, generation_);
  }

  bool finish(fabric::Engine& e, int id) {
    Flow& fl = flows_[static_cast<std::size_t>(id)];
    std::vector<fabric::Hop>& pieces = pieces_[static_cast<std::size_t>(id)];
    for (const fabric::Hop& h : pieces) e.add_hop(fl.task, h);
    if (fl.piece_start >= 0) e.add_hop(fl.task, last_piece(fl));
    pieces.clear();
    e.complete_send(fl.task, e.now() + alpha_);
    for (std::size_t l : links(id)) {
      std::erase(on_link_[l], id);
      mark_dirty(l);
    }
    free_.push_back(id);
    return true;
  }

  // When flow `id` drains at its rate. Its ceiling without std::ceil, a library call on x86-64
  // without SSE4.1 that ran once per flow in flight at every event: the quotient is >= 0 and
  // below 2^63, so truncating it is exact and at most one below.
  fabric::Time set_due(fabric::Engine& e, int id) {
    Flow& fl = flows_[static_cast<std::size_t>(id)];
    const double ps = fl.remaining / fl.rate;
    const auto whole = static_cast<fabric::Time>(ps);
    fl.due = e.now() + whole + (static_cast<double>(whole) < ps ? 1 : 0);
    return fl.due;
  }

  // Progressive filling over the flows that share a link, directly or through other flows, with
  // a link whose flows changed: raise all unfrozen rates together; the link whose fair share is
  // lowest fills first and freezes its flows. Freezing only raises the other links' shares, so a
  // heap of shares (stale entries skipped by version) visits links in filling order. Flows with
  // no path to a change keep their rates, which filling them again would reproduce bit for bit
  // (a link's arithmetic only involves its own flows, taken in arrival order). Cost
  // O((F' + R') log R') for the F' flows and R' links reached, instead of all flows in flight.
  void fair_rates() {
    reach();
    for (std::size_t l : reached_) {
      left_[l] = cap_;
      users_[l] = static_cast<int>(on_link_[l].size());
      version_[l] = 0;
      if (users_[l] > 0) heap_.emplace(left_[l] / users_[l], l, 0);
    }
    while (!heap_.empty()) {
      auto [share, l, v] = heap_.top();
      heap_.pop();
      if (v != version_[l] || users_[l] == 0) continue;
      // l's own capacity and count in registers, and those of the other link while consecutive
      // flows share it (a collective's chunks between two GPUs): through memory, each flow
      // waited for the previous one's store. The subtractions are the same, in the same order.
      double left = left_[l];
      int users = users_[l];
      std::size_t run = kNoLink;  // the other link held in run_left and run_users
      double run_left = 0.0;
      int run_users = 0;
      const auto end_run = [&] {
        if (run == kNoLink) return;
        left_[run] = run_left;
        users_[run] = run_users;
      };
      for (int id : on_link_[l]) {
        Flow& fl = flows_[static_cast<std::size_t>(id)];
        if (fl.rate >= 0) continue;
        fl.rate = share;
        left -= share;
        --users;
        if (const std::size_t o = other_link(fl, l); o != run) {
          end_run();
          run = o;
          run_left = left_[o];
          run_users = users_[o];
          if (!touched_link_[o]) touched_link_[o] = 1, touched_.push_back(o);
        }
        run_left -= share;
        --run_users;
        changed_.push_back(id);
      }
      end_run();
      left_[l] = left;
      users_[l] = users;
      // One entry per link whose share rose, with its share after all of l's flows froze: the
      // entries pushed in between would be superseded before the next pop.
      for (std::size_t o : touched_) {
        touched_link_[o] = 0;
        if (users_[o] > 0) heap_.emplace(left_[o] / users_[o], o, ++version_[o]);
      }
      touched_.clear();
    }
  }

  // reached_: the links connected to a dirty link through flows; their flows' rates unfrozen.
  void reach() {
    for (std::size_t l : reached_) reached_link_[l] = 0;
    reached_.clear();
    changed_.clear();
    for (std::size_t l : dirty_) {
      dirty_link_[l] = 0;
      if (reached_link_[l]) continue;
      reached_link_[l] = 1;
      reached_.push_back(l);
      for (std::size_t k = reached_.size() - 1; k < reached_.size(); ++k)  // breadth first
        for (int id : on_link_[reached_[k]]) {
          Flow& fl = flows_[static_cast<std::size_t>(id)];
          if (fl.rate < 0) continue;
          fl.rate = -1;
          for (std::size_t o : links(id))
            if (!reached_link_[o]) {
              reached_link_[o] = 1;
              reached_.push_back(o);
            }
        }
    }
    dirty_.clear();
  }

  double cap_;
  fabric::Time alpha_;
  int gpus_;
  std::vector<Flow> flows_;  // by slot; order_ lists the flows in flight by arrival
  // By slot: the flow's pieces before its last (which the flow holds), handed to the engine
  // together when it finishes, so that the hop log holds each send's pieces as one run
  // (HopLists::seal moves a run at once).
  std::vector<std::vector<fabric::Hop>> pieces_;
  std::vector<int> order_;
  std::vector<int> free_;        // slots of finished flows
  std::int64_t generation_ = 0;  // of the completion timer in force
  fabric::Time advanced_to_ = -1;
  static constexpr std::int64_t kSettleTag = -1;  // completion timers count from 1
  static constexpr std::size_t kNoLink = static_cast<std::size_t>(-1);
  bool settle_due_ = false;  // the instant's settle is queued
  bool moved_ = false;       // time advanced since the last settle
  // Per link (TX of gpu g is g, RX is gpus + g): its flows in arrival order, and fair_rates'
  // scratch.
  std::vector<std::vector<int>> on_link_;
  std::vector<char> dirty_link_, reached_link_, touched_link_;
  std::vector<std::size_t> dirty_, reached_, touched_;
  std::vector<int> changed_;
  std::vector<double> left_;
  std::vector<int> users_, version_;
  using Entry = std::tuple<double, std::size_t, int>;  // share, link, version
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
};

}  // namespace

fabric::ScheduleRun schedule_ideal(const workload::Workload& w, const fabric::Fabric& f,
                                   Progress& progress) {
  IdealTransport transport(f);
  fabric::Engine engine(w, transport, fabric::TraceParts::hops);
  return run_scheduler(engine, "ideal", progress);
}

}  // namespace flux::fabric_baselines
