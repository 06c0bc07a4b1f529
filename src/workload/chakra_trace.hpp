#pragma once
// Chakra execution traces (MLCommons), read and written with the
// hand-rolled wire format of protobuf_wire.hpp. A file `<prefix>.<rank>.et` is a stream of
// varint-length-delimited messages: GlobalMetadata {version = 1, attr = 2} first, then Node
// {id = 1, name = 2, type = 3, ctrl_deps = 4, data_deps = 5, duration_micros = 7, attr = 10}.
// AttributeProto integers are accepted in every oneof width producers use (int32/int64/uint32/
// uint64/sint32/sint64/fixed32/fixed64/sfixed32/sfixed64/bool); lists, IOInfo and unknown fields
// are skipped. A file without the GlobalMetadata message (older writers) is recognised by its first
// message carrying a node id or type; gzip-compressed files are inflated. Complexity: O(bytes).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flux::workload {

enum class ChakraNodeType {
  invalid = 0,
  metadata = 1,
  mem_load = 2,
  mem_store = 3,
  comp = 4,
  comm_send = 5,
  comm_recv = 6,
  comm_coll = 7
};

struct ChakraAttr {
  enum class Kind { integer, real, text, other };
  std::string name;
  Kind kind = Kind::other;
  std::int64_t integer = 0;
  double real = 0;
  std::string text;
  // AttributeProto oneof field the writer uses for an integer (7 int32, 9 int64, 11 uint32,
  // 13 uint64, 15 sint32, 17 sint64, 19 fixed32, 21 fixed64, 23 sfixed32, 25 sfixed64, 27 bool).
  std::uint32_t field = 9;
};

struct ChakraNode {
  std::uint64_t id = 0;
  std::string name;
  int type = 0;
  std::vector<std::uint64_t> ctrl_deps, data_deps;
  std::uint64_t duration_micros = 0;
  std::vector<ChakraAttr> attrs;
  [[nodiscard]] const ChakraAttr* attr(std::string_view attr_name) const;
};

struct ChakraTrace {
  std::string version = "0.0.4";
  bool has_metadata = true;          // false: an older file that starts with its first node
  std::vector<ChakraAttr> metadata;  // GlobalMetadata attributes (schema, pid, ...)
  std::vector<ChakraNode> nodes;
};

// `<prefix>.<rank>.et`
[[nodiscard]] std::string chakra_rank_file(const std::string& prefix, int rank);

[[nodiscard]] ChakraTrace parse_chakra(std::string_view data, const std::string& label);
[[nodiscard]] std::string encode_chakra(const ChakraTrace& trace);

inline ChakraAttr chakra_int(std::string name, std::int64_t v, std::uint32_t field = 9) {
  ChakraAttr a;
  a.name = std::move(name);
  a.kind = ChakraAttr::Kind::integer;
  a.integer = v;
  a.field = field;
  return a;
}
inline ChakraAttr chakra_real(std::string name, double v) {
  ChakraAttr a;
  a.name = std::move(name);
  a.kind = ChakraAttr::Kind::real;
  a.real = v;
  return a;
}
inline ChakraAttr chakra_text(std::string name, std::string v) {
  ChakraAttr a;
  a.name = std::move(name);
  a.kind = ChakraAttr::Kind::text;
  a.text = std::move(v);
  return a;
}

}  // namespace flux::workload
