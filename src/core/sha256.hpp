#pragma once
// SHA-256 (FIPS 180-4) through OpenSSL's libcrypto EVP interface: of a byte string, or of a file
// read in chunks (inputs can be gigabytes). Lower-case hex, as `sha256sum` prints it.
#include <string>
#include <string_view>

namespace flux {

[[nodiscard]] std::string sha256_hex(std::string_view bytes);
// InputError naming the path when the file cannot be opened or read.
[[nodiscard]] std::string sha256_file(const std::string& path);

}  // namespace flux
