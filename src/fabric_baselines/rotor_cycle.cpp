#include "fabric_baselines/rotor_cycle.hpp"

#include <numeric>

namespace flux::fabric_baselines {

RotorCycle::RotorCycle(std::vector<Matching> matchings, int gpus, int ocs, bool duplex)
    : matchings_(std::move(matchings)), n_(gpus), ocs_(ocs), duplex_(duplex) {
  const std::size_t n = static_cast<std::size_t>(n_);
  const std::size_t m_count = matchings_.size();
  partner_.assign(m_count * n, -1);
  circuit_.assign(m_count * n, -1);
  into_.assign(m_count * n, -1);
  pair_matching_.assign(n * n, -1);
  for (std::size_t m = 0; m < m_count; ++m) {
    const int mi = static_cast<int>(m);
    for (std::size_t c = 0; c < matchings_[m].size(); ++c) {
      const auto [a, b] = matchings_[m][c];
      partner_[at(mi, a)] = b;
      circuit_[at(mi, a)] = static_cast<int>(c);
      into_[at(mi, b)] = static_cast<int>(c);
      pair_matching_[static_cast<std::size_t>(a) * n + static_cast<std::size_t>(b)] = mi;
      if (!duplex_) continue;
      partner_[at(mi, b)] = a;
      circuit_[at(mi, b)] = static_cast<int>(c);
      pair_matching_[static_cast<std::size_t>(b) * n + static_cast<std::size_t>(a)] = mi;
    }
  }
  if (m_count == 0) return;
  // Slot s of OCS k holds (s·σ + k) mod M: the slots repeat every M / gcd(σ, M), and within
  // that period no matching comes twice.
  const std::int64_t m_total = static_cast<std::int64_t>(m_count);
  step_ = static_cast<int>(ocs_ % m_total);
  period_ = m_total / std::gcd(std::int64_t{ocs_}, m_total);
  first_.assign(static_cast<std::size_t>(ocs_) * m_count, -1);
  for (int sw = 0; sw < ocs_; ++sw)
    for (std::int64_t s = period_ - 1; s >= 0; --s)
      first_[static_cast<std::size_t>(sw) * m_count +
             static_cast<std::size_t>(matching_at(sw, s))] = s;
}

int RotorCycle::matching_at(int sw, std::int64_t slot) const {
  return static_cast<int>((slot * ocs_ + sw) % static_cast<std::int64_t>(matchings_.size()));
}

int RotorCycle::order(int m, int gpu) const {
  const int c = circuit_of(m, gpu);
  if (!duplex_) return c;
  // gpu is the circuit's b end when the circuit into it is c. Reading into_ beside circuit_,
  // not the matching's pair at c, lets both loads miss at once.
  return 2 * c + (circuit_into(m, gpu) == c ? 1 : 0);
}

std::int64_t RotorCycle::next_slot(int sw, int m, std::int64_t slot) const {
  const std::int64_t s0 =
      first_[static_cast<std::size_t>(sw) * matchings_.size() + static_cast<std::size_t>(m)];
  if (s0 < 0) return -1;
  // (s0 - slot) mod period, in [0, period): one division, where a second made it non-negative.
  const std::int64_t ahead = (s0 - slot) % period_;
  return slot + (ahead < 0 ? ahead + period_ : ahead);
}

}  // namespace flux::fabric_baselines
