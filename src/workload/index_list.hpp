#pragma once
// A task's predecessor list (indices into Workload::tasks) in 16 bytes: up to three indices are
// kept inline, longer lists in one heap block. Most tasks wait for one to three others, so the
// 1,024-GPU iteration (18.5 M tasks) needs no heap block for almost any of them, where a
// std::vector<int> took 24 bytes plus a 32-byte block each. The interface is the part of
// std::vector that workloads use; the order of the indices is kept.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <span>
#include <vector>

namespace flux::workload {

class IndexList {
 public:
  IndexList() = default;
  IndexList(std::initializer_list<int> v) { assign(v.begin(), v.end()); }
  IndexList(const IndexList& o) { assign(o.begin(), o.end()); }
  IndexList(IndexList&& o) noexcept { take(o); }
  IndexList& operator=(const IndexList& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  IndexList& operator=(IndexList&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  IndexList& operator=(const std::vector<int>& v) {
    assign(v.begin(), v.end());
    return *this;
  }
  IndexList& operator=(std::initializer_list<int> v) {
    assign(v.begin(), v.end());
    return *this;
  }
  ~IndexList() { release(); }

  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] int* data() { return heap_ ? block() + 1 : words_; }
  [[nodiscard]] const int* data() const { return heap_ ? block() + 1 : words_; }
  [[nodiscard]] int* begin() { return data(); }
  [[nodiscard]] int* end() { return data() + size_; }
  [[nodiscard]] const int* begin() const { return data(); }
  [[nodiscard]] const int* end() const { return data() + size_; }
  [[nodiscard]] int& operator[](std::size_t i) { return data()[i]; }
  [[nodiscard]] int operator[](std::size_t i) const { return data()[i]; }
  [[nodiscard]] int front() const { return data()[0]; }
  [[nodiscard]] int back() const { return data()[size_ - 1]; }
  operator std::span<const int>() const { return {data(), size_}; }  // NOLINT: a view, as vector's

  void reserve(std::size_t n) {
    if (n > capacity()) grow(n);
  }
  void push_back(int v) {
    if (size_ == capacity()) grow(2 * static_cast<std::size_t>(size_));
    data()[size_++] = v;
  }
  void clear() {
    release();
    size_ = 0;
    heap_ = 0;
  }
  template <class It>
  void assign(It first, It last) {
    clear();
    reserve(static_cast<std::size_t>(std::distance(first, last)));
    for (; first != last; ++first) data()[size_++] = *first;
  }
  // Removes [first, last), as std::vector::erase.
  int* erase(int* first, int* last) {
    int* const kept_end = std::copy(last, end(), first);
    size_ = static_cast<std::uint32_t>(kept_end - data());
    return first;
  }

  friend bool operator==(const IndexList& a, const IndexList& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const IndexList& a, const std::vector<int>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend std::ostream& operator<<(std::ostream& os, const IndexList& l) {
    os << '{';
    for (std::size_t i = 0; i < l.size(); ++i) os << (i ? ", " : "") << l[i];
    return os << '}';
  }

 private:
  static constexpr std::size_t kInline = 3;
  // A heap block is [capacity, indices...]; its address lives in the first two words (copied,
  // never aliased: the words are only 4-byte aligned).
  [[nodiscard]] int* block() const {
    int* p = nullptr;
    std::copy_n(reinterpret_cast<const char*>(words_), sizeof p, reinterpret_cast<char*>(&p));
    return p;
  }
  [[nodiscard]] std::size_t capacity() const {
    return heap_ ? static_cast<std::size_t>(block()[0]) : kInline;
  }
  void release() {
    if (heap_) delete[] block();
  }
  void take(IndexList& o) {
    std::copy(o.words_, o.words_ + kInline, words_);
    size_ = o.size_;
    heap_ = o.heap_;
    o.size_ = 0;
    o.heap_ = 0;
  }
  // Moves the contents into a heap block for at least n indices.
  void grow(std::size_t n) {
    const std::size_t cap = std::max<std::size_t>(n, 2 * kInline);
    int* fresh = new int[cap + 1];
    fresh[0] = static_cast<int>(cap);
    std::copy(begin(), end(), fresh + 1);
    release();
    std::copy_n(reinterpret_cast<const char*>(&fresh), sizeof fresh,
                reinterpret_cast<char*>(words_));
    heap_ = 1;
  }

  int words_[kInline] = {};
  std::uint32_t size_ : 31 = 0;
  std::uint32_t heap_ : 1 = 0;
};

}  // namespace flux::workload
