#pragma once
// The CLI tests' harness: runs the real `flux` binary (FLUX_BINARY) in a fresh temporary
// directory and captures its exit code, stdout and stderr, so CLI tests see exactly what a user
// sees; and the example inputs they share.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/fabrics.hpp"

namespace flux::testing {

// The test data folder, the repository's examples/, and the Flux paper's 8-GPU scenario and
// fabric in it.
inline const std::string kData = FLUX_TEST_DATA_DIR;
inline const std::string kExamples = kData + "/../../examples/";
inline const std::string kScenario = kExamples + "llama3-8b-8l-tp4-dp2.json";
inline const std::string kFabric = kExamples + "fabric-8gpu-2ocs.json";

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void spit(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("flux-cli-") + info->test_suite_name() + "-" + info->name() + "-" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }

  // `args` is passed to the shell as is (quote as needed); runs inside dir().
  CliResult flux(const std::string& args) const { return run_shell("'" FLUX_BINARY "' " + args); }
  // As flux(), with the file `input` (in dir()) piped to its standard input.
  CliResult flux_piped(const std::string& input, const std::string& args) const {
    return run_shell("cat '" + input + "' | '" FLUX_BINARY "' " + args);
  }
  // Runs `command` in dir() with stdout and stderr captured (a pipeline's status is its last
  // command's).
  CliResult run_shell(const std::string& command) const {
    const std::string cmd =
        "cd '" + dir_.string() + "' && " + command + " >stdout.txt 2>stderr.txt";
    const int status = std::system(cmd.c_str());
    CliResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(dir_ / "stdout.txt");
    r.err = slurp(dir_ / "stderr.txt");
    return r;
  }

  // The bad-input contract: `args` (which writes to out.json if it writes anything) exits 2 with
  // one error line on stderr containing `needle` (after progress lines, if any), and leaves no
  // output file behind.
  void expect_rejected(const std::string& args, const std::string& needle) {
    const int before = stray_files();
    const CliResult r = flux(args);
    EXPECT_EQ(r.code, 2) << args << "\nstdout: " << r.out << "\nstderr: " << r.err;
    // Stages that finished before the error may have printed their progress lines (stderr is not
    // a terminal here); the error itself is one line, the last.
    std::string error = r.err;
    for (std::size_t eol;
         (eol = error.find('\n')) != std::string::npos && eol + 1 < error.size();) {
      const std::string line = error.substr(0, eol);
      EXPECT_NE(line.find(" done in "), std::string::npos) << "not a progress line: " << r.err;
      EXPECT_EQ(line.find("error"), std::string::npos) << r.err;
      error.erase(0, eol + 1);
    }
    EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << r.err;
    EXPECT_EQ(error.rfind("flux: error: ", 0), 0u) << r.err;
    EXPECT_NE(error.find(needle), std::string::npos) << "'" << needle << "' not in: " << r.err;
    EXPECT_FALSE(exists("out.json")) << args;
    EXPECT_EQ(stray_files(), before) << "left a file behind: " << args;
  }
  std::filesystem::path path(const std::string& name) const { return dir_ / name; }
  // Writes `text` to `name` in dir() and returns `name` (commands run in dir()).
  std::string write(const std::string& name, const std::string& text) const {
    spit(path(name), text);
    return name;
  }
  std::string write_fabric(const std::string& name, const FabricText& f) const {
    return write(name, fabric_json(f));
  }
  bool exists(const std::string& name) const { return std::filesystem::exists(dir_ / name); }
  // Files in dir() other than the captured streams (to check that nothing was left behind).
  int stray_files() const {
    int k = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      k += name != "stdout.txt" && name != "stderr.txt";
    }
    return k;
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace flux::testing
