#pragma once
// JSON written element by element into a stream: large outputs (a 1,024-GPU rotor run's timeline
// has millions of events) would take several GB as one nlohmann DOM, and hundreds of MB as one
// string (plus its copies while it grows); streamed to the file they take neither. Elements are
// written as compact text straight into a buffer (JsonObject), byte-identical to nlohmann's
// dump() of the same values: building and dumping a DOM per element cost more than the rest of a
// simulation. O(size of the output).
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/short_decimal.hpp"

namespace flux::fabric {

// Writes one number as nlohmann's dump() writes it to `out` (64 bytes free); returns the end.
inline char* write_json_number(char* out, double v) {
  if (!std::isfinite(v)) {
    std::memcpy(out, "null", 4);
    return out + 4;
  }
  char* end = write_short_decimal(out, v, WholeNumber::point_zero);  // most times and sizes
  return end != nullptr ? end : nlohmann::detail::to_chars(out, out + 64, v);  // its grisu2
}

template <class Int, std::enable_if_t<std::is_integral_v<Int>, int> = 0>
char* write_json_number(char* out, Int v) {
  return std::to_chars(out, out + 24, v).ptr;
}

// Appends one value as nlohmann's dump() writes it.
template <class Number, std::enable_if_t<std::is_arithmetic_v<Number>, int> = 0>
void append_json(std::string& out, Number v) {
  char buf[64];
  out.append(buf, static_cast<std::size_t>(write_json_number(buf, v) - buf));
}

inline void append_json(std::string& out, std::string_view s) {
  for (char c : s)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 ||
        static_cast<unsigned char>(c) >= 0x80) {  // escapes and UTF-8 checks: nlohmann's rules
      out += nlohmann::ordered_json(std::string(s)).dump();
      return;
    }
  out.push_back('"');
  out.append(s.data(), s.size());
  out.push_back('"');
}

class JsonArray;

// One object written field by field into `out`; keys are plain ASCII literals. close() ends it.
class JsonObject {
 public:
  explicit JsonObject(std::string& out) : out_(out) { out_ += '{'; }
  template <class T>
  JsonObject& field(std::string_view key, const T& value) {
    if constexpr (std::is_arithmetic_v<T>) {
      if (key.size() <= kShortKey) {  // the separator, the key and the number in one append
        char buf[kShortKey + 8 + 64];
        char* end = write_json_number(write_key(buf, key), value);
        out_.append(buf, static_cast<std::size_t>(end - buf));
        return *this;
      }
    }
    add_key(key);
    append_json(out_, value);
    return *this;
  }
  // A nested object under `key`; close it before adding to this one.
  [[nodiscard]] JsonObject object(std::string_view key) {
    add_key(key);
    return JsonObject(out_);
  }
  // A nested array under `key`; close it before adding to this one.
  [[nodiscard]] JsonArray array(std::string_view key);
  void close() { out_ += '}'; }

 private:
  static constexpr std::size_t kShortKey = 48;
  // Writes `,"key":` (no comma before the first) to `out`, which has key.size() + 4 bytes free.
  char* write_key(char* out, std::string_view key) {
    *out = ',';
    out += first_ ? 0 : 1;
    first_ = false;
    *out++ = '"';
    std::memcpy(out, key.data(), key.size());
    out += key.size();
    *out++ = '"';
    *out++ = ':';
    return out;
  }
  void add_key(std::string_view key) {
    const std::size_t at = out_.size();
    out_.resize(at + key.size() + 4);
    out_.resize(static_cast<std::size_t>(write_key(out_.data() + at, key) - out_.data()));
  }
  std::string& out_;
  bool first_ = true;
};

// One array of objects written into `out`; close() ends it.
class JsonArray {
 public:
  explicit JsonArray(std::string& out) : out_(out) { out_ += '['; }
  // The next element; close it before the one after.
  [[nodiscard]] JsonObject object() {
    if (!first_) out_ += ',';
    first_ = false;
    return JsonObject(out_);
  }
  void close() { out_ += ']'; }

 private:
  std::string& out_;
  bool first_ = true;
};

inline JsonArray JsonObject::array(std::string_view key) {
  add_key(key);
  return JsonArray(out_);
}

// Text appended to a buffer that goes to `out` a megabyte at a time: one write per chunk instead
// of one per record, and no copy of the whole file in memory.
class BufferedText {
 public:
  explicit BufferedText(std::ostream& out) : out_(out) {}
  BufferedText(const BufferedText&) = delete;
  BufferedText& operator=(const BufferedText&) = delete;
  ~BufferedText() { flush(); }
  // Where to append the next record.
  [[nodiscard]] std::string& text() {
    if (buf_.size() >= kChunk) flush();
    return buf_;
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::ostream& out_;
  std::string buf_;
};

class JsonArrayWriter {
 public:
  explicit JsonArrayWriter(std::ostream& out) : out_(out) {}

  void push_back(const nlohmann::ordered_json& element) { next() += element.dump(); }
  // Starts the next element: append its text to the returned buffer.
  [[nodiscard]] std::string& next() {
    std::string& text = out_.text();
    text.push_back(empty_ ? '[' : ',');
    empty_ = false;
    return text;
  }
  // Closes the array ("[]" when nothing was pushed) and writes what is buffered.
  void finish() {
    std::string& text = out_.text();
    if (empty_) text.push_back('[');
    text.push_back(']');
    out_.flush();
  }

 private:
  BufferedText out_;
  bool empty_ = true;
};

}  // namespace flux::fabric
