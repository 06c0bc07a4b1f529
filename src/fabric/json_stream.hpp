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
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/short_decimal.hpp"

namespace flux::fabric {

// Appends one value as nlohmann's dump() writes it.
inline void append_json(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[64];
  char* end = write_short_decimal(buf, v, WholeNumber::point_zero);  // most times and sizes
  if (end == nullptr) end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);  // its grisu2
  out.append(buf, static_cast<std::size_t>(end - buf));
}

template <class Int, std::enable_if_t<std::is_integral_v<Int>, int> = 0>
void append_json(std::string& out, Int v) {
  char buf[24];
  const char* end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  out.append(buf, static_cast<std::size_t>(end - buf));
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
  void add_key(std::string_view key) {
    if (!first_) out_.push_back(',');
    first_ = false;
    out_.push_back('"');
    out_.append(key.data(), key.size());
    out_.push_back('"');
    out_.push_back(':');
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
