#include "workload/tag.hpp"

#include <array>
#include <cstring>
#include <mutex>
#include <unordered_set>

namespace flux::workload {

namespace {

const std::string* intern(std::string_view s) {
  static std::mutex mutex;
  static std::unordered_set<std::string> table;  // nodes: pointers stay valid on rehash
  const std::lock_guard<std::mutex> lock(mutex);
  return &*table.emplace(s).first;
}

// The generators tag millions of tasks with a few strings in turn: a small per-thread cache of
// the last ones saves the lock and the hash on almost every task.
const std::string* cached_intern(std::string_view s) {
  struct Entry {
    const std::string* str = nullptr;
  };
  thread_local std::array<Entry, 8> cache{};
  thread_local std::size_t next = 0;
  for (const Entry& e : cache)
    if (e.str != nullptr && *e.str == s) return e.str;
  const std::string* p = intern(s);
  cache[next] = {p};
  next = (next + 1) % cache.size();
  return p;
}

}  // namespace

Tag::Tag(std::string_view s) : s_(s.empty() ? nullptr : cached_intern(s)) {}

const std::string& Tag::str() const {
  static const std::string empty;
  return s_ == nullptr ? empty : *s_;
}

}  // namespace flux::workload
