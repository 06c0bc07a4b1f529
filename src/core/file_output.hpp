#pragma once
// Output files are written whole or not at all: content goes to a temporary sibling that is
// renamed over the target, so a failure never leaves a half-written file behind.
#include <string>

namespace flux {

void write_file_atomic(const std::string& path, const std::string& content);

}  // namespace flux
