#include "core/sha256.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"

namespace flux {
namespace {

// The test vectors of FIPS 180-4's examples (NIST CSRC, SHA-256 one-block, two-block, long).
TEST(Sha256, NistVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// A file is hashed in chunks: one larger than a chunk hashes like its content in one piece.
TEST(Sha256, FileMatchesItsContentAndBadPathsAreInputErrors) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("flux-sha256-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string content;
  for (int i = 0; i < 100000; ++i) content += std::to_string(i) + ",";
  std::ofstream((dir / "big.txt").string(), std::ios::binary) << content;
  EXPECT_EQ(sha256_file((dir / "big.txt").string()), sha256_hex(content));
  EXPECT_THROW((void)sha256_file((dir / "missing.txt").string()), InputError);
  EXPECT_THROW((void)sha256_file(dir.string()), InputError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace flux
