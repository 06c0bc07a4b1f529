#include "core/options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace flux {
namespace {

constexpr EnumNames kTypeNames{EnumName{OptionType::boolean, "boolean"},
                               EnumName{OptionType::integer, "integer"},
                               EnumName{OptionType::real, "real"},
                               EnumName{OptionType::time, "time"},
                               EnumName{OptionType::bytes, "bytes"},
                               EnumName{OptionType::text, "text"},
                               EnumName{OptionType::time_or_tau, "time-or-tau"}};

bool numeric(OptionType t) {
  return t == OptionType::integer || t == OptionType::real || t == OptionType::time ||
         t == OptionType::bytes;
}

// The range as it reads in help and errors: "(0, 1)", "[1, inf)".
std::string range_text(const OptionSpec& s) {
  return fmt::format("{}{}, {}{}", s.min_open ? '(' : '[', s.min, s.max, s.max_open ? ')' : ']');
}

bool has_range(const OptionSpec& s) {
  return numeric(s.type) && (std::isfinite(s.min) || std::isfinite(s.max));
}

std::int64_t parse_integer(std::string_view text, const std::string& label) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    throw InputError("", label, fmt::format("an integer, got \"{}\"", text));
  return v;
}

double parse_real(std::string_view text, const std::string& label) {
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
    throw InputError("", label, fmt::format("a finite number, got \"{}\"", text));
  return v;
}

bool parse_boolean(std::string_view text, const std::string& label) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  throw InputError("", label, fmt::format("true or false, got \"{}\"", text));
}

// The value as a number for the range check; the variant must match the spec's type.
double checked_number(const OptionSpec& s, const OptionValue& v, const std::string& label) {
  if (s.type == OptionType::integer) {
    if (!std::holds_alternative<std::int64_t>(v)) throw InputError("", label, "an integer");
    return static_cast<double>(std::get<std::int64_t>(v));
  }
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (!std::holds_alternative<double>(v)) throw InputError("", label, "a number");
  const double x = std::get<double>(v);
  if (!std::isfinite(x)) throw InputError("", label, "a finite number");
  return x;
}

void check_range(const OptionSpec& spec, double x, const std::string& label) {
  const bool low = spec.min_open ? x > spec.min : x >= spec.min;
  const bool high = spec.max_open ? x < spec.max : x <= spec.max;
  if (!low || !high)
    throw InputError("", label, fmt::format("a value in {}, got {}", range_text(spec), x));
}

}  // namespace

std::string_view to_string(OptionType type) {
  return kTypeNames.name(type);
}

const OptionSpec* find_option(const OptionTable& table, std::string_view key) {
  for (const OptionSpec& s : table)
    if (s.key == key) return &s;
  return nullptr;
}

std::string flag_of(const OptionSpec& spec) {
  if (!spec.flag.empty()) return spec.flag;
  // A boolean that is on by default is turned off by its flag: --no-prune.
  const bool negated = spec.type == OptionType::boolean && std::get<bool>(spec.default_value);
  std::string f = (negated ? "--no-" : "--") + spec.key;
  std::replace(f.begin(), f.end(), '_', '-');
  return f;
}

std::string default_text(const OptionSpec& spec) {
  const OptionValue& v = spec.default_value;
  switch (spec.type) {
    case OptionType::boolean:
      return std::get<bool>(v) ? "true" : "false";
    case OptionType::integer:
      return std::to_string(std::get<std::int64_t>(v));
    case OptionType::real:
      return fmt::format("{}", std::get<double>(v));
    case OptionType::time:
      return format_time(std::get<double>(v));
    case OptionType::bytes:
      return format_bytes(std::get<double>(v));
    case OptionType::text:
    case OptionType::time_or_tau:
      return std::get<std::string>(v);
  }
  return {};
}

std::string describe(const OptionSpec& spec) {
  std::string out = spec.help;
  if (!spec.unit.empty()) out += fmt::format(" [{}]", spec.unit);
  if (has_range(spec)) out += " in " + range_text(spec);
  return out;
}

OptionValues::OptionValues(const OptionTable& table) {
  for (const OptionSpec& s : table) items_.emplace_back(s.key, s.default_value);
}

void OptionValues::set(const std::string& key, OptionValue value) {
  for (auto& [k, v] : items_)
    if (k == key) {
      v = std::move(value);
      return;
    }
  items_.emplace_back(key, std::move(value));
}

bool OptionValues::has(std::string_view key) const {
  return std::any_of(items_.begin(), items_.end(), [&](const auto& kv) { return kv.first == key; });
}

const OptionValue& OptionValues::at(std::string_view key) const {
  for (const auto& [k, v] : items_)
    if (k == key) return v;
  throw std::out_of_range(fmt::format("no option '{}'", key));
}

bool OptionValues::boolean(std::string_view key) const {
  return std::get<bool>(at(key));
}

std::int64_t OptionValues::integer(std::string_view key) const {
  return std::get<std::int64_t>(at(key));
}

double OptionValues::real(std::string_view key) const {
  const OptionValue& v = at(key);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

const std::string& OptionValues::text(std::string_view key) const {
  return std::get<std::string>(at(key));
}

OptionValue parse_option(const OptionSpec& spec, std::string_view text, const std::string& label) {
  OptionValue v;
  switch (spec.type) {
    case OptionType::boolean:
      v = parse_boolean(text, label);
      break;
    case OptionType::integer:
      v = parse_integer(text, label);
      break;
    case OptionType::real:
      v = parse_real(text, label);
      break;
    case OptionType::time:
      v = parse_time(text, label);
      break;
    case OptionType::bytes:
      v = parse_bytes(text, label);
      break;
    case OptionType::text:
    case OptionType::time_or_tau:
      v = std::string(text);
      break;
  }
  check_option(spec, v, label);
  return v;
}

OptionValue option_from_json(const OptionSpec& spec, const nlohmann::json& value,
                             const std::string& label) {
  if (value.is_string()) return parse_option(spec, value.get<std::string>(), label);
  OptionValue v;
  if (spec.type == OptionType::boolean && value.is_boolean())
    v = value.get<bool>();
  else if (spec.type == OptionType::integer && value.is_number_integer() &&
           !(value.is_number_unsigned() &&
             value.get<std::uint64_t>() > std::numeric_limits<std::int64_t>::max()))
    v = value.get<std::int64_t>();
  else if (numeric(spec.type) && spec.type != OptionType::integer && value.is_number())
    v = value.get<double>();
  else
    throw InputError("", label,
                     fmt::format("a {} value{}", to_string(spec.type),
                                 spec.type == OptionType::text ? "" : " or its text form"));
  check_option(spec, v, label);
  return v;
}

void check_option(const OptionSpec& spec, const OptionValue& value, const std::string& label) {
  if (spec.type == OptionType::boolean) {
    if (!std::holds_alternative<bool>(value)) throw InputError("", label, "true or false");
    return;
  }
  if (spec.type == OptionType::text) {
    if (!std::holds_alternative<std::string>(value)) throw InputError("", label, "a string");
    const std::string& s = std::get<std::string>(value);
    if (!spec.choices.empty() &&
        std::find(spec.choices.begin(), spec.choices.end(), s) == spec.choices.end())
      throw InputError("", label,
                       fmt::format("one of {}, got \"{}\"", fmt::join(spec.choices, ", "), s));
    return;
  }
  if (spec.type == OptionType::time_or_tau) {
    if (!std::holds_alternative<std::string>(value))
      throw InputError("", label, "a duration such as '5ms' or a multiple of τ such as '100tau'");
    check_range(spec, parse_time_or_tau(std::get<std::string>(value), label).value, label);
    return;
  }
  check_range(spec, checked_number(spec, value, label), label);
}

OptionValues resolve_options(const OptionTable& table, const OptionValues& given) {
  OptionValues out(table);
  for (const auto& [key, value] : given.items()) {
    const OptionSpec* spec = find_option(table, key);
    if (spec == nullptr) {
      std::vector<std::string> keys;
      for (const OptionSpec& s : table) keys.push_back(s.key);
      throw InputError("", key,
                       keys.empty() ? std::string("no options")
                                    : fmt::format("an option among {}", fmt::join(keys, ", ")));
    }
    OptionValue v = value;  // an integer where a real is expected is widened
    if (spec->type != OptionType::integer && numeric(spec->type))
      if (const auto* i = std::get_if<std::int64_t>(&v)) v = static_cast<double>(*i);
    check_option(*spec, v, key);
    out.set(key, std::move(v));
  }
  return out;
}

nlohmann::ordered_json options_json(const OptionValues& values) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [key, value] : values.items())
    std::visit([&, &k = key](const auto& v) { j[k] = v; }, value);
  return j;
}

}  // namespace flux
