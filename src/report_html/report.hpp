#pragma once
// `flux report`: one self-contained HTML page from the output folders and files of Flux's
// commands (see inputs.hpp), with a section for each kind of data they hold.
#include <string>
#include <vector>

#include "core/progress.hpp"

namespace flux::report_html {

// The page; `command_line` is shown in it. An InputError for unreadable or foreign inputs.
// Reading a 1,024-GPU run's outputs takes seconds: the inputs and each section are stages.
[[nodiscard]] std::string html_report(const std::vector<std::string>& paths,
                                      const std::string& command_line,
                                      Progress& progress = no_progress());

}  // namespace flux::report_html
