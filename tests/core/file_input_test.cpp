#include "core/file_input.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"

namespace flux {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  return fs::temp_directory_path() / ("flux-file-input-" + name + "-" + std::to_string(::getpid()));
}

TEST(FileInput, ReadsARegularFileWhole) {
  const fs::path p = scratch("regular");
  std::ofstream(p, std::ios::binary) << std::string(200000, 'x') << "end";
  const std::string text = read_file(p.string());
  fs::remove(p);
  EXPECT_EQ(text.size(), 200003u);
  EXPECT_EQ(text.substr(200000), "end");
}

TEST(FileInput, MissingFileAndDirectoryAreInputErrorsNamingThePath) {
  try {
    (void)read_file("/nonexistent/flux-input.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/flux-input.json");
  }
  EXPECT_THROW((void)read_file("/tmp"), InputError);
}

// /dev/zero never ends: it is refused at the limit instead of exhausting memory.
TEST(FileInput, EndlessDeviceStopsAtTheStreamLimit) {
  EXPECT_THROW((void)read_file("/dev/zero", 1 << 20), InputError);
}

// A FIFO that nobody writes to reads as empty instead of blocking forever.
TEST(FileInput, FifoWithoutWriterReadsAsEmpty) {
  const fs::path p = scratch("fifo");
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  const std::string text = read_file(p.string());
  fs::remove(p);
  EXPECT_TRUE(text.empty());
}

// Byte by byte across buffer refills (the buffer is 1 MiB), the same bytes as read_file.
TEST(FileInput, ReaderIteratesTheSameBytesAsReadFile) {
  const fs::path p = scratch("reader");
  std::string pattern;
  for (int i = 0; i < 2'700'000; ++i) pattern += static_cast<char>('a' + i % 23);
  std::ofstream(p, std::ios::binary) << pattern;
  FileReader in(p.string());
  EXPECT_TRUE(in.regular());
  EXPECT_EQ(in.regular_size(), pattern.size());
  const std::string bytes(in.begin(), in.end());
  const std::string whole = read_file(p.string());
  fs::remove(p);
  EXPECT_EQ(bytes, pattern);
  EXPECT_EQ(whole, pattern);
}

TEST(FileInput, ReaderKeepsTheStreamLimitAndEndsEmpty) {
  FileReader zero("/dev/zero", 3 << 20);
  EXPECT_FALSE(zero.regular());
  EXPECT_THROW(
      {
        for (std::string_view c = zero.next_chunk(); !c.empty(); c = zero.next_chunk()) {
        }
      },
      InputError);
  const fs::path p = scratch("empty");
  std::ofstream(p, std::ios::binary).flush();
  FileReader empty(p.string());
  fs::remove(p);
  EXPECT_TRUE(empty.begin() == FileReader::end());
  EXPECT_TRUE(empty.next_chunk().empty());
}

}  // namespace
}  // namespace flux
