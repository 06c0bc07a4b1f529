#pragma once
// A JSON array written element by element into a stream: large outputs (a 1,024-GPU rotor run's
// timeline has millions of events) would take several GB as one nlohmann DOM, and hundreds of MB
// as one string (plus its copies while it grows); streamed to the file they take neither. Each
// element is serialized compactly as soon as it is added, so the result is byte-identical to
// dumping a DOM array of the same elements. O(size of the output).
#include <nlohmann/json.hpp>
#include <ostream>

namespace flux::fabric {

class JsonArrayWriter {
 public:
  // Writes into `out` as elements come (an output file's stream: nothing is held in memory).
  explicit JsonArrayWriter(std::ostream& out) : out_(out) {}
  void push_back(const nlohmann::ordered_json& element) {
    out_ << (empty_ ? '[' : ',') << element.dump();
    empty_ = false;
  }
  // Closes the array ("[]" when nothing was pushed).
  void finish() { out_ << (empty_ ? "[]" : "]"); }

 private:
  std::ostream& out_;
  bool empty_ = true;
};

}  // namespace flux::fabric
