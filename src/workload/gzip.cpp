#include "workload/gzip.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <new>

#include "core/error.hpp"
#include "core/file_input.hpp"

namespace flux::workload {

std::string read_data_file(const std::string& path) {
  std::string data = read_file(path);
  return is_gzip(data) ? gunzip(data, path) : data;
}

bool is_gzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1F &&
         static_cast<unsigned char>(data[1]) == 0x8B;
}

std::string gunzip(std::string_view data, const std::string& label) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw std::bad_alloc();
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
    // Concatenated gzip members (as `cat a.gz b.gz` makes) continue after a stream end.
    if (rc == Z_STREAM_END && z.avail_in > 0 &&
        is_gzip({reinterpret_cast<const char*>(z.next_in), z.avail_in})) {
      inflateReset(&z);
      rc = Z_OK;
    }
  }
  const std::size_t at = data.size() - z.avail_in;
  inflateEnd(&z);
  if (rc != Z_STREAM_END)
    throw InputError(
        label, fmt::format("byte {}", at),
        rc == Z_BUF_ERROR ? "complete gzip data (the file ends inside it)" : "valid gzip data");
  return out;
}

}  // namespace flux::workload
