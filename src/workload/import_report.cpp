// ImportReport (workload_importers.hpp) and the GPU roofline the importers time op counts with.
#include <fmt/format.h>

#include "core/error.hpp"
#include "workload/presets.hpp"
#include "workload/workload_importers.hpp"

namespace flux::workload {

void ImportReport::add(const std::string& what, std::int64_t n) {
  for (auto& [name, count] : counts)
    if (name == what) {
      count += n;
      return;
    }
  counts.emplace_back(what, n);
}

std::int64_t ImportReport::count(const std::string& what) const {
  for (const auto& [name, n] : counts)
    if (name == what) return n;
  return 0;
}

std::string ImportReport::to_text() const {
  std::string out;
  for (const std::string& l : layers) out += l + "\n";
  for (const auto& [name, n] : counts) out += fmt::format("{}: {}\n", name, n);
  return out;
}

HardwareConfig gpu_hardware(const std::string& preset, const std::string& field) {
  const GpuConfig* g = find_gpu_preset(preset);
  if (!g) throw InputError("", field, "a GPU preset (a100, h100, h200, b200), got " + preset);
  HardwareConfig h;
  h.gpu = g->name;
  h.peak_flops = g->peak_flops;
  h.memory_bandwidth = g->memory_bandwidth;
  return h;
}

}  // namespace flux::workload
