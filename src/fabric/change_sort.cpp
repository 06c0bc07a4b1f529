#include "fabric/change_sort.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace flux::fabric {

namespace {

constexpr std::size_t kSmall = 32;  // buckets this small are sorted by comparisons

void sort_by_order(std::span<Change> records) {
  std::sort(records.begin(), records.end(),
            [](const Change& a, const Change& b) { return a.order() < b.order(); });
}

}  // namespace

std::span<const Change> ChangeSort::operator()(std::span<Change> records) {
  const std::size_t n = records.size();
  if (n <= kSmall || !rank_times(records)) {
    sort_by_order(records);
    return records;
  }
  std::uint64_t gpus = 0;
  for (const Change& c : records) gpus |= c.key >> 35;
  const int place_bits = std::bit_width(n - 1);
  const int low_bits = std::bit_width(gpus) + place_bits;
  if (std::bit_width(times_.size() - 1) + low_bits > 64) {  // not on fewer than 2^16 GPUs
    sort_by_order(records);
    return records;
  }
  packed_.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    packed_[i] = std::uint64_t{rank_[i]} << low_bits | (records[i].key >> 35) << place_bits | i;
  // A record's place stands for its seq: the records are in increasing seq.
  radix_sort_above(place_bits);
  const std::uint64_t place = (std::uint64_t{1} << place_bits) - 1;
  in_order_.resize(n);
  for (std::size_t i = 0; i < n; ++i) in_order_[i] = records[packed_[i] & place];
  return in_order_;
}

bool ChangeSort::rank_times(std::span<const Change> records) {
  const std::size_t n = records.size(), most = n / 4;
  const int bits = std::bit_width(2 * n - 1);  // at least 2n slots: short probe sequences
  if (table_.size() < std::size_t{1} << bits) table_.assign(std::size_t{1} << bits, Slot{});
  if (++generation_ == 0) {  // after 2^32 buckets: the stamps start again
    std::fill(table_.begin(), table_.end(), Slot{});
    generation_ = 1;
  }
  const std::size_t mask = (std::size_t{1} << bits) - 1;
  times_.clear();
  const auto id_of = [&](std::uint64_t time) {
    for (std::size_t h = (time * 0x9E3779B97F4A7C15ULL) >> (64 - bits);; h = (h + 1) & mask) {
      Slot& s = table_[h];
      if (s.generation != generation_) {
        s = {time, static_cast<std::uint32_t>(times_.size()), generation_};
        times_.emplace_back(time, s.id);
        return s.id;
      }
      if (s.time == time) return s.id;
    }
  };
  rank_.resize(n);
  std::uint64_t last = records[0].time_bits();
  std::uint32_t id = id_of(last);
  for (std::size_t i = 0; i < n; ++i) {
    if (const std::uint64_t t = records[i].time_bits(); t != last) {  // runs of one time are common
      id = id_of(t);
      last = t;
      if (times_.size() > most) return false;
    }
    rank_[i] = id;
  }
  std::sort(times_.begin(), times_.end());
  rank_of_id_.resize(times_.size());
  for (std::size_t r = 0; r < times_.size(); ++r)
    rank_of_id_[times_[r].second] = static_cast<std::uint32_t>(r);
  for (std::uint32_t& r : rank_) r = rank_of_id_[r];
  return true;
}

// LSD radix over the bits that vary among the words, in the fewest passes of at most 8 bits;
// stable, so the low bits stay in order among equal high ones. Records of one time often follow
// each other, so consecutive words fall on the same digit and each count (or placement) would
// wait for the one before it: a pass counts and places the two halves of the list as two
// independent chains.
void ChangeSort::radix_sort_above(int bits) {
  const std::size_t n = packed_.size(), half = n / 2;
  std::uint64_t all = ~std::uint64_t{0}, any = 0;
  for (const std::uint64_t k : packed_) all &= k, any |= k;
  const std::uint64_t varies = (all ^ any) >> bits << bits;
  if (varies == 0) return;
  const int low = std::countr_zero(varies), span = std::bit_width(varies) - low;
  const int passes = (span + 7) / 8, width = (span + passes - 1) / passes;
  const std::uint64_t digit = (std::uint64_t{1} << width) - 1;
  radix_.resize(n);
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = low + pass * width;
    const auto digit_of = [&](std::size_t i) { return (packed_[i] >> shift) & digit; };
    std::array<std::uint32_t, 512> next{};  // [half · 256 + digit]: its count, then next place
    for (std::size_t i = 0; i < half; ++i) ++next[digit_of(i)], ++next[256 + digit_of(half + i)];
    if (n % 2 != 0) ++next[256 + digit_of(n - 1)];
    std::uint32_t at = 0;
    for (std::size_t d = 0; d <= digit; ++d)
      for (const std::size_t h : {d, 256 + d}) at += std::exchange(next[h], at);
    const auto place = [&](std::size_t i, std::size_t h) {
      radix_[next[h + digit_of(i)]++] = packed_[i];
    };
    for (std::size_t i = 0; i < half; ++i) place(i, 0), place(half + i, 256);
    if (n % 2 != 0) place(n - 1, 256);
    packed_.swap(radix_);
  }
}

}  // namespace flux::fabric
