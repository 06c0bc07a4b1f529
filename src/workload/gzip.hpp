#pragma once
// Gzip-compressed inputs (magic 1f 8b), inflated transparently with zlib: trace files are often
// published compressed (`.et.gz`, `.tar.gz`).
#include <string>
#include <string_view>

namespace flux::workload {

// The file's contents (core read_file), decompressed when it is gzip data.
[[nodiscard]] std::string read_data_file(const std::string& path);
[[nodiscard]] bool is_gzip(std::string_view data);
// Inflates gzip data; corrupt or truncated input is an InputError naming `label`.
[[nodiscard]] std::string gunzip(std::string_view data, const std::string& label);

}  // namespace flux::workload
