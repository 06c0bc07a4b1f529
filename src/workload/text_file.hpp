#pragma once
// Whole-file reads for the workload readers; a missing file is an InputError naming it.
// Gzip-compressed files (magic 1f 8b) are inflated transparently with zlib.
#include <string>
#include <string_view>

namespace flux {

[[nodiscard]] std::string read_text_file(const std::string& path);
// The file's contents, decompressed when it is gzip data.
[[nodiscard]] std::string read_data_file(const std::string& path);
[[nodiscard]] bool is_gzip(std::string_view data);
// Inflates gzip data; corrupt or truncated input is an InputError naming `label`.
[[nodiscard]] std::string gunzip(std::string_view data, const std::string& label);

}  // namespace flux
