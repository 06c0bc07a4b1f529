#include "workload/chakra_trace.hpp"

#include <bit>

#include "core/file_input.hpp"
#include "core/json_reader.hpp"
#include "workload/gzip.hpp"
#include "workload/protobuf_wire.hpp"

namespace flux::workload {
namespace {

// How each AttributeProto oneof member is stored on the wire and turned into a value.
enum class Decode { int32, int64, uint32, zigzag, real64, real32, text };
struct ValueField {
  std::uint32_t field;
  WireType wire;
  Decode decode;
};
constexpr ValueField kValueFields[] = {
    {3, WireType::fixed64, Decode::real64},  {5, WireType::fixed32, Decode::real32},
    {7, WireType::varint, Decode::int32},    {9, WireType::varint, Decode::int64},
    {11, WireType::varint, Decode::uint32},  {13, WireType::varint, Decode::int64},
    {15, WireType::varint, Decode::zigzag},  {17, WireType::varint, Decode::zigzag},
    {19, WireType::fixed32, Decode::uint32}, {21, WireType::fixed64, Decode::int64},
    {23, WireType::fixed32, Decode::int32},  {25, WireType::fixed64, Decode::int64},
    {27, WireType::varint, Decode::int64},   {29, WireType::length, Decode::text}};

const ValueField* value_field(std::uint32_t field) {
  for (const ValueField& v : kValueFields)
    if (v.field == field) return &v;
  return nullptr;
}

std::uint64_t raw_value(WireReader& r, WireType wire) {
  switch (wire) {
    case WireType::varint:
      return r.varint();
    case WireType::fixed64:
      return r.fixed64();
    case WireType::fixed32:
      return r.fixed32();
    case WireType::length:
      break;
  }
  return 0;
}

void read_value(WireReader& r, std::uint32_t field, WireType type, ChakraAttr& a) {
  const ValueField* f = value_field(field);
  if (!f) {  // lists and bytes: not needed for the workload
    a.kind = ChakraAttr::Kind::other;
    r.skip(type);
    return;
  }
  if (type != f->wire) r.fail("the wire type of AttributeProto field " + std::to_string(field));
  a.field = field;
  if (f->decode == Decode::text) {
    a.kind = ChakraAttr::Kind::text;
    a.text = r.bytes();
    return;
  }
  const std::uint64_t raw = raw_value(r, type);
  a.kind = ChakraAttr::Kind::integer;
  switch (f->decode) {
    case Decode::int32:
      a.integer = static_cast<std::int32_t>(raw);
      break;
    case Decode::int64:
      a.integer = static_cast<std::int64_t>(raw);
      break;
    case Decode::uint32:
      a.integer = static_cast<std::uint32_t>(raw);
      break;
    case Decode::zigzag:
      a.integer = zigzag_decode(raw);
      break;
    case Decode::real64:
      a.kind = ChakraAttr::Kind::real;
      a.real = std::bit_cast<double>(raw);
      break;
    case Decode::real32:
      a.kind = ChakraAttr::Kind::real;
      a.real = std::bit_cast<float>(static_cast<std::uint32_t>(raw));
      break;
    case Decode::text:
      break;
  }
}

ChakraAttr read_attr(WireReader r) {
  ChakraAttr a;
  while (!r.done()) {
    WireType type;
    const std::uint32_t field = r.tag(type);
    if (field == 1 && type == WireType::length)
      a.name = r.bytes();
    else if (field == 2)
      r.skip(type);
    else
      read_value(r, field, type, a);
  }
  return a;
}

void read_ids(WireReader& r, WireType type, std::vector<std::uint64_t>& out) {
  if (type == WireType::varint) {  // unpacked
    out.push_back(r.varint());
    return;
  }
  if (type != WireType::length) r.fail("a varint or packed list of node ids");
  WireReader list = r.sub();
  while (!list.done()) out.push_back(list.varint());
}

ChakraNode read_node(WireReader r) {
  ChakraNode n;
  while (!r.done()) {
    WireType type;
    const std::uint32_t field = r.tag(type);
    const bool v = type == WireType::varint;
    if (field == 1 && v)
      n.id = r.varint();
    else if (field == 2 && type == WireType::length) {
      n.name = r.bytes();
      if (!is_utf8(n.name)) r.fail("a node name in UTF-8");
    } else if (field == 3 && v)
      n.type = static_cast<int>(r.varint());
    else if (field == 4)
      read_ids(r, type, n.ctrl_deps);
    else if (field == 5)
      read_ids(r, type, n.data_deps);
    else if (field == 7 && v)
      n.duration_micros = r.varint();
    else if (field == 10 && type == WireType::length)
      n.attrs.push_back(read_attr(r.sub()));
    else
      r.skip(type);
  }
  return n;
}

void write_integer(WireWriter& m, const ChakraAttr& a) {
  const ValueField* f = value_field(a.field);
  if (!f || f->decode == Decode::text || f->decode == Decode::real64 || f->decode == Decode::real32)
    f = value_field(9);  // int64
  const std::uint64_t bits = f->decode == Decode::zigzag ? zigzag_encode(a.integer)
                                                         : static_cast<std::uint64_t>(a.integer);
  if (f->wire == WireType::varint)
    m.varint_field(f->field, bits);
  else
    m.fixed_field(f->field, bits, f->wire == WireType::fixed64 ? 8 : 4);
}

void write_attr(WireWriter& w, const ChakraAttr& a, std::uint32_t field = 10) {
  WireWriter m;
  m.bytes_field(1, a.name);
  switch (a.kind) {
    case ChakraAttr::Kind::real:
      m.double_field(3, a.real);
      break;
    case ChakraAttr::Kind::text:
      m.bytes_field(29, a.text);
      break;
    case ChakraAttr::Kind::integer:
      write_integer(m, a);
      break;
    case ChakraAttr::Kind::other:
      break;
  }
  w.bytes_field(field, m.data());
}

}  // namespace

const ChakraAttr* ChakraNode::attr(std::string_view attr_name) const {
  for (const ChakraAttr& a : attrs)
    if (a.name == attr_name) return &a;
  return nullptr;
}

std::string chakra_rank_file(const std::string& prefix, int rank) {
  return prefix + "." + std::to_string(rank) + ".et";
}

namespace {

// Older writers start the stream with the first node, not a GlobalMetadata message. The two
// are told apart by field 1 (the metadata's version is a string, a node's id a varint) and
// field 3 (a node's type; the metadata has none).
bool looks_like_node(WireReader msg) {
  while (!msg.done()) {
    WireType type;
    const std::uint32_t field = msg.tag(type);
    if ((field == 1 || field == 3) && type == WireType::varint) return true;
    msg.skip(type);
  }
  return false;
}

void read_metadata(WireReader msg, ChakraTrace& t) {
  while (!msg.done()) {
    WireType type;
    const std::uint32_t field = msg.tag(type);
    if (field == 1 && type == WireType::length)
      t.version = msg.bytes();
    else if (field == 2 && type == WireType::length)
      t.metadata.push_back(read_attr(msg.sub()));
    else
      msg.skip(type);
  }
}

}  // namespace

ChakraTrace parse_chakra(std::string_view raw, const std::string& label) {
  std::string inflated;
  if (is_gzip(raw)) inflated = gunzip(raw, label);
  const std::string_view data = inflated.empty() ? raw : std::string_view(inflated);
  WireReader r(data, label);
  ChakraTrace t;
  if (r.done()) r.fail("a GlobalMetadata message or a node (the file is empty)");
  WireReader first = r.sub();
  if (looks_like_node(first)) {
    t.has_metadata = false;
    t.nodes.push_back(read_node(first));
  } else {
    read_metadata(first, t);
  }
  while (!r.done()) t.nodes.push_back(read_node(r.sub()));
  return t;
}

std::string encode_chakra(const ChakraTrace& trace) {
  std::string out;
  if (trace.has_metadata) {
    WireWriter frame;
    WireWriter meta;
    meta.bytes_field(1, trace.version);
    for (const ChakraAttr& a : trace.metadata) write_attr(meta, a, 2);
    frame.varint(meta.data().size());
    out += frame.take() + meta.data();
  }
  for (const ChakraNode& n : trace.nodes) {
    WireWriter m;
    m.varint_field(1, n.id);
    m.bytes_field(2, n.name);
    m.varint_field(3, static_cast<std::uint64_t>(n.type));
    for (auto [field, ids] : {std::pair{4u, &n.ctrl_deps}, std::pair{5u, &n.data_deps}}) {
      if (ids->empty()) continue;
      WireWriter packed;
      for (auto id : *ids) packed.varint(id);
      m.bytes_field(field, packed.data());
    }
    m.varint_field(7, n.duration_micros);
    for (const ChakraAttr& a : n.attrs) write_attr(m, a);
    WireWriter len;
    len.varint(m.data().size());
    out += len.take() + m.data();
  }
  return out;
}

}  // namespace flux::workload
