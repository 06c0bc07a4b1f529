#pragma once
// A growable array of a trivially copyable type kept in one malloc block and grown with realloc.
// For the arrays of tens of millions of records a simulation logs, this matters twice over:
// glibc serves a large block with its own mapping and grows it by remapping the pages, so growth
// never holds an old and a new copy at once (std::vector does, for a moment, at every doubling);
// and the capacity beyond size() is never written, so its pages cost address space, not memory.
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

namespace flux {

template <typename T>
class ReallocArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  ReallocArray() = default;
  ReallocArray(const ReallocArray& other) { append(other.data(), other.size()); }
  ReallocArray(ReallocArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  ReallocArray& operator=(ReallocArray other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }
  ~ReallocArray() { std::free(data_); }

  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] std::size_t capacity() const { return capacity_; }
  [[nodiscard]] T* data() { return data_; }
  [[nodiscard]] const T* data() const { return data_; }
  [[nodiscard]] T& operator[](std::size_t i) { return data_[i]; }
  [[nodiscard]] const T& operator[](std::size_t i) const { return data_[i]; }
  [[nodiscard]] operator std::span<T>() { return {data_, size_}; }
  [[nodiscard]] operator std::span<const T>() const { return {data_, size_}; }

  void push_back(const T& value) {
    if (size_ == capacity_) reserve(grown_capacity());
    ::new (static_cast<void*>(data_ + size_)) T(value);
    ++size_;
  }
  // Grows to n elements; the new ones are uninitialised (to be assigned before they are read).
  void resize_for_overwrite(std::size_t n) {
    if (n > capacity_) reserve(n);
    size_ = n;
  }
  // Keeps the first n elements and gives the rest of the block back (a large block's pages go
  // back to the system at once).
  void truncate(std::size_t n) {
    if (n >= size_) return;
    size_ = n;
    if (n == 0) {
      std::free(std::exchange(data_, nullptr));
      capacity_ = 0;
    } else if (void* kept = std::realloc(data_, n * sizeof(T))) {
      data_ = static_cast<T*>(kept);
      capacity_ = n;
    }
  }
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
    void* grown = std::realloc(data_, n * sizeof(T));
    if (grown == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(grown);
    capacity_ = n;
  }

 private:
  // Doubling, except that an array past 1 MB reserves 64 MB at once: a block that large is
  // always glibc's own mapping (its threshold is at most 32 MB), grown by remapping its pages,
  // where a smaller block in the heap is copied at every doubling it cannot do in place. The
  // reserved pages cost address space until written.
  [[nodiscard]] std::size_t grown_capacity() const {
    constexpr std::size_t kMapped = std::size_t{64} << 20, kLarge = std::size_t{1} << 20;
    if (capacity_ < 16) return 16;
    if (capacity_ * sizeof(T) < kLarge || 2 * capacity_ * sizeof(T) >= kMapped)
      return 2 * capacity_;
    return kMapped / sizeof(T);
  }
  void append(const T* from, std::size_t n) {
    reserve(size_ + n);
    if (n > 0) std::memcpy(static_cast<void*>(data_ + size_), from, n * sizeof(T));
    size_ += n;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace flux
