#pragma once
// The sections of the report, each built from whatever of its data the inputs hold (none when
// they hold nothing for it).
#include <optional>
#include <vector>

#include "report_html/inputs.hpp"
#include "report_html/page.hpp"

namespace flux::report_html {

// Summary table and scheduler comparison over the runs that have a summary.
[[nodiscard]] std::optional<Section> summary_section(const ReportInputs& in);
// The τ sweep of `flux bench flux` (flux_bench.csv).
[[nodiscard]] std::optional<Section> bench_section(const ReportInputs& in);
// Per-OCS circuit timeline of each run with circuits.csv.
[[nodiscard]] std::optional<Section> circuits_section(const ReportInputs& in);
// Per-GPU compute and communication timeline, stalls and the critical path.
[[nodiscard]] std::optional<Section> gpu_section(const ReportInputs& in);
// NIC buffer over time: the total and the busiest GPUs, peaks marked.
[[nodiscard]] std::optional<Section> buffer_section(const ReportInputs& in);
// Demand heatmaps (from flows.csv and flux.demand/1 files) and matrix schedules' slots.
[[nodiscard]] std::optional<Section> matrix_section(const ReportInputs& in);
// Every summary's metadata as key/value, and the files the page was made from.
[[nodiscard]] Section metadata_section(const ReportInputs& in);

}  // namespace flux::report_html
