#include "fabric_baselines/rotor_lb.hpp"

#include <algorithm>
#include <numeric>

namespace flux::fabric_baselines {

std::vector<double> fair_share(const std::vector<double>& demand, double capacity) {
  std::vector<double> out(demand.size(), 0.0);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < demand.size(); ++i)
    if (demand[i] > 0.0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return demand[a] < demand[b]; });
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
  return out;
}

namespace {

double sum(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

}  // namespace

std::vector<std::vector<double>> rotorlb_accept(const std::vector<std::vector<double>>& offers,
                                                const std::vector<double>& link,
                                                std::vector<double> room, double eps) {
  const std::size_t senders = offers.size(), cols = room.size();
  std::vector<std::vector<double>> accepted(senders, std::vector<double>(cols, 0.0));
  // What sender s still offers to the open columns, scaled to what is left of its link.
  auto scaled_offer = [&](std::size_t s) {
    std::vector<double> rest(cols, 0.0);
    for (std::size_t k = 0; k < cols; ++k)
      if (room[k] > eps && offers[s][k] - accepted[s][k] > eps)
        rest[k] = offers[s][k] - accepted[s][k];
    const double spare = link[s] - sum(accepted[s]);
    return spare > eps ? fair_share(rest, spare) : std::vector<double>(cols, 0.0);
  };
  std::vector<std::vector<double>> offer(senders);
  for (std::size_t s = 0; s < senders; ++s) offer[s] = scaled_offer(s);
  // Each round either fills a column's room (which closes it) or places every scaled offer in
  // full (which leaves each sender with no link or no offer): at most cols + 1 rounds.
  for (std::size_t round = 0; round <= cols; ++round) {
    bool placed = false;
    for (std::size_t k = 0; k < cols; ++k) {
      std::vector<double> column(senders);
      for (std::size_t s = 0; s < senders; ++s) column[s] = offer[s][k];
      if (sum(column) <= eps) continue;
      placed = true;
      const std::vector<double> take = fair_share(column, room[k]);
      room[k] -= sum(take);
      for (std::size_t s = 0; s < senders; ++s) accepted[s][k] += take[s];
    }
    if (!placed) break;
    for (std::size_t s = 0; s < senders; ++s) offer[s] = scaled_offer(s);
  }
  return accepted;
}

}  // namespace flux::fabric_baselines
