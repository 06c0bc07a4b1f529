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

inline constexpr std::size_t kCacheLine = 64;  // bytes, on the x86-64 and ARM cores this runs on

// Asks for every cache line of *p: a record may straddle two or three lines (a 96-byte task at a
// 16-byte aligned place does), and the fields a loop reads may lie on any of them.
template <typename T>
inline void prefetch_object(const T* p) {
  const auto* first = reinterpret_cast<const char*>(p);
  for (std::size_t at = 0; at < sizeof(T); at += kCacheLine) prefetch(first + at);
  prefetch(first + sizeof(T) - 1);
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
