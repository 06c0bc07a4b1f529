#include "workload/chakra_trace.hpp"

#include <bit>

#include "workload/protobuf_wire.hpp"

namespace flux {
namespace {

double bits_to_double(std::uint64_t b) {
  return std::bit_cast<double>(b);
}
float bits_to_float(std::uint32_t b) {
  return std::bit_cast<float>(b);
}

void read_value(WireReader& r, std::uint32_t field, WireType type, ChakraAttr& a) {
  auto expect = [&](WireType t) {
    if (type != t) r.fail("the wire type of AttributeProto field " + std::to_string(field));
  };
  a.kind = ChakraAttr::Kind::integer;
  a.field = field;
  switch (field) {
    case 3:
      expect(WireType::fixed64);
      a.kind = ChakraAttr::Kind::real;
      a.real = bits_to_double(r.fixed64());
      return;
    case 5:
      expect(WireType::fixed32);
      a.kind = ChakraAttr::Kind::real;
      a.real = bits_to_float(r.fixed32());
      return;
    case 7:
      expect(WireType::varint);
      a.integer = static_cast<std::int32_t>(r.varint());
      return;
    case 9:
    case 27:
      expect(WireType::varint);
      a.integer = static_cast<std::int64_t>(r.varint());
      return;
    case 11:
      expect(WireType::varint);
      a.integer = static_cast<std::uint32_t>(r.varint());
      return;
    case 13:
      expect(WireType::varint);
      a.integer = static_cast<std::int64_t>(r.varint());
      return;
    case 15:
    case 17:
      expect(WireType::varint);
      a.integer = zigzag_decode(r.varint());
      return;
    case 19:
      expect(WireType::fixed32);
      a.integer = r.fixed32();
      return;
    case 21:
      expect(WireType::fixed64);
      a.integer = static_cast<std::int64_t>(r.fixed64());
      return;
    case 23:
      expect(WireType::fixed32);
      a.integer = static_cast<std::int32_t>(r.fixed32());
      return;
    case 25:
      expect(WireType::fixed64);
      a.integer = static_cast<std::int64_t>(r.fixed64());
      return;
    case 29:
      expect(WireType::length);
      a.kind = ChakraAttr::Kind::text;
      a.text = r.bytes();
      return;
    default:
      a.kind = ChakraAttr::Kind::other;
      r.skip(type);
      return;  // lists, bytes
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
    else if (field == 2 && type == WireType::length)
      n.name = r.bytes();
    else if (field == 3 && v)
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

void write_attr(WireWriter& w, const ChakraAttr& a) {
  WireWriter m;
  m.bytes_field(1, a.name);
  switch (a.kind) {
    case ChakraAttr::Kind::real:
      m.double_field(3, a.real);
      break;
    case ChakraAttr::Kind::text:
      m.bytes_field(29, a.text);
      break;
    case ChakraAttr::Kind::other:
      break;
    case ChakraAttr::Kind::integer: {
      const std::uint32_t f = a.field;
      if (f == 15 || f == 17) {
        m.varint_field(f, zigzag_encode(a.integer));
      } else if (f == 19 || f == 23) {
        m.fixed_field(f, static_cast<std::uint64_t>(a.integer), 4);
      } else if (f == 21 || f == 25) {
        m.fixed_field(f, static_cast<std::uint64_t>(a.integer), 8);
      } else {
        m.varint_field(f, static_cast<std::uint64_t>(a.integer));
      }
      break;
    }
  }
  w.bytes_field(10, m.data());
}

}  // namespace

const ChakraAttr* ChakraNode::attr(std::string_view attr_name) const {
  for (const ChakraAttr& a : attrs)
    if (a.name == attr_name) return &a;
  return nullptr;
}

ChakraTrace parse_chakra(std::string_view data, const std::string& label) {
  WireReader r(data, label);
  if (data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1F &&
      static_cast<unsigned char>(data[1]) == 0x8B)
    r.fail("an uncompressed trace (this one is gzip-compressed: gunzip it first)");
  ChakraTrace t;
  bool first = true;
  while (!r.done()) {
    WireReader msg = r.sub();
    if (first) {  // GlobalMetadata
      while (!msg.done()) {
        WireType type;
        if (msg.tag(type) == 1 && type == WireType::length)
          t.version = msg.bytes();
        else
          msg.skip(type);
      }
      first = false;
      continue;
    }
    t.nodes.push_back(read_node(msg));
  }
  if (first) r.fail("a GlobalMetadata message (the file is empty)");
  return t;
}

std::string encode_chakra(const ChakraTrace& trace) {
  std::string out;
  WireWriter frame;
  WireWriter meta;
  meta.bytes_field(1, trace.version);
  frame.varint(meta.data().size());
  out += frame.take() + meta.data();
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

}  // namespace flux
