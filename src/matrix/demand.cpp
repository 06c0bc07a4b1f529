#include "matrix/demand.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/json_reader.hpp"

namespace flux::matrix {

constexpr EnumNames kDemandUnits{EnumName{DemandUnit::bytes, "bytes"},
                                 EnumName{DemandUnit::normalized, "normalized"}};

const char* to_string(DemandUnit u) {
  return kDemandUnits.name(u);
}

Demand parse_demand_json(const std::string& text, const std::string& label) {
  JsonNode root = JsonNode::parse(text, label);
  root.expect_format("flux.demand", 1);
  const int n = static_cast<int>(root["n"].integer(1, kMaxPorts));
  Demand d;
  const std::string unit = root["unit"].string();
  if (const auto u = kDemandUnits.find(unit)) {
    d.unit = *u;
  } else {
    throw InputError(label, "/unit",
                     fmt::format("expected {}, got '{}'", kDemandUnits.choices(), unit));
  }
  JsonNode rows = root["demand"];
  if (rows.size() != static_cast<std::size_t>(n))
    rows.fail(fmt::format("an array of n = {} rows", n));
  d.matrix = Matrix(n);
  for (int i = 0; i < n; ++i) {
    JsonNode row = rows.at(static_cast<std::size_t>(i));
    if (row.size() != static_cast<std::size_t>(n))
      row.fail(fmt::format("a row of n = {} numbers", n));
    const nlohmann::json& raw = row.raw();
    for (int j = 0; j < n; ++j) {
      const nlohmann::json& v = raw[static_cast<std::size_t>(j)];
      // Fast path for the common case; the validating accessor produces the error message.
      if (v.is_number() && v.get<double>() >= 0 && v.get<double>() <= kMaxDemandEntry) {
        d.matrix(i, j) = v.get<double>() + 0.0;  // + 0.0: -0 reads as 0
      } else {
        const JsonNode entry = row.at(static_cast<std::size_t>(j));
        d.matrix(i, j) = entry.non_negative();
        if (d.matrix(i, j) > kMaxDemandEntry)
          entry.fail(fmt::format("a number in [0, {:g}]", kMaxDemandEntry));
      }
    }
  }
  return d;
}

Demand parse_demand_csv(const std::string& text, const std::string& label) {
  std::vector<std::vector<double>> rows;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::vector<double> row;
    std::size_t pos = 0;
    int col = 0;
    while (pos <= line.size()) {
      std::size_t comma = line.find(',', pos);
      if (comma == std::string::npos) comma = line.size();
      std::string cell = line.substr(pos, comma - pos);
      const auto first = cell.find_first_not_of(" \t");
      const auto last = cell.find_last_not_of(" \t");
      cell = first == std::string::npos ? "" : cell.substr(first, last - first + 1);
      char* end = nullptr;
      const double v = cell.empty() ? NAN : std::strtod(cell.c_str(), &end);
      if (cell.empty() || end != cell.c_str() + cell.size() || !(v >= 0 && v <= kMaxDemandEntry))
        throw InputError(
            label, fmt::format("line {} column {}", line_no, col + 1),
            fmt::format("expected a number in [0, {:g}], got '{}'", kMaxDemandEntry, cell));
      row.push_back(v + 0.0);  // -0 reads as 0, so the file round-trips through JSON
      ++col;
      pos = comma + 1;
    }
    rows.push_back(std::move(row));
  }
  const auto n = rows.size();
  if (n == 0) throw InputError(label, "", "expected at least one row of numbers");
  if (n > static_cast<std::size_t>(kMaxPorts))
    throw InputError(label, "", fmt::format("expected at most {} rows, got {}", kMaxPorts, n));
  Demand d;
  d.unit = DemandUnit::bytes;
  d.matrix = Matrix(static_cast<int>(n));
  for (std::size_t i = 0; i < n; ++i) {
    if (rows[i].size() != n)
      throw InputError(
          label, fmt::format("row {}", i + 1),
          fmt::format("expected {} numbers (a square matrix), got {}", n, rows[i].size()));
    for (std::size_t j = 0; j < n; ++j)
      d.matrix(static_cast<int>(i), static_cast<int>(j)) = rows[i][j];
  }
  return d;
}

Demand read_demand(const std::string& path) {
  const std::string text = read_file(path);
  const bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  return json ? parse_demand_json(text, path) : parse_demand_csv(text, path);
}

std::string demand_to_json(const Demand& d) {
  const int n = d.matrix.n();
  std::string out = fmt::format(
      R"({{"format": "flux.demand/1", "n": {}, "unit": "{}", "demand": [)", n, to_string(d.unit));
  for (int i = 0; i < n; ++i) {
    out += i ? ",\n  [" : "\n  [";
    for (int j = 0; j < n; ++j) {
      if (j) out += ", ";
      out += fmt::format("{}", d.matrix(i, j));  // shortest round-trip representation
    }
    out += "]";
  }
  out += "]}\n";
  return out;
}

}  // namespace flux::matrix
