#pragma once
// One error type for every bad input: it names the file, the field and what was expected.
#include <stdexcept>
#include <string>

namespace flux {

class InputError : public std::runtime_error {
 public:
  // `file` may be empty (command-line input); `field` is a JSON pointer or option name.
  InputError(std::string file, std::string field, const std::string& expected);
  const std::string& file() const { return file_; }
  const std::string& field() const { return field_; }
  const std::string& expected() const { return expected_; }

 private:
  std::string file_;
  std::string field_;
  std::string expected_;
};

}  // namespace flux
