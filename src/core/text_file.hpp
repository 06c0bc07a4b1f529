#pragma once
// The one whole-file read: every reader of a text or binary input file goes through it, so a
// missing or unreadable file is the same InputError naming it everywhere.
#include <string>

namespace flux {

[[nodiscard]] std::string read_text_file(const std::string& path);

}  // namespace flux
