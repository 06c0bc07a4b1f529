#pragma once
// A JSON array written element by element into a string: large outputs (a 1,024-GPU rotor run's
// timeline has millions of events) would take several GB as one nlohmann DOM but a tenth of that
// as text. Each element is serialized compactly as soon as it is added, so the result is
// byte-identical to dumping a DOM array of the same elements. O(size of the output).
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace flux {

class JsonArrayWriter {
 public:
  void push_back(const nlohmann::ordered_json& element) {
    out_ += out_.empty() ? '[' : ',';
    out_ += element.dump();
  }
  // The array's text ("[]" when empty); the writer is left empty.
  [[nodiscard]] std::string take() && { return out_.empty() ? "[]" : std::move(out_) + ']'; }

 private:
  std::string out_;
};

}  // namespace flux
