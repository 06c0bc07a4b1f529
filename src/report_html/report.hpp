#pragma once
// `flux report`: one self-contained HTML page from the output folders and files of Flux's
// commands (see inputs.hpp), with a section for each kind of data they hold.
#include <string>
#include <vector>

namespace flux {

// The page; `command_line` is shown in it. An InputError for unreadable or foreign inputs.
[[nodiscard]] std::string html_report(const std::vector<std::string>& paths,
                                      const std::string& command_line);

}  // namespace flux
