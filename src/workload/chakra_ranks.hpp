#pragma once
// Finding the per-rank files of a Chakra trace set. PREFIX names either
//  * files `<PREFIX>.<rank>.et` (or `.et.gz`) in PREFIX's directory, or
//  * a tar archive (optionally gzip-compressed) whose members are `<name>.<rank>.et[.gz]`.
// The ranks found must be exactly 0..N-1: a missing rank or one present twice (`.3.et` beside
// `.3.et.gz` or `.03.et`) is an InputError naming the file. Complexity: O(files + bytes).
#include <string>
#include <vector>

#include "workload/chakra_trace.hpp"

namespace flux::workload {

struct ChakraRankFile {
  std::string label;  // file name, or `archive:member`
  ChakraTrace trace;
};

[[nodiscard]] std::vector<ChakraRankFile> load_chakra_ranks(const std::string& prefix);
// The files load_chakra_ranks reads: the archive, or every rank's file (checked the same way).
[[nodiscard]] std::vector<std::string> chakra_input_files(const std::string& prefix);

}  // namespace flux::workload
