#pragma once
// A typed table of the options a scheduler accepts, and values checked against it. Everything
// that names, parses, validates or echoes an option (command-line flags and their help, the
// summary's options block, sweep axes, keyword arguments) is generated from one OptionTable, so a
// scheduler states its options exactly once.
#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace flux {

// time: seconds, written "10us"; bytes: written "4GiB"; both held as double. time_or_tau: a
// duration or a multiple of τ ("5ms", "100tau"; see parse_time_or_tau), held as written.
enum class OptionType { boolean, integer, real, time, bytes, text, time_or_tau };

[[nodiscard]] std::string_view to_string(OptionType type);

using OptionValue = std::variant<bool, std::int64_t, double, std::string>;

struct OptionSpec {
  std::string key{};  // snake_case, unique in its table
  OptionType type = OptionType::real;
  std::string unit{};  // shown in help: "s", "B", "tau", "messages", ...
  OptionValue default_value{};
  double min = -std::numeric_limits<double>::infinity();  // numeric types: the allowed range
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false, max_open = false;  // exclusive ends
  std::string help{};
  std::vector<std::string> choices{};  // text: the allowed values (empty = any)
  std::string flag{};                  // command-line spelling if not "--" + key with '-' for '_'
};

using OptionTable = std::vector<OptionSpec>;

[[nodiscard]] const OptionSpec* find_option(const OptionTable& table, std::string_view key);
// "--" + key with '_' -> '-' ("--no-" + key for a boolean on by default), unless the spec names
// its flag.
[[nodiscard]] std::string flag_of(const OptionSpec& spec);
// The default as it is written: "60s", "4GiB", "0.9", "true".
[[nodiscard]] std::string default_text(const OptionSpec& spec);
// Help line: the spec's help, its unit and range.
[[nodiscard]] std::string describe(const OptionSpec& spec);

// Values by key, in the table's order once filled from it.
class OptionValues {
 public:
  OptionValues() = default;
  explicit OptionValues(const OptionTable& table);  // every default

  void set(const std::string& key, OptionValue value);
  [[nodiscard]] bool has(std::string_view key) const;
  [[nodiscard]] const OptionValue& at(std::string_view key) const;  // std::out_of_range if absent
  [[nodiscard]] bool boolean(std::string_view key) const;
  [[nodiscard]] std::int64_t integer(std::string_view key) const;
  [[nodiscard]] double real(std::string_view key) const;  // real, time, bytes (and integer)
  [[nodiscard]] const std::string& text(std::string_view key) const;
  [[nodiscard]] const std::vector<std::pair<std::string, OptionValue>>& items() const {
    return items_;
  }

 private:
  std::vector<std::pair<std::string, OptionValue>> items_;
};

// Parses `text` as a value of the spec's type and checks it; InputError on field `label` (the
// flag on the command line, the key elsewhere).
[[nodiscard]] OptionValue parse_option(const OptionSpec& spec, std::string_view text,
                                       const std::string& label);
// A value written in a JSON file: the option's JSON type (a boolean, an integer, a number in
// seconds or bytes, a string) or the string the command line takes ("10us", "4GiB"), checked like
// parse_option; InputError on field `label`.
[[nodiscard]] OptionValue option_from_json(const OptionSpec& spec, const nlohmann::json& value,
                                           const std::string& label);
// Checks type, range and choices; InputError on field `label`.
void check_option(const OptionSpec& spec, const OptionValue& value, const std::string& label);
// Defaults overlaid with `given` (keys must be in the table), every value checked; InputError on
// the key.
[[nodiscard]] OptionValues resolve_options(const OptionTable& table, const OptionValues& given);
// {key: value} in the table's order, times in seconds and sizes in bytes.
[[nodiscard]] nlohmann::ordered_json options_json(const OptionValues& values);

}  // namespace flux
