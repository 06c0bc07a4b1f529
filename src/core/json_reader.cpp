#include "core/json_reader.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/limits.hpp"

namespace flux {

JsonNode::JsonNode(std::shared_ptr<const nlohmann::json> doc, const nlohmann::json* node,
                   std::shared_ptr<const std::string> file, std::string pointer)
    : doc_(std::move(doc)), node_(node), file_(std::move(file)), base_(std::move(pointer)) {}

JsonNode::JsonNode(const JsonNode& parent, const nlohmann::json* node, const std::string* key)
    : doc_(parent.doc_), node_(node), file_(parent.file_), base_(parent.pointer()), key_(key) {}

JsonNode JsonNode::load(const std::string& path) {
  return parse(read_file(path), path);
}

JsonNode JsonNode::parse(const std::string& text, const std::string& file_label) {
  return parse(text, file_label, nullptr);
}

namespace {

// nlohmann's parse of `input` (a string or a FileReader), its errors as InputErrors.
template <typename Input>
nlohmann::json parse_json(Input& input, const std::string& file_label,
                          const nlohmann::json::parser_callback_t& callback) {
  try {
    return nlohmann::json::parse(input.begin(), input.end(), callback);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file_label, "", fmt::format("expected valid JSON ({})", e.what()));
  } catch (const nlohmann::json::out_of_range& e) {  // a number beyond the range of a double
    throw InputError(file_label, "",
                     fmt::format("expected numbers within ±1.8e308 ({})", e.what()));
  }
}

JsonNode root_of(nlohmann::json doc, const std::string& file_label) {
  auto owned = std::make_shared<const nlohmann::json>(std::move(doc));
  const nlohmann::json* root = owned.get();
  return JsonNode(std::move(owned), root, std::make_shared<const std::string>(file_label), "");
}

}  // namespace

JsonNode JsonNode::parse(const std::string& text, const std::string& file_label,
                         const nlohmann::json::parser_callback_t& callback) {
  return root_of(parse_json(text, file_label, callback), file_label);
}

JsonNode JsonNode::parse(FileReader& in, const std::string& file_label,
                         const nlohmann::json::parser_callback_t& callback) {
  return root_of(parse_json(in, file_label, callback), file_label);
}

JsonNode JsonNode::wrap(const nlohmann::json& node, std::shared_ptr<const std::string> file,
                        std::string pointer) {
  // Owns nothing: the aliasing constructor with an empty owner.
  return JsonNode(std::shared_ptr<const nlohmann::json>(std::shared_ptr<void>(), &node), &node,
                  std::move(file), std::move(pointer));
}

std::string JsonNode::describe() const {
  if (node_->is_null()) return "null";
  if (node_->is_string()) return "a string";
  if (node_->is_boolean()) return "a boolean";
  if (node_->is_number()) return fmt::format("{}", node_->dump());
  if (node_->is_array()) return "an array";
  return "an object";
}

void JsonNode::fail(const std::string& expected) const {
  const std::string at = pointer();
  throw InputError(*file_, at.empty() ? "/" : at,
                   fmt::format("expected {}, got {}", expected, describe()));
}

JsonNode JsonNode::operator[](std::string_view key) const {
  if (!node_->is_object()) fail("an object");
  if (std::optional<JsonNode> member = find(key)) return std::move(*member);
  throw InputError(*file_, pointer() + "/" + std::string(key), "required field is missing");
}

std::optional<JsonNode> JsonNode::find(std::string_view key) const {
  if (!node_->is_object()) return std::nullopt;
  auto it = node_->find(key);
  if (it == node_->end()) return std::nullopt;
  return JsonNode(*this, &*it, &it.key());
}

bool JsonNode::has(std::string_view key) const {
  return node_->is_object() && node_->contains(key);
}

std::size_t JsonNode::size() const {
  if (!node_->is_array()) fail("an array");
  return node_->size();
}

JsonNode JsonNode::at(std::size_t index) const {
  if (index >= size()) fail(fmt::format("an array with more than {} elements", index));
  return JsonNode(doc_, &(*node_)[index], file_, fmt::format("{}/{}", pointer(), index));
}

double JsonNode::number() const {
  if (!node_->is_number()) fail("a number");
  double v = node_->get<double>();
  if (!std::isfinite(v)) fail("a finite number");
  return v;
}

double JsonNode::non_negative() const {
  double v = number();
  if (v < 0) fail("a number >= 0");
  return v;
}

double JsonNode::positive() const {
  double v = number();
  if (v <= 0) fail("a number > 0");
  return v;
}

double JsonNode::seconds() const {
  const double v = non_negative();
  if (v > kMaxSeconds)
    fail(fmt::format("a time <= {:g} s (the simulator's picosecond clock ends at {:.3g} s)",
                     kMaxSeconds, kClockRangeSeconds));
  return v;
}

double JsonNode::bytes() const {
  const double v = non_negative();
  if (v > kMaxBytes) fail(fmt::format("a byte count <= 2^53 = {:.0f}", kMaxBytes));
  return v;
}

std::int64_t JsonNode::integer(std::int64_t lo, std::int64_t hi) const {
  if (node_->is_number_integer()) {
    auto v = node_->is_number_unsigned()
                 ? static_cast<std::int64_t>(std::min<std::uint64_t>(
                       node_->get<std::uint64_t>(), static_cast<std::uint64_t>(INT64_MAX)))
                 : node_->get<std::int64_t>();
    if (v >= lo && v <= hi) return v;
  } else if (node_->is_number_float()) {
    double d = node_->get<double>();
    if (std::isfinite(d) && d == std::floor(d) && d >= static_cast<double>(lo) &&
        d <= static_cast<double>(hi))
      return static_cast<std::int64_t>(d);
  }
  fail(fmt::format("an integer in [{}, {}]", lo, hi));  // the message only when it is needed
}

std::string JsonNode::string() const {
  if (!node_->is_string()) fail("a string");
  return node_->get<std::string>();
}

bool JsonNode::boolean() const {
  if (!node_->is_boolean()) fail("true or false");
  return node_->get<bool>();
}

void JsonNode::expect_keys(std::initializer_list<std::string_view> allowed) const {
  if (!is_object()) fail("an object");
  for (const auto& [key, value] : node_->items()) {
    bool known = false;
    for (auto a : allowed) known = known || a == key;
    if (!known) throw InputError(*file_, pointer() + "/" + key, "a known field (typo?)");
  }
}

void JsonNode::expect_format(std::string_view name, int version) const {
  const std::string want = fmt::format("{}/{}", name, version);
  const std::string got = (*this)["format"].string();
  if (got == want) return;
  const std::string prefix = std::string(name) + "/";
  if (got.rfind(prefix, 0) == 0)
    throw InputError(*file_, "/format",
                     fmt::format("unsupported version '{}', expected '{}'", got, want));
  throw InputError(*file_, "/format", fmt::format("expected '{}', got '{}'", want, got));
}

bool is_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = 0;
    char32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;  // a continuation byte, 0xC0/0xC1 (overlong) or beyond U+10FFFF
    }
    if (text.size() - i < len) return false;
    for (std::size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(text[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    static constexpr char32_t kMinOf[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMinOf[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

}  // namespace flux
