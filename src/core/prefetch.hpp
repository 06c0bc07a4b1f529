#pragma once
// Loops over records at scattered places (a port's circuits or hops, filed by number; the queues
// of a dispatcher's directions): each record is a cache miss, and the loop's own work is too
// short to hide it. Asking for the records ahead of their use lets the misses overlap instead of
// following one another.
#include <cstddef>
#include <cstdint>
#include <span>

namespace flux {

// Asks the CPU to start loading the cache line at p (a hint: nothing happens where the compiler
// has no way to give it).
inline void prefetch([[maybe_unused]] const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p);
#endif
}

// Calls each(id) for every id in order, after asking for address(id) of the id kAhead places
// further on.
template <typename Address, typename Each>
void for_each_prefetched(std::span<const std::uint32_t> ids, Address&& address, Each&& each) {
  constexpr std::size_t kAhead = 8;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i + kAhead < ids.size()) prefetch(address(ids[i + kAhead]));
    each(ids[i]);
  }
}

}  // namespace flux
