#pragma once
// Strict readers and writers of flux.fabric/1 and flux.circuit-schedule/1 (docs/formats.md).
// Readers reject unknown versions, missing fields, wrong types, negative or non-finite numbers
// and out-of-range indices with an InputError naming the file and the JSON pointer.
#include <ostream>
#include <string>

#include "fabric/fabric.hpp"

namespace flux::fabric {

inline constexpr int kMaxFabricGpus = 1 << 16;
inline constexpr int kMaxOcs = 1024;

// The one check of a fabric's values, for a fabric built in code (a binding, a sweep cell, a
// test): what the reader accepts from a file, with the reader's words. InputError at
// `label`/field, e.g. "fabric: /ocs: expected an integer in [1, 1024], got 0".
void validate_fabric(const Fabric& f, const std::string& label);

[[nodiscard]] Fabric read_fabric(const std::string& path);
[[nodiscard]] Fabric parse_fabric(const std::string& text, const std::string& label);
[[nodiscard]] std::string fabric_to_json(const Fabric& f);
[[nodiscard]] const char* to_string(CircuitKind k);

// Indices (switch, GPUs) are checked against `fabric`; task ids are resolved later against the
// workload (to_timed).
[[nodiscard]] CircuitSchedule read_circuit_schedule(const std::string& path, const Fabric& fabric);
[[nodiscard]] CircuitSchedule parse_circuit_schedule(const std::string& text,
                                                     const std::string& label,
                                                     const Fabric& fabric);
[[nodiscard]] std::string circuit_schedule_to_json(const CircuitSchedule& s);
// The same text, streamed into `out` as it is made.
void write_circuit_schedule_json(std::ostream& out, const CircuitSchedule& s);

}  // namespace flux::fabric
