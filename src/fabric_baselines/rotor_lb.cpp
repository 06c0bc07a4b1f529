#include "fabric_baselines/rotor_lb.hpp"

#include <algorithm>
#include <numeric>
#include <span>

namespace flux::fabric_baselines {

void fair_share(std::span<const double> demand, double capacity, std::span<double> out,
                std::vector<std::size_t>& order) {
  std::fill(out.begin(), out.end(), 0.0);
  order.clear();
  for (std::size_t i = 0; i < demand.size(); ++i)
    if (demand[i] > 0.0) order.push_back(i);
  // Increasing demand, ties in index order: the order of a stable sort, without its buffer.
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return demand[a] < demand[b] || (demand[a] == demand[b] && a < b);
  });
  double left = std::max(capacity, 0.0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const double share = left / static_cast<double>(order.size() - k);
    if (demand[order[k]] <= share) {  // served in full; its unused share goes to the larger ones
      out[order[k]] = demand[order[k]];
      left -= demand[order[k]];
      continue;
    }
    for (std::size_t r = k; r < order.size(); ++r) out[order[r]] = share;
    break;
  }
}

std::vector<double> fair_share(const std::vector<double>& demand, double capacity) {
  std::vector<double> out(demand.size());
  std::vector<std::size_t> order;
  fair_share(demand, capacity, out, order);
  return out;
}

namespace {

double sum(std::span<const double> v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

}  // namespace

void rotorlb_accept(std::span<const double> offers, std::span<const double> link,
                    std::span<double> room, double eps, std::span<double> accepted,
                    AcceptScratch& scratch) {
  const std::size_t senders = link.size(), cols = room.size();
  // Sender after sender, a row of `cols` each: what it had accepted and what it offers.
  std::fill(accepted.begin(), accepted.end(), 0.0);
  std::vector<double>& offer = scratch.offer;
  offer.assign(senders * cols, 0.0);
  const auto row = [&](std::span<double> m, std::size_t s) { return m.subspan(s * cols, cols); };
  std::vector<double>& rest = scratch.rest;
  rest.resize(cols);
  scratch.column.resize(senders);
  scratch.take.resize(senders);
  const std::span<double> column(scratch.column), take(scratch.take);
  // What sender s still offers to the open columns, scaled to what is left of its link.
  auto scale_offer = [&](std::size_t s) {
    const std::span<const double> got = row(accepted, s), wants = offers.subspan(s * cols, cols);
    for (std::size_t k = 0; k < cols; ++k)
      rest[k] = room[k] > eps && wants[k] - got[k] > eps ? wants[k] - got[k] : 0.0;
    const double spare = link[s] - sum(got);
    if (spare > eps)
      fair_share(rest, spare, row(offer, s), scratch.order);
    else
      std::fill_n(offer.begin() + static_cast<std::ptrdiff_t>(s * cols), cols, 0.0);
  };
  for (std::size_t s = 0; s < senders; ++s) scale_offer(s);
  // Each round either fills a column's room (which closes it) or places every scaled offer in
  // full (which leaves each sender with no link or no offer): at most cols + 1 rounds.
  for (std::size_t round = 0; round <= cols; ++round) {
    bool placed = false;
    for (std::size_t k = 0; k < cols; ++k) {
      for (std::size_t s = 0; s < senders; ++s) column[s] = offer[s * cols + k];
      if (sum(column) <= eps) continue;
      placed = true;
      fair_share(column, room[k], take, scratch.order);
      room[k] -= sum(take);
      for (std::size_t s = 0; s < senders; ++s) accepted[s * cols + k] += take[s];
    }
    if (!placed) break;
    for (std::size_t s = 0; s < senders; ++s) scale_offer(s);
  }
}

std::vector<std::vector<double>> rotorlb_accept(const std::vector<std::vector<double>>& offers,
                                                const std::vector<double>& link,
                                                std::vector<double> room, double eps) {
  const std::size_t cols = room.size();
  std::vector<double> rows;
  for (const std::vector<double>& o : offers) rows.insert(rows.end(), o.begin(), o.end());
  std::vector<double> accepted(offers.size() * cols);
  AcceptScratch scratch;
  rotorlb_accept(rows, link, room, eps, accepted, scratch);
  std::vector<std::vector<double>> out(offers.size());
  for (std::size_t s = 0; s < offers.size(); ++s)
    out[s].assign(accepted.begin() + static_cast<std::ptrdiff_t>(s * cols),
                  accepted.begin() + static_cast<std::ptrdiff_t>((s + 1) * cols));
  return out;
}

}  // namespace flux::fabric_baselines
