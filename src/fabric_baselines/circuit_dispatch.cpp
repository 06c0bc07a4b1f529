#include "fabric_baselines/circuit_dispatch.hpp"

#include <algorithm>
#include <compare>
#include <utility>

#include "core/heap.hpp"
#include "core/prefetch.hpp"
#include "fabric/run_budget.hpp"
#include "fabric_baselines/rotor_lb.hpp"

namespace flux::fabric_baselines {

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

// A backlog's place for destination `to`.
template <typename B>
auto lower_bound_to(B& b, int to) {
  return std::lower_bound(b.begin(), b.end(), to, [](const auto& x, int t) { return x.to < t; });
}

}  // namespace

CircuitDispatch::CircuitDispatch(const workload::Workload& w, const fabric::Fabric& f,
                                 WindowSource& source, const DispatchOptions& opt)
    : w_(w),
      f_(f),
      source_(source),
      cycle_(source.cycle()),
      opt_(opt),
      lt_(f),
      n_(f.gpus),
      direct_(f.gpus, opt.dense_queue_index_bytes),
      relay_(f.gpus, opt.dense_queue_index_bytes),
      booked_at_(cycle_ ? f.gpus : 0, opt.dense_queue_index_bytes),
      max_kept_(fabric::max_circuit_records(opt.outputs)) {
  sw_.resize(static_cast<std::size_t>(f.ocs));
  for (SwitchState& s : sw_) {
    s.partner.assign(static_cast<std::size_t>(n_), -1);
    if (cycle_) s.due.resize(static_cast<std::size_t>(cycle_->period()));
    if (opt_.used_circuits_only) s.sent.assign(static_cast<std::size_t>(n_), 0);
  }
  tx_free_.assign(static_cast<std::size_t>(f.ocs) * static_cast<std::size_t>(n_), 0);
  backlog_.resize(static_cast<std::size_t>(n_));
  backlogged_at_.assign(static_cast<std::size_t>(n_), -1);
}

void CircuitDispatch::begin(fabric::Engine& e) {
  for (int s = 0; s < f_.ocs; ++s) fetch(e, s);
}

void CircuitDispatch::fetch(fabric::Engine& e, int sw) {
  SwitchState& s = sw_[static_cast<std::size_t>(sw)];
  s.win = source_.next(sw, e.now());
  if (s.win) e.set_timer(std::max(s.win->up, e.now()), tag_of(kOpen, sw));
}

void CircuitDispatch::open(fabric::Engine& e, int sw) {
  SwitchState& s = sw_[static_cast<std::size_t>(sw)];
  s.open = true;
  if (cycle_) {
    open_cycle(e, sw);
  } else {
    const bool duplex = f_.circuit == fabric::CircuitKind::duplex;
    for (auto [a, b] : s.win->circuits) {
      s.partner[static_cast<std::size_t>(a)] = b;
      if (duplex) s.partner[static_cast<std::size_t>(b)] = a;
    }
    if (!opt_.used_circuits_only)
      record_window(e.now(), sw, s.win->circuits, s.win->up, s.win->end);
    for (auto [a, b] : s.win->circuits) {
      pump(e, sw, a);
      if (duplex) pump(e, sw, b);
    }
  }
  if (s.win->end != fabric::kNever) e.set_timer(s.win->end, tag_of(kClose, sw));
  // RotorLB's offers follow phase 1 on every circuit of the slot: the other windows opening at
  // this instant were scheduled earlier, so a timer set now fires after all of them.
  if (opt_.relay && balanced_at_ != e.now()) {
    balanced_at_ = e.now();
    e.set_timer(e.now(), tag_of(kBalance, sw));
  }
}

// Every circuit of a window (opened at `now` ≥ its `up`). Refuses, before the list fills the
// memory, a schedule that already keeps more records than its output files may hold.
void CircuitDispatch::record_window(fabric::Time now, int sw,
                                    const std::vector<std::pair<int, int>>& circuits,
                                    fabric::Time up, fabric::Time end) {
  if (now > kept_at_) kept_ = circuits_.size(), kept_at_ = now;
  if (kept_ > max_kept_) throw fabric::circuit_records_over_budget(kept_, opt_.outputs);
  for (auto [a, b] : circuits) circuits_.add(up, end, sw, a, b);
}

// A rotor window: pumps the directions booked for its slot, in the order in which a window that
// lists its circuits pumps them (every other direction has nothing queued, so pumping it would
// send nothing), and books those with bytes left for the matching's next slot on this OCS.
void CircuitDispatch::open_cycle(fabric::Engine& e, int sw) {
  SwitchState& s = sw_[static_cast<std::size_t>(sw)];
  const Window& win = *s.win;
  s.next_slot = win.slot + 1;
  if (!opt_.used_circuits_only)
    record_window(e.now(), sw, cycle_->matching(win.matching), win.up, win.end);
  std::vector<Visit>& visit = visit_;
  visit.clear();
  // Taken out before any pump: a booking made below may be for a period later, in this list.
  SwitchState::Due& due = s.due[static_cast<std::size_t>(win.slot % cycle_->period())];
  if (due.slot == win.slot)
    for (const Booked& b : due.directions)
      visit.push_back({cycle_->order(win.matching, b.from), b});
  due.directions.clear();
  std::sort(visit.begin(), visit.end(),
            [](const Visit& a, const Visit& b) { return a.order < b.order; });
  // The queues of the directions a few visits ahead, asked for while this one is pumped.
  const auto ask_ahead = [&](std::size_t i) {
    if (i >= visit.size()) return;
    Booked& b = visit[i].booked;
    if (b.direct == nullptr) b.direct = direct_.find(b.from, b.to);  // made since it was booked?
    if (opt_.relay && b.parked == nullptr) b.parked = relay_.find(b.from, b.to);  // else none
    for (const Queue* q : {b.direct, b.parked})
      if (q != nullptr) prefetch(q);
  };
  for (std::size_t i = 0; i < 4; ++i) ask_ahead(i);
  for (std::size_t i = 0; i < visit.size(); ++i) {
    ask_ahead(i + 4);
    // A visit makes no queue but its own direction's (bytes are queued from on_ready and
    // RotorLB's step), and a slot visits a direction once: a queue another visit did not find a
    // few visits ago does not exist now.
    Booked& b = visit[i].booked;
    if (!pending(b.direct, b.parked)) continue;  // sent since it was booked
    // The window's matching is the one the direction was booked for: from's partner is `to`.
    if (b.direct == nullptr) b.direct = &direct_(b.from, b.to);
    pump_to(e, sw, b.from, b.to, b.parked, *b.direct);
    if (!pending(b.direct, b.parked)) continue;
    std::int32_t place = -1;
    book_on(sw, win.matching, b, place);
  }
}

int CircuitDispatch::partner(int sw, int gpu) const {
  const SwitchState& s = sw_[static_cast<std::size_t>(sw)];
  if (!cycle_) return s.partner[static_cast<std::size_t>(gpu)];
  return s.open ? cycle_->partner(s.win->matching, gpu) : -1;
}

bool CircuitDispatch::pending(const Queue* direct, const Queue* parked) {
  for (const Queue* q : {direct, parked})
    if (q != nullptr && !q->empty()) return true;
  return false;
}

// Bytes were queued on from -> to: book it for the next slot of every OCS that brings it up
// (a rotor cycle; a window that lists its circuits visits them all anyway).
void CircuitDispatch::book(const Booked& b) {
  if (!cycle_) return;
  const int m = cycle_->matching_of(b.from, b.to);
  if (m < 0) return;
  std::int32_t place = -1;  // looked up once, by the first OCS that books it
  for (int sw = 0; sw < f_.ocs; ++sw) book_on(sw, m, b, place);
}

void CircuitDispatch::book_on(int sw, int m, const Booked& b, std::int32_t& place) {
  SwitchState& s = sw_[static_cast<std::size_t>(sw)];
  const std::int64_t slot = cycle_->next_slot(sw, m, s.next_slot);
  if (slot < 0) return;
  if (place < 0) place = booking_place(b.from, b.to);
  std::int64_t& booked =
      booked_[static_cast<std::size_t>(place) * static_cast<std::size_t>(f_.ocs) +
              static_cast<std::size_t>(sw)];
  if (booked >= s.next_slot) return;  // already booked, for that same slot
  booked = slot;
  SwitchState::Due& due = s.due[static_cast<std::size_t>(slot % cycle_->period())];
  if (due.slot != slot) {  // bookings of a slot that was skipped, or none
    due.slot = slot;
    due.directions.clear();
  }
  due.directions.push_back(b);
}

// Where from -> to keeps its bookings: its first booking on any OCS gives the direction a place,
// σ slots in booked_ (the slot booked on each OCS, -1: none yet).
std::int32_t CircuitDispatch::booking_place(int from, int to) {
  std::int32_t& place = booked_at_.place(from, to);
  if (place < 0) {
    const auto ocs = static_cast<std::size_t>(f_.ocs);
    place = static_cast<std::int32_t>(booked_.size() / ocs);
    booked_.resize(booked_.size() + ocs, -1);
  }
  return place;
}

void CircuitDispatch::add_backlog(int from, int to, Queue& q) {
  std::vector<Backlogged>& b = backlog_[static_cast<std::size_t>(from)];
  const auto it = lower_bound_to(b, to);
  if (it != b.end() && it->to == to) return;
  b.insert(it, {to, &q});
  int& at = backlogged_at_[static_cast<std::size_t>(from)];
  if (at >= 0) return;
  at = static_cast<int>(backlogged_.size());
  backlogged_.push_back(from);
}

void CircuitDispatch::drop_backlog(int from, int to) {
  std::vector<Backlogged>& b = backlog_[static_cast<std::size_t>(from)];
  const auto it = lower_bound_to(b, to);
  if (it == b.end() || it->to != to) return;
  b.erase(it);
  if (!b.empty()) return;
  // The last source takes its place.
  int& at = backlogged_at_[static_cast<std::size_t>(from)];
  const int last = backlogged_.back();
  backlogged_[static_cast<std::size_t>(at)] = last;
  backlogged_at_[static_cast<std::size_t>(last)] = at;
  backlogged_.pop_back();
  at = -1;
}

void CircuitDispatch::close(fabric::Engine& e, int sw) {
  SwitchState& s = sw_[static_cast<std::size_t>(sw)];
  if (opt_.used_circuits_only) record_used(s, sw);
  if (!cycle_)
    for (auto [a, b] : s.win->circuits) {
      s.partner[static_cast<std::size_t>(a)] = -1;
      s.partner[static_cast<std::size_t>(b)] = -1;
    }
  for (int g : s.senders) s.sent[static_cast<std::size_t>(g)] = 0;
  s.senders.clear();
  s.open = false;
  s.win.reset();
  fetch(e, sw);
  recover_if_idle(e);
}

void CircuitDispatch::recover_if_idle(fabric::Engine& e) {
  for (const SwitchState& s : sw_)
    if (s.win) return;
  std::vector<std::tuple<int, int, double>> backlog;
  for (const QueueTable* m : {&direct_, &relay_})
    m->for_each([&](int from, int to, const Queue& q) {
      if (!q.empty()) backlog.emplace_back(from, to, q.bytes);
    });
  if (backlog.empty()) return;
  std::sort(backlog.begin(), backlog.end());  // by direction, whatever order the tables hold
  source_.on_idle(backlog, e.now());
  for (int s = 0; s < f_.ocs; ++s) fetch(e, s);
}

void CircuitDispatch::on_timer(fabric::Engine& e, std::int64_t tag) {
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

void CircuitDispatch::on_ready(fabric::Engine& e, int task) {
  source_.on_send_ready(task, e.now());
  const workload::Task& t = w_.tasks[static_cast<std::size_t>(task)];
  Queue& q = direct_(t.src, t.dst);
  q.push({task, start_send(task), t.bytes, e.now()});
  book({t.src, t.dst, &q, nullptr});
  if (opt_.relay) add_backlog(t.src, t.dst, q);
  std::vector<int>& ready = ready_;
  ready.clear();
  for (int s = 0; s < f_.ocs; ++s) {
    SwitchState& st = sw_[static_cast<std::size_t>(s)];
    if (!st.win) fetch(e, s);
    if (st.open && partner(s, t.src) == t.dst) ready.push_back(s);
  }
  // The switch whose port frees first carries the message (then the others, for what is left).
  // A port is free from its window's opening on at the earliest (a rotor window does not visit
  // the ports without bytes when it opens, so their cursors may still be older).
  auto free_at = [&](int s) {
    return std::max(tx_free_[static_cast<std::size_t>(s * n_ + t.src)],
                    sw_[static_cast<std::size_t>(s)].win->up);
  };
  std::stable_sort(ready.begin(), ready.end(),
                   [&](int a, int b) { return free_at(a) < free_at(b); });
  for (int s : ready) pump(e, s, t.src);
  recover_if_idle(e);
}

void CircuitDispatch::pump(fabric::Engine& e, int sw, int from) {
  const int to = partner(sw, from);
  if (to < 0) return;
  // Looked up, not made: most directions a circuit pumps never hold relayed bytes.
  pump_to(e, sw, from, to, opt_.relay ? relay_.find(from, to) : nullptr, direct_(from, to));
}

void CircuitDispatch::pump_to(fabric::Engine& e, int sw, int from, int to, Queue* parked,
                              Queue& own) {
  fabric::Time& cursor = tx_free_[static_cast<std::size_t>(sw * n_ + from)];
  cursor = std::max(cursor, e.now());
  if (opt_.relay) forward_relayed(e, sw, from, to, parked, cursor);
  if (!drain(e, sw, from, to, own, cursor)) return;
  if (opt_.relay) drop_backlog(from, to);
}

// The next hop of `x` on sw's circuit from→to: from max(cursor, x.available), as much as fits
// before the window ends (a zero-byte send still takes α); nullopt if nothing useful fits.
std::optional<fabric::Hop> CircuitDispatch::next_hop(int sw, int from, int to, const Entry& x,
                                                     fabric::Time cursor) const {
  const fabric::Time end = sw_[static_cast<std::size_t>(sw)].win->end;
  const fabric::Time s = std::max(cursor, x.available);
  if (s >= end) return std::nullopt;
  const fabric::Time span = end - s;
  if (x.remaining <= 0) {
    if (span < lt_.alpha) return std::nullopt;
    return fabric::Hop{sw, from, to, s, s + lt_.alpha, 0.0};
  }
  const double cap = lt_.capacity(span);
  if (cap < std::min(x.remaining, 1.0)) return std::nullopt;
  const double take = std::min(cap, x.remaining);
  const fabric::Time dur = take < x.remaining ? span : std::min(span, lt_.duration(take));
  return fabric::Hop{sw, from, to, s, s + dur, take};
}

// Whether sending `b` > 0 of an entry's `remaining` bytes changes them. A rounding residue (a share
// or a grant minus what was sent) below the precision of a large `remaining` moves nothing: sent
// anyway, it would be offered again after every hop, a 1 ps hop at a time to the window's end.
static bool moves_bytes(double remaining, double b) {
  return b <= 0 || remaining - b != remaining;
}

// One hop of at most `limit` bytes of `x` (queued in `q`) on from→to, starting no earlier than
// `cursor`: recorded, taken from the queue, `cursor` moved to its end. The bytes it moved, or
// nothing when the window has no room for another hop.
std::optional<double> CircuitDispatch::send_part(fabric::Engine& e, int sw, int from, int to,
                                                 Queue& q, Entry& x, double limit,
                                                 fabric::Time& cursor) {
  if (!moves_bytes(x.remaining, limit)) return std::nullopt;
  Entry part = x;
  part.remaining = std::min(x.remaining, limit);
  const std::optional<fabric::Hop> h = next_hop(sw, from, to, part, cursor);
  if (!h) return std::nullopt;
  add_hop(e, x.task, *h);
  cursor = h->end;
  return q.take(x, h->bytes, byte_epsilon(w_.tasks[static_cast<std::size_t>(x.task)].bytes));
}

// Sends queue `q` on from→to; true when the queue is empty, false when the window is full.
bool CircuitDispatch::drain(fabric::Engine& e, int sw, int from, int to, Queue& q,
                            fabric::Time& cursor) {
  while (!q.empty()) {
    Entry& x = q.items[q.head];
    const std::optional<double> moved = send_part(e, sw, from, to, q, x, x.remaining, cursor);
    if (!moved) return false;
    if (to == w_.tasks[static_cast<std::size_t>(x.task)].dst) deliver(e, x, *moved, cursor);
    if (x.remaining > 0) return false;
    ++q.head;
  }
  q.reset();
  return true;
}

// RotorLB phase 1a: the bytes parked at `from` for `to` (arrived before this window), shared
// max-min fairly between their original sources on what is left of the window.
void CircuitDispatch::forward_relayed(fabric::Engine& e, int sw, int from, int to, Queue* parked,
                                      fabric::Time& cursor) {
  const fabric::Time start = cursor, end = sw_[static_cast<std::size_t>(sw)].win->end;
  if (parked == nullptr || parked->empty() || start >= end) return;
  Queue& q = *parked;
  std::vector<int>& sources = sources_;
  std::vector<double>&held = held_, &share = share_;
  sources.clear();
  held.clear();
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
  share.resize(held.size());
  fair_share(held, cap, share, share_order_);
  for (Entry& x : q.items) {
    if (x.available > start) continue;
    const std::size_t k = source_of(x);
    double& left = share[k];
    // Relative to what the source holds, not to the link: a source's last sliver is still sent.
    if (left <= byte_epsilon(held[k]) || !moves_bytes(x.remaining, left)) continue;
    const std::optional<double> moved = send_part(e, sw, from, to, q, x, left, cursor);
    if (!moved) break;
    left -= *moved;
    deliver(e, x, *moved, cursor);
  }
  std::erase_if(q.items, [](const Entry& x) { return x.remaining <= 0; });
}

// The queues' records lie scattered over the table: all are asked for before any is read.
void CircuitDispatch::queued_to(const QueueTable& m, int from, std::span<const int> to,
                                std::vector<double>& out) {
  found_.clear();
  for (const int d : to) {
    const Queue* q = m.find(from, d);
    if (q != nullptr) prefetch(q);
    found_.push_back(q);
  }
  read_found(out);
}

void CircuitDispatch::backlogged_to(int from, std::span<const int> to, std::vector<double>& out,
                                    std::vector<Queue*>* queues) {
  const std::vector<Backlogged>& b = backlog_[static_cast<std::size_t>(from)];
  found_.clear();
  std::size_t k = 0;
  for (const int d : to) {
    while (k < b.size() && b[k].to < d) ++k;
    Queue* q = k < b.size() && b[k].to == d ? b[k].queue : nullptr;
    if (q != nullptr) prefetch(q);
    found_.push_back(q);
    if (queues != nullptr) queues->push_back(q);
  }
  read_found(out);
}

void CircuitDispatch::read_found(std::vector<double>& out) const {
  for (const Queue* q : found_) out.push_back(q == nullptr ? 0.0 : std::max(0.0, q->bytes));
}

CircuitDispatch::DirectionIndex::DirectionIndex(int n, std::size_t dense_bytes)
    : n_(n),
      dense_(static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * sizeof(std::int32_t) <=
             dense_bytes) {
  if (dense_)
    index_.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), -1);
  else
    rows_.resize(static_cast<std::size_t>(n));
}

CircuitDispatch::DirectionIndex::Row::const_iterator CircuitDispatch::DirectionIndex::find_in(
    const Row& row, int to) {
  return std::lower_bound(row.begin(), row.end(), to,
                          [](const std::pair<int, std::int32_t>& e, int t) { return e.first < t; });
}

std::int32_t& CircuitDispatch::DirectionIndex::place(int from, int to) {
  if (dense_)
    return index_[static_cast<std::size_t>(from) * static_cast<std::size_t>(n_) +
                  static_cast<std::size_t>(to)];
  Row& row = rows_[static_cast<std::size_t>(from)];
  auto it = find_in(row, to);
  if (it == row.end() || it->first != to) it = row.insert(it, {to, -1});
  return row[static_cast<std::size_t>(it - row.begin())].second;
}

std::int32_t CircuitDispatch::DirectionIndex::find(int from, int to) const {
  if (dense_)
    return index_[static_cast<std::size_t>(from) * static_cast<std::size_t>(n_) +
                  static_cast<std::size_t>(to)];
  const Row& row = rows_[static_cast<std::size_t>(from)];
  const auto it = find_in(row, to);
  return it != row.end() && it->first == to ? it->second : -1;
}

CircuitDispatch::Queue& CircuitDispatch::QueueTable::operator()(int from, int to) {
  std::int32_t& i = index_.place(from, to);
  if (i < 0) {
    i = static_cast<std::int32_t>(queues_.size());
    queues_.emplace_back();
    directions_.emplace_back(from, to);
  }
  return queues_[static_cast<std::size_t>(i)];
}

const CircuitDispatch::Queue* CircuitDispatch::QueueTable::find(int from, int to) const {
  const std::int32_t i = index_.find(from, to);
  return i < 0 ? nullptr : &queues_[static_cast<std::size_t>(i)];
}

CircuitDispatch::Queue* CircuitDispatch::QueueTable::find(int from, int to) {
  return const_cast<Queue*>(std::as_const(*this).find(from, to));
}

// RotorLB's offer, accept and phase 2 for the slot whose windows opened now (rotor_lb.hpp).
void CircuitDispatch::balance(fabric::Engine& e) {
  std::vector<Link>& links = links_;
  links.clear();
  for (int sw = 0; sw < f_.ocs; ++sw) {
    const SwitchState& st = sw_[static_cast<std::size_t>(sw)];
    if (!st.open || st.win->up != e.now()) continue;
    for (int a : backlogged_)  // a sender without a backlog offers nothing
      if (const int b = partner(sw, a); b >= 0) links.push_back({b, a, sw});
  }
  std::sort(links.begin(), links.end());  // grouped by receiver, senders in increasing id
  std::vector<Grant>& grants = grants_;
  grants.clear();
  for (std::size_t g = 0, next = 0; g < links.size(); g = next) {
    const int r = links[g].to;
    for (next = g; next < links.size() && links[next].to == r;) ++next;
    std::vector<int>& cols = cols_;  // final destinations any neighbour of r has a backlog for
    cols.clear();
    for (std::size_t l = g; l < next; ++l)
      for (const Backlogged& b : backlog_[static_cast<std::size_t>(links[l].from)])
        if (b.to != r) cols.push_back(b.to);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    if (cols.empty()) continue;
    const Window& win = *sw_[static_cast<std::size_t>(links[g].sw)].win;
    const double slot_cap = lt_.capacity(win.end - win.up);
    own_.clear();
    held_for_.clear();
    backlogged_to(r, cols, own_);
    queued_to(relay_, r, cols, held_for_);
    room_.resize(cols.size());
    for (std::size_t k = 0; k < cols.size(); ++k)
      room_[k] = std::max(0.0, slot_cap - own_[k] - held_for_[k]);
    offers_.clear();
    offered_.clear();
    spare_.clear();
    for (std::size_t l = g; l < next; ++l) {
      const Link& k = links[l];
      backlogged_to(k.from, cols, offers_, &offered_);
      const fabric::Time cursor =
          std::max(tx_free_[static_cast<std::size_t>(k.sw * n_ + k.from)], e.now());
      const Window& kw = *sw_[static_cast<std::size_t>(k.sw)].win;
      spare_.push_back(cursor < kw.end ? lt_.capacity(kw.end - cursor) : 0.0);
    }
    accepted_.resize(offers_.size());
    rotorlb_accept(offers_, spare_, room_, byte_epsilon(slot_cap), accepted_, accept_);
    for (std::size_t l = g; l < next; ++l)
      for (std::size_t c = 0; c < cols.size(); ++c)
        if (const std::size_t k = (l - g) * cols.size() + c; accepted_[k] > byte_epsilon(slot_cap))
          grants.push_back({links[l].from, r, cols[c], links[l].sw, accepted_[k], offered_[k]});
  }
  // Phase 2: each sender in turn, its receivers in increasing id (a sender offered its whole
  // backlog to every neighbour, so later grants are cut to what is still queued).
  std::sort(grants.begin(), grants.end());
  for (const Grant& gr : grants) {
    // An accepted offer is of bytes queued: its queue was read from the backlog.
    Queue& q = gr.queue != nullptr ? *gr.queue : direct_(gr.from, gr.d);
    if (send_relayed(e, gr.sw, gr.from, gr.to, gr.d, gr.bytes, q)) drop_backlog(gr.from, gr.d);
  }
}

// Sends up to `amount` of from's own bytes for `d` (its queue `q`) on sw's circuit from→to, parked
// at `to` until the next slot; true when from has no bytes left queued for `d`.
bool CircuitDispatch::send_relayed(fabric::Engine& e, int sw, int from, int to, int d,
                                   double amount, Queue& q) {
  fabric::Time& cursor = tx_free_[static_cast<std::size_t>(sw * n_ + from)];
  cursor = std::max(cursor, e.now());
  const fabric::Time end = sw_[static_cast<std::size_t>(sw)].win->end;
  double sent = 0;
  Queue* parked = nullptr;  // made by the first part sent
  while (!q.empty() && amount - sent > byte_epsilon(amount)) {
    Entry& x = q.items[q.head];
    const std::optional<double> moved = send_part(e, sw, from, to, q, x, amount - sent, cursor);
    if (!moved) break;
    if (parked == nullptr) parked = &relay_(to, d);
    parked->push({x.task, x.send, *moved, end});
    sent += *moved;
    if (x.remaining <= 0) ++q.head;
  }
  if (parked != nullptr) book({to, d, nullptr, parked});  // once: a second booking does nothing
  if (!q.empty()) return false;
  q.reset();
  return true;
}

void CircuitDispatch::add_hop(fabric::Engine& e, int task, const fabric::Hop& h) {
  e.add_hop(task, h);
  if (!opt_.used_circuits_only) return;
  SwitchState& s = sw_[static_cast<std::size_t>(h.sw)];
  if (s.sent[static_cast<std::size_t>(h.from)]) return;
  s.sent[static_cast<std::size_t>(h.from)] = 1;
  s.senders.push_back(h.from);
}

// The circuits of the open window of `s` that carried a hop in either direction.
void CircuitDispatch::record_used(const SwitchState& s, int sw) {
  if (cycle_) {  // in the matching's order, as below: the circuits with an end that sent
    std::vector<int>& used = used_;
    used.clear();
    // With duplex circuits a GPU's circuit_of is the circuit of either of its ends, so its
    // circuit_into adds nothing (and would cost another miss in an n · M table).
    const bool duplex = f_.circuit == fabric::CircuitKind::duplex;
    for (int g : s.senders) {
      if (const int c = cycle_->circuit_of(s.win->matching, g); c >= 0) used.push_back(c);
      if (duplex) continue;
      if (const int c = cycle_->circuit_into(s.win->matching, g); c >= 0) used.push_back(c);
    }
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    for (int c : used) {
      const auto [a, b] = cycle_->matching(s.win->matching)[static_cast<std::size_t>(c)];
      circuits_.add(s.win->up, s.win->end, sw, a, b);
    }
    return;
  }
  for (auto [a, b] : s.win->circuits)
    if (s.sent[static_cast<std::size_t>(a)] || s.sent[static_cast<std::size_t>(b)])
      circuits_.add(s.win->up, s.win->end, sw, a, b);
}

int CircuitDispatch::start_send(int task) {
  int slot;
  if (free_sends_.empty()) {
    slot = static_cast<int>(sends_.size());
    sends_.emplace_back();
  } else {
    slot = free_sends_.back();
    free_sends_.pop_back();
  }
  sends_[static_cast<std::size_t>(slot)] = {task, w_.tasks[static_cast<std::size_t>(task)].bytes,
                                            0};
  return slot;
}

// Bytes of x's send reached its destination. Once its completion is scheduled the send gives its
// slot back: a sliver of it still queued (a rest below the rounding epsilon) then finds the slot
// free or another task's, and moves nothing more than its bytes.
void CircuitDispatch::deliver(fabric::Engine& e, const Entry& x, double bytes, fabric::Time end) {
  Send& s = sends_[static_cast<std::size_t>(x.send)];
  if (s.task != x.task) return;
  s.undelivered -= bytes;
  s.last_end = std::max(s.last_end, end);
  if (s.undelivered <= byte_epsilon(w_.tasks[static_cast<std::size_t>(x.task)].bytes)) {
    e.complete_send(x.task, s.last_end);
    s.task = -1;
    free_sends_.push_back(x.send);
  }
}

CircuitLog CircuitDispatch::take_circuits() {
  circuits_.mark_open();
  if (opt_.used_circuits_only)  // windows still open when the iteration ended
    for (std::size_t sw = 0; sw < sw_.size(); ++sw)
      if (sw_[sw].open) record_used(sw_[sw], static_cast<int>(sw));
  return std::exchange(circuits_, {});
}

fabric::ScheduleRun run_dispatch(const workload::Workload& w, const fabric::Fabric& f,
                                 WindowSource& source, const DispatchOptions& opt,
                                 const std::string& name) {
  fabric::ScheduleRun run;
  CircuitLog circuits;
  {
    CircuitDispatch dispatch(w, f, source, opt);
    fabric::Engine engine(w, dispatch, fabric::TraceParts::hops);
    run = run_scheduler(engine, name, opt.progress ? *opt.progress : no_progress());
    circuits = dispatch.take_circuits();
  }
  // The records are written out once the dispatch's queues are gone and their pages given back:
  // the written list is the largest array of the run after the hops.
  release_free_heap();
  run.schedule.circuits = circuits.take(run.schedule.iteration_time);
  return run;
}

}  // namespace flux::fabric_baselines
