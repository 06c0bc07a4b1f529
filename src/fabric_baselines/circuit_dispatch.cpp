#include "fabric_baselines/circuit_dispatch.hpp"

#include <algorithm>
#include <compare>

#include "fabric_baselines/rotor_lb.hpp"

namespace flux {

namespace {

enum TimerKind { kOpen = 0, kClose = 1, kBalance = 2 };

// Timer tags: kind + 3 * switch.
std::int64_t tag_of(TimerKind kind, int sw) {
  return kind + 3 * std::int64_t{sw};
}

// Bytes below this share of a message are rounding noise of the splitting arithmetic.
double byte_epsilon(double size) {
  return 1e-9 * std::max(1.0, size);
}

}  // namespace

CircuitDispatch::CircuitDispatch(const Workload& w, const Fabric& f, WindowSource& source,
                                 const DispatchOptions& opt)
    : w_(w), f_(f), source_(source), opt_(opt), lt_(f), n_(f.gpus) {
  sw_.resize(static_cast<std::size_t>(f.ocs));
  for (SwitchState& s : sw_) {
    s.partner.assign(static_cast<std::size_t>(n_), -1);
    if (opt_.used_circuits_only) s.sent.assign(static_cast<std::size_t>(n_), 0);
  }
  tx_free_.assign(static_cast<std::size_t>(f.ocs) * static_cast<std::size_t>(n_), 0);
  backlog_.resize(static_cast<std::size_t>(n_));
  undelivered_.assign(w.tasks.size(), 0.0);
  last_end_.assign(w.tasks.size(), 0);
  completed_.assign(w.tasks.size(), 0);
}

void CircuitDispatch::begin(Engine& e) {
  for (int s = 0; s < f_.ocs; ++s) fetch(e, s);
}

void CircuitDispatch::fetch(Engine& e, int sw) {
  SwitchState& s = sw_[static_cast<std::size_t>(sw)];
  s.win = source_.next(sw, e.now());
  if (s.win) e.set_timer(std::max(s.win->up, e.now()), tag_of(kOpen, sw));
}

void CircuitDispatch::open(Engine& e, int sw) {
  SwitchState& s = sw_[static_cast<std::size_t>(sw)];
  s.open = true;
  const bool duplex = f_.circuit == CircuitKind::duplex;
  for (auto [a, b] : s.win->circuits) {
    s.partner[static_cast<std::size_t>(a)] = b;
    if (duplex) s.partner[static_cast<std::size_t>(b)] = a;
    if (!opt_.used_circuits_only) circuits_.push_back({s.win->up, s.win->end, sw, a, b});
  }
  for (auto [a, b] : s.win->circuits) {
    pump(e, sw, a);
    if (duplex) pump(e, sw, b);
  }
  if (s.win->end != kNever) e.set_timer(s.win->end, tag_of(kClose, sw));
  // RotorLB's offers follow phase 1 on every circuit of the slot: the other windows opening at
  // this instant were scheduled earlier, so a timer set now fires after all of them.
  if (opt_.relay && balanced_at_ != e.now()) {
    balanced_at_ = e.now();
    e.set_timer(e.now(), tag_of(kBalance, sw));
  }
}

void CircuitDispatch::close(Engine& e, int sw) {
  SwitchState& s = sw_[static_cast<std::size_t>(sw)];
  if (opt_.used_circuits_only) record_used(s, sw, circuits_);
  for (auto [a, b] : s.win->circuits) {
    s.partner[static_cast<std::size_t>(a)] = -1;
    s.partner[static_cast<std::size_t>(b)] = -1;
    if (opt_.used_circuits_only) {
      s.sent[static_cast<std::size_t>(a)] = 0;
      s.sent[static_cast<std::size_t>(b)] = 0;
    }
  }
  s.open = false;
  s.win.reset();
  fetch(e, sw);
  recover_if_idle(e);
}

void CircuitDispatch::recover_if_idle(Engine& e) {
  for (const SwitchState& s : sw_)
    if (s.win) return;
  std::vector<std::tuple<int, int, double>> backlog;
  for (const auto* m : {&direct_, &relay_})
    for (const auto& [key, q] : *m) {
      if (!q.empty())
        backlog.emplace_back(static_cast<int>(key / n_), static_cast<int>(key % n_), q.bytes);
    }
  if (backlog.empty()) return;
  std::sort(backlog.begin(), backlog.end());
  source_.on_idle(backlog, e.now());
  for (int s = 0; s < f_.ocs; ++s) fetch(e, s);
}

void CircuitDispatch::on_timer(Engine& e, std::int64_t tag) {
  const auto kind = static_cast<TimerKind>(tag % 3);
  const int sw = static_cast<int>(tag / 3);
  if (kind == kOpen) {
    open(e, sw);
  } else if (kind == kClose) {
    close(e, sw);
  } else {
    balance(e);
  }
}

void CircuitDispatch::on_ready(Engine& e, int task) {
  source_.on_send_ready(task, e.now());
  const Task& t = w_.tasks[static_cast<std::size_t>(task)];
  undelivered_[static_cast<std::size_t>(task)] = t.bytes;
  queue(direct_, t.src, t.dst).push({task, t.bytes, e.now()});
  if (opt_.relay) backlog_[static_cast<std::size_t>(t.src)].insert(t.dst);
  std::vector<int> ready;
  for (int s = 0; s < f_.ocs; ++s) {
    SwitchState& st = sw_[static_cast<std::size_t>(s)];
    if (!st.win) fetch(e, s);
    if (st.open && st.partner[static_cast<std::size_t>(t.src)] == t.dst) ready.push_back(s);
  }
  // The switch whose port frees first carries the message (then the others, for what is left).
  std::stable_sort(ready.begin(), ready.end(), [&](int a, int b) {
    return tx_free_[static_cast<std::size_t>(a * n_ + t.src)] <
           tx_free_[static_cast<std::size_t>(b * n_ + t.src)];
  });
  for (int s : ready) pump(e, s, t.src);
  recover_if_idle(e);
}

void CircuitDispatch::pump(Engine& e, int sw, int from) {
  const int to = sw_[static_cast<std::size_t>(sw)].partner[static_cast<std::size_t>(from)];
  if (to < 0) return;
  Time& cursor = tx_free_[static_cast<std::size_t>(sw * n_ + from)];
  cursor = std::max(cursor, e.now());
  if (opt_.relay) forward_relayed(e, sw, from, to, cursor);
  if (!drain(e, sw, from, to, queue(direct_, from, to), cursor)) return;
  if (opt_.relay) backlog_[static_cast<std::size_t>(from)].erase(to);
}

// The next hop of `x` on sw's circuit from→to: from max(cursor, x.available), as much as fits
// before the window ends (a zero-byte send still takes α); nullopt if nothing useful fits.
std::optional<Hop> CircuitDispatch::next_hop(int sw, int from, int to, const Entry& x,
                                             Time cursor) const {
  const Time end = sw_[static_cast<std::size_t>(sw)].win->end;
  const Time s = std::max(cursor, x.available);
  if (s >= end) return std::nullopt;
  const Time span = end - s;
  if (x.remaining <= 0) {
    if (span < lt_.alpha) return std::nullopt;
    return Hop{sw, from, to, s, s + lt_.alpha, 0.0};
  }
  const double cap = lt_.capacity(span);
  if (cap < std::min(x.remaining, 1.0)) return std::nullopt;
  const double take = std::min(cap, x.remaining);
  const Time dur = take < x.remaining ? span : std::min(span, lt_.duration(take));
  return Hop{sw, from, to, s, s + dur, take};
}

// One hop of at most `limit` bytes of `x` (queued in `q`) on from→to, starting no earlier than
// `cursor`: recorded, taken from the queue, `cursor` moved to its end. The bytes it moved, or
// nothing when the window has no room for another hop.
std::optional<double> CircuitDispatch::send_part(Engine& e, int sw, int from, int to, Queue& q,
                                                 Entry& x, double limit, Time& cursor) {
  Entry part = x;
  part.remaining = std::min(x.remaining, limit);
  const std::optional<Hop> h = next_hop(sw, from, to, part, cursor);
  if (!h) return std::nullopt;
  add_hop(e, x.task, *h);
  cursor = h->end;
  return q.take(x, h->bytes, byte_epsilon(w_.tasks[static_cast<std::size_t>(x.task)].bytes));
}

// Sends queue `q` on from→to; true when the queue is empty, false when the window is full.
bool CircuitDispatch::drain(Engine& e, int sw, int from, int to, Queue& q, Time& cursor) {
  while (!q.empty()) {
    Entry& x = q.items[q.head];
    const std::optional<double> moved = send_part(e, sw, from, to, q, x, x.remaining, cursor);
    if (!moved) return false;
    if (to == w_.tasks[static_cast<std::size_t>(x.task)].dst) deliver(e, x.task, *moved, cursor);
    if (x.remaining > 0) return false;
    ++q.head;
  }
  q.reset();
  return true;
}

// RotorLB phase 1a: the bytes parked at `from` for `to` (arrived before this window), shared
// max-min fairly between their original sources on what is left of the window.
void CircuitDispatch::forward_relayed(Engine& e, int sw, int from, int to, Time& cursor) {
  Queue& q = queue(relay_, from, to);
  const Time start = cursor, end = sw_[static_cast<std::size_t>(sw)].win->end;
  if (q.empty() || start >= end) return;
  std::vector<int> sources;
  std::vector<double> held;
  auto source_of = [&](const Entry& x) {
    const int src = w_.tasks[static_cast<std::size_t>(x.task)].src;
    const auto it = std::find(sources.begin(), sources.end(), src);
    if (it != sources.end()) return static_cast<std::size_t>(it - sources.begin());
    sources.push_back(src);
    held.push_back(0.0);
    return sources.size() - 1;
  };
  for (const Entry& x : q.items)
    if (x.available <= start) held[source_of(x)] += x.remaining;
  const double cap = lt_.capacity(end - start);
  std::vector<double> share = fair_share(held, cap);
  for (Entry& x : q.items) {
    if (x.available > start) continue;
    const std::size_t k = source_of(x);
    double& left = share[k];
    // Relative to what the source holds, not to the link: a source's last sliver is still sent.
    if (left <= byte_epsilon(held[k])) continue;
    const std::optional<double> moved = send_part(e, sw, from, to, q, x, left, cursor);
    if (!moved) break;
    left -= *moved;
    deliver(e, x.task, *moved, cursor);
  }
  std::erase_if(q.items, [](const Entry& x) { return x.remaining <= 0; });
}

double CircuitDispatch::queued(const std::unordered_map<std::int64_t, Queue>& m, int from,
                               int to) const {
  const auto it = m.find(static_cast<std::int64_t>(from) * n_ + to);
  return it == m.end() ? 0.0 : std::max(0.0, it->second.bytes);
}

// RotorLB's offer, accept and phase 2 for the slot whose windows opened now (rotor_lb.hpp).
void CircuitDispatch::balance(Engine& e) {
  struct Link {
    int to, from, sw;
    auto operator<=>(const Link&) const = default;
  };
  std::vector<Link> links;
  for (int sw = 0; sw < f_.ocs; ++sw) {
    const SwitchState& st = sw_[static_cast<std::size_t>(sw)];
    if (!st.open || st.win->up != e.now()) continue;
    for (auto [a, b] : st.win->circuits) {  // a sender without a backlog offers nothing
      if (!backlog_[static_cast<std::size_t>(a)].empty()) links.push_back({b, a, sw});
      if (f_.circuit == CircuitKind::duplex && !backlog_[static_cast<std::size_t>(b)].empty())
        links.push_back({a, b, sw});
    }
  }
  std::sort(links.begin(), links.end());  // grouped by receiver, senders in increasing id
  struct Grant {
    int from, to, d, sw;
    double bytes;
    auto operator<=>(const Grant&) const = default;
  };
  std::vector<Grant> grants;
  for (std::size_t g = 0, next = 0; g < links.size(); g = next) {
    const int r = links[g].to;
    for (next = g; next < links.size() && links[next].to == r;) ++next;
    std::vector<int> cols;  // final destinations any neighbour of r has a backlog for
    for (std::size_t l = g; l < next; ++l)
      for (int d : backlog_[static_cast<std::size_t>(links[l].from)])
        if (d != r) cols.push_back(d);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    if (cols.empty()) continue;
    const Window& win = *sw_[static_cast<std::size_t>(links[g].sw)].win;
    const double slot_cap = lt_.capacity(win.end - win.up);
    std::vector<double> room(cols.size());
    for (std::size_t k = 0; k < cols.size(); ++k)
      room[k] = std::max(0.0, slot_cap - queued(direct_, r, cols[k]) - queued(relay_, r, cols[k]));
    std::vector<std::vector<double>> offers;
    std::vector<double> spare;
    for (std::size_t l = g; l < next; ++l) {
      const Link& k = links[l];
      std::vector<double> offer(cols.size());
      for (std::size_t c = 0; c < cols.size(); ++c) offer[c] = queued(direct_, k.from, cols[c]);
      offers.push_back(std::move(offer));
      const Time cursor = std::max(tx_free_[static_cast<std::size_t>(k.sw * n_ + k.from)], e.now());
      const Window& kw = *sw_[static_cast<std::size_t>(k.sw)].win;
      spare.push_back(cursor < kw.end ? lt_.capacity(kw.end - cursor) : 0.0);
    }
    const auto accepted = rotorlb_accept(offers, spare, std::move(room), byte_epsilon(slot_cap));
    for (std::size_t l = g; l < next; ++l)
      for (std::size_t c = 0; c < cols.size(); ++c)
        if (const double b = accepted[l - g][c]; b > byte_epsilon(slot_cap))
          grants.push_back({links[l].from, r, cols[c], links[l].sw, b});
  }
  // Phase 2: each sender in turn, its receivers in increasing id (a sender offered its whole
  // backlog to every neighbour, so later grants are cut to what is still queued).
  std::sort(grants.begin(), grants.end());
  for (const Grant& gr : grants) {
    send_relayed(e, gr.sw, gr.from, gr.to, gr.d, gr.bytes);
    if (queue(direct_, gr.from, gr.d).empty())
      backlog_[static_cast<std::size_t>(gr.from)].erase(gr.d);
  }
}

// Sends up to `amount` of from's own bytes for `d` on sw's circuit from→to, parked at `to` until
// the next slot.
void CircuitDispatch::send_relayed(Engine& e, int sw, int from, int to, int d, double amount) {
  Queue& q = queue(direct_, from, d);
  Time& cursor = tx_free_[static_cast<std::size_t>(sw * n_ + from)];
  cursor = std::max(cursor, e.now());
  const Time end = sw_[static_cast<std::size_t>(sw)].win->end;
  double sent = 0;
  while (!q.empty() && amount - sent > byte_epsilon(amount)) {
    Entry& x = q.items[q.head];
    const std::optional<double> moved = send_part(e, sw, from, to, q, x, amount - sent, cursor);
    if (!moved) break;
    queue(relay_, to, d).push({x.task, *moved, end});
    sent += *moved;
    if (x.remaining <= 0) ++q.head;
  }
  if (q.empty()) q.reset();
}

void CircuitDispatch::add_hop(Engine& e, int task, const Hop& h) {
  e.add_hop(task, h);
  if (opt_.used_circuits_only)
    sw_[static_cast<std::size_t>(h.sw)].sent[static_cast<std::size_t>(h.from)] = 1;
}

// The circuits of the open window of `s` that carried a hop in either direction.
void CircuitDispatch::record_used(const SwitchState& s, int sw,
                                  std::vector<TimedCircuit>& out) const {
  for (auto [a, b] : s.win->circuits)
    if (s.sent[static_cast<std::size_t>(a)] || s.sent[static_cast<std::size_t>(b)])
      out.push_back({s.win->up, s.win->end, sw, a, b});
}

void CircuitDispatch::deliver(Engine& e, int task, double bytes, Time end) {
  const std::size_t t = static_cast<std::size_t>(task);
  undelivered_[t] -= bytes;
  last_end_[t] = std::max(last_end_[t], end);
  if (undelivered_[t] <= byte_epsilon(w_.tasks[t].bytes) && !completed_[t]) {
    completed_[t] = 1;
    e.complete_send(task, last_end_[t]);
  }
}

std::vector<TimedCircuit> CircuitDispatch::circuits(Time end) const {
  std::vector<TimedCircuit> out;
  for (const TimedCircuit& c : circuits_)
    if (c.up < end) out.push_back({c.up, std::min(c.down, end), c.sw, c.a, c.b});
  if (opt_.used_circuits_only)  // windows still open when the iteration ended
    for (std::size_t sw = 0; sw < sw_.size(); ++sw)
      if (sw_[sw].open) {
        const std::size_t from = out.size();
        record_used(sw_[sw], static_cast<int>(sw), out);
        for (std::size_t i = from; i < out.size(); ++i) out[i].down = std::min(out[i].down, end);
      }
  return out;
}

ScheduleRun run_dispatch(const Workload& w, const Fabric& f, WindowSource& source,
                         const DispatchOptions& opt, const std::string& name) {
  CircuitDispatch dispatch(w, f, source, opt);
  Engine engine(w, dispatch);
  ScheduleRun run = run_scheduler(engine, name, opt.progress ? *opt.progress : no_progress());
  run.schedule.circuits = dispatch.circuits(run.schedule.iteration_time);
  return run;
}

}  // namespace flux
