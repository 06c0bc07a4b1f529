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

}  // namespace
}  // namespace flux
