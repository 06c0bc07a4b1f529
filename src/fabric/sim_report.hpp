#pragma once
// The files of one simulation run (docs/formats.md): flux.summary/1, circuits.csv,
// flows.csv, nic_buffer.csv and a Chrome Trace Event timeline (opens in Perfetto: one track per
// GPU compute stream, one per port with its circuits, the dark τ before each change, and the hops
// it carried, and a counter track per GPU with its NIC, waiting and HBM-held bytes). Pure
// formatting, O(size of the output).
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fabric/nic_buffer.hpp"
#include "fabric/replay.hpp"

namespace flux::fabric {

// What produced the run, echoed in the summary.
struct RunContext {
  std::string workload_file;
  std::string fabric_file;
  std::string scheduler;  // name, or the scheduler named in a replayed file
  nlohmann::ordered_json options = nlohmann::ordered_json::object();  // from its options table
  bool replayed = false;
};

// The flux.summary/1 document; schedulers with more to report (Flux's solver) extend it.
[[nodiscard]] nlohmann::ordered_json summary_document(const SimMetrics& m,
                                                      const workload::Workload& w, const Fabric& f,
                                                      const RunContext& ctx);
[[nodiscard]] std::string summary_json(const SimMetrics& m, const workload::Workload& w,
                                       const Fabric& f, const RunContext& ctx);
[[nodiscard]] std::string circuits_csv(const TimedSchedule& s);
[[nodiscard]] std::string flows_csv(const workload::Workload& w, const Trace& trace);
// One row per (breakpoint, GPU whose buffer changed there); linear in between.
[[nodiscard]] std::string nic_buffer_csv(const workload::Workload& w, const Fabric& f,
                                         const SimResult& r);
[[nodiscard]] std::string timeline_json(const workload::Workload& w, const Fabric& f,
                                        const SimResult& r);
// The same text, streamed into `out` as it is made (it is the largest output: hundreds of MB
// at 1,024 GPUs).
void write_timeline_json(std::ostream& out, const workload::Workload& w, const Fabric& f,
                         const SimResult& r);

// The files a run writes beside summary.json, in the order they are written.
[[nodiscard]] const std::vector<std::string>& sim_output_files();
// Writes the files of one run; the NIC-buffer curves that nic_buffer.csv and the timeline's
// counter tracks both show are computed once for all of them.
class SimOutputWriter {
 public:
  SimOutputWriter(const workload::Workload& w, const Fabric& f, const SimResult& r);
  // The content of one file (`name` from sim_output_files()), streamed into `out`.
  void write(std::ostream& out, const std::string& name);
  // The same content as a string (for files kept in memory, e.g. a sweep cell's).
  [[nodiscard]] std::string text(const std::string& name);

 private:
  const std::vector<BufferSample>& buffer_series();
  const workload::Workload& w_;
  const Fabric& f_;
  const SimResult& r_;
  std::optional<std::vector<BufferSample>> series_;
};

// The content of one of them (`name` from sim_output_files()), streamed into `out` or returned.
void write_sim_output(std::ostream& out, const std::string& name, const workload::Workload& w,
                      const Fabric& f, const SimResult& r);
[[nodiscard]] std::string sim_output_file(const std::string& name, const workload::Workload& w,
                                          const Fabric& f, const SimResult& r);

}  // namespace flux::fabric
