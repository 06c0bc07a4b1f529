#pragma once
// The compute slices of a simulator's Chrome trace (timeline.json, process 0: one track per
// GPU). The trace of a large run is hundreds of MB, so it is read as a stream of JSON events
// (nlohmann's SAX interface) keeping only those slices, never as a whole document.
#include <string>
#include <vector>

#include "report_html/inputs.hpp"

namespace flux::report_html {

[[nodiscard]] std::vector<ComputeSlice> read_compute_slices(const std::string& text,
                                                            const std::string& path);

}  // namespace flux::report_html
