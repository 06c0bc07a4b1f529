#include <gtest/gtest.h>

#include <filesystem>

#include "support/cli.hpp"

namespace flux {
namespace {

using testing::slurp;
using testing::spit;

using testing::kFabric;
using testing::kScenario;

class ReportCli : public testing::CliTest {};

// A simulated run becomes one page that carries its chart library and data.
TEST_F(ReportCli, WritesOneSelfContainedPage) {
  ASSERT_EQ(flux("simulate --scenario " + kScenario + " --fabric " + kFabric +
                 " --scheduler flux-greedy -o run")
                .code,
            0);
  const auto r = flux("report run -o out.html");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string html = slurp(path("out.html"));
  if (html.find("vegaEmbed") == std::string::npos) GTEST_SKIP() << "no chart library built in";
  for (const char* id : {"summary", "circuits", "gpus", "buffer", "matrices", "metadata"})
    EXPECT_NE(html.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  EXPECT_NE(html.find("flux report run -o out.html"), std::string::npos);
}

TEST_F(ReportCli, BadInputExitsTwoNamingTheFile) {
  expect_rejected("report missing -o out.json", "missing: an existing folder or file");
  std::filesystem::create_directories(path("empty"));
  expect_rejected("report empty -o out.json", "a folder holding output files of flux");
  std::filesystem::create_directories(path("run"));
  spit(path("run/circuits.csv"), "switch,a,b,up,down\n0,1,2,0.5\n");
  expect_rejected("report run -o out.json", "circuits.csv: line 2");
}

}  // namespace
}  // namespace flux
