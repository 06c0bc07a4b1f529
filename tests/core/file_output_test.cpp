#include "core/file_output.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace flux {
namespace {

namespace fs = std::filesystem;

class FileOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flux-file-output-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Every name in the folder, to see that no temporary is left behind.
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }

  fs::path dir_;
};

TEST_F(FileOutput, WritesWholeFileAndLeavesNoTemporary) {
  write_file_atomic(path("a.txt"), "hello");
  EXPECT_EQ(read(path("a.txt")), "hello");
  EXPECT_EQ(names(), std::vector<std::string>{"a.txt"});
}

TEST_F(FileOutput, TwoWritersOfOneTargetUseDistinctTemporariesAndBothSucceed) {
  OutputFile first(path("out.txt"));
  OutputFile second(path("out.txt"));
  first.stream() << "first";
  second.stream() << "second";
  first.commit();
  second.commit();  // with one shared temporary name this rename would fail
  EXPECT_EQ(read(path("out.txt")), "second");
  EXPECT_EQ(names(), std::vector<std::string>{"out.txt"});
}

TEST_F(FileOutput, UncommittedFileIsRemoved) {
  {
    OutputFile f(path("x.txt"));
    f.stream() << "partial";
  }
  EXPECT_TRUE(names().empty());
}

TEST_F(FileOutput, MissingDirectoryIsAnInputErrorNamingThePath) {
  try {
    write_file_atomic(path("nodir/x.txt"), "x");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path("nodir/x.txt"));
  }
}

TEST_F(FileOutput, DirectoryAsTargetIsRejectedBeforeWriting) {
  fs::create_directories(dir_ / "d");
  EXPECT_THROW(write_file_atomic(path("d"), "x"), InputError);
  EXPECT_EQ(names(), std::vector<std::string>{"d"});
}

TEST_F(FileOutput, BatchPublishesAllFilesOnCommitOnly) {
  {
    OutputBatch batch;
    write_file_atomic(path("a.txt"), "a");
    write_file_atomic(path("b.txt"), "b");
    EXPECT_FALSE(fs::exists(path("a.txt")));  // staged, not yet published
    batch.commit();
  }
  EXPECT_EQ(read(path("a.txt")), "a");
  EXPECT_EQ(read(path("b.txt")), "b");
  EXPECT_EQ(names(), (std::vector<std::string>{"a.txt", "b.txt"}));
}

TEST_F(FileOutput, BatchWithAFailingLaterOutputPublishesNothing) {
  try {
    OutputBatch batch;
    write_file_atomic(path("w.json"), "workload");
    write_file_atomic(path("nodir/d.json"), "demand");  // fails: the command fails
    batch.commit();
    FAIL() << "expected InputError";
  } catch (const InputError&) {
  }
  EXPECT_TRUE(names().empty());
}

TEST_F(FileOutput, SymlinkIsWrittenThroughToItsTarget) {
  write_file_atomic(path("real.txt"), "old");
  fs::create_symlink("real.txt", dir_ / "link.txt");
  write_file_atomic(path("link.txt"), "new");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.txt"));
  EXPECT_EQ(read(path("real.txt")), "new");
  EXPECT_EQ(names(), (std::vector<std::string>{"link.txt", "real.txt"}));
}

TEST_F(FileOutput, FifoIsWrittenInPlaceWithoutATemporary) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the reader end
    std::ifstream in(path("pipe"));
    std::string s;
    std::getline(in, s);
    ::_exit(s == "through the pipe" ? 0 : 1);
  }
  write_file_atomic(path("pipe"), "through the pipe\n");
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(fs::status(path("pipe")).type(), fs::file_type::fifo);
}

TEST_F(FileOutput, DeviceIsWrittenInPlace) {
  write_file_atomic("/dev/null", "discarded");
  EXPECT_EQ(fs::status("/dev/null").type(), fs::file_type::character);
}

TEST_F(FileOutput, SigtermRemovesOpenAndStagedTemporariesAndExits143) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      remove_outputs_on_signal();
      OutputBatch batch;
      write_file_atomic(path("staged.txt"), "staged");
      OutputFile open(path("open.txt"));
      open.stream() << "half";
      open.stream().flush();
      ::raise(SIGTERM);
    } catch (...) {
    }
    ::_exit(0);  // not reached when the handler runs
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 143);
  EXPECT_TRUE(names().empty());
}

}  // namespace
}  // namespace flux
