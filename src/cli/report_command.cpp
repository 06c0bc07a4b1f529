// `flux report DIR... -o report.html`: one self-contained HTML page from output folders/files.
#include <fmt/format.h>

#include <memory>

#include "cli/commands.hpp"
#include "cli/progress_flag.hpp"
#include "core/file_output.hpp"
#include "report_html/report.hpp"

namespace flux::cli {

void add_report_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> inputs;
    std::string out;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "report", "One self-contained HTML report (charts, offline) from output folders and files");
  cmd->add_option("inputs", args->inputs,
                  "output folders of simulate/bench, or files: summary.json, flux_bench.csv, "
                  "matrix schedules, demand matrices")
      ->default_str("")
      ->required();
  cmd->add_option("-o,--output", args->out, "the HTML file to write")->required();
  cmd->callback([args] {
    std::string line = "flux report";
    for (const std::string& in : args->inputs) line += " " + in;
    line += " -o " + args->out;
    write_file_atomic(args->out, report_html::html_report(args->inputs, line, progress()));
    fmt::print("wrote {}\n", args->out);
  });
}

}  // namespace flux::cli
