#pragma once
// Whole-file reads for the workload readers; a missing file is an InputError naming it.
#include <string>

namespace flux {

[[nodiscard]] std::string read_text_file(const std::string& path);

}  // namespace flux
