#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits. Sweeps name each cell's
// folder by the digest of its parameters, so the name is the same on every machine and run.
#include <string>
#include <string_view>

namespace flux {

[[nodiscard]] std::string sha256_hex(std::string_view bytes);

}  // namespace flux
