#pragma once
// Validated navigation of a parsed JSON document. Every accessor either returns a value of the
// requested type and range or throws InputError naming the file, the JSON pointer and what was
// expected, so readers never crash or guess on bad input.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace flux {

class FileReader;

class JsonNode {
 public:
  JsonNode(std::shared_ptr<const nlohmann::json> doc, const nlohmann::json* node,
           std::shared_ptr<const std::string> file, std::string pointer);

  // Parses `path`; a missing file or a syntax error is an InputError.
  static JsonNode load(const std::string& path);
  static JsonNode parse(const std::string& text, const std::string& file_label);
  // Parses with nlohmann's callback, which may drop values as they are parsed (see its docs),
  // from a text or from a file read as it is parsed.
  static JsonNode parse(const std::string& text, const std::string& file_label,
                        const nlohmann::json::parser_callback_t& callback);
  static JsonNode parse(FileReader& in, const std::string& file_label,
                        const nlohmann::json::parser_callback_t& callback);
  // A node of a document the caller keeps alive, at `pointer` in `file`.
  static JsonNode wrap(const nlohmann::json& node, std::shared_ptr<const std::string> file,
                       std::string pointer);

  JsonNode operator[](std::string_view key) const;  // required member
  std::optional<JsonNode> find(std::string_view key) const;
  bool has(std::string_view key) const;
  JsonNode at(std::size_t index) const;
  std::size_t size() const;  // requires an array

  bool is_array() const { return node_->is_array(); }
  bool is_object() const { return node_->is_object(); }
  bool is_number() const { return node_->is_number(); }
  double number() const;        // finite
  double non_negative() const;  // finite, >= 0
  double positive() const;      // finite, > 0
  double seconds() const;       // a time in [0, kMaxSeconds] (core/limits.hpp)
  double bytes() const;         // a byte count in [0, kMaxBytes]
  std::int64_t integer(std::int64_t lo, std::int64_t hi) const;  // integral, in [lo, hi]
  std::string string() const;
  bool boolean() const;

  // Requires an object whose every key is in `allowed`: a misspelt optional field is an error, not
  // a silently ignored default.
  void expect_keys(std::initializer_list<std::string_view> allowed) const;

  // Checks `"format": "<name>/<version>"`.
  void expect_format(std::string_view name, int version) const;

  [[noreturn]] void fail(const std::string& expected) const;
  std::string pointer() const { return key_ == nullptr ? base_ : base_ + "/" + *key_; }
  const std::string& file() const { return *file_; }
  const nlohmann::json& raw() const { return *node_; }

 private:
  JsonNode(const JsonNode& parent, const nlohmann::json* node, const std::string* key);
  std::string describe() const;
  std::shared_ptr<const nlohmann::json> doc_;
  const nlohmann::json* node_;
  std::shared_ptr<const std::string> file_;
  // The JSON pointer is base_, then "/" and *key_ for an object's member: the key is the
  // document's own, so reading a member copies no string longer than its parent's pointer.
  std::string base_;
  const std::string* key_ = nullptr;
};

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points above
// U+10FFFF). Names read from non-JSON formats are checked with it before they can reach a JSON
// writer, which would otherwise write a file no JSON reader accepts.
[[nodiscard]] bool is_utf8(std::string_view text);

}  // namespace flux
