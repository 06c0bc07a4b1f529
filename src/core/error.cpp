#include "core/error.hpp"

namespace flux {
namespace {
std::string compose(const std::string& file, const std::string& field, const std::string& what) {
  std::string msg;
  if (!file.empty()) msg += file + ": ";
  if (!field.empty()) msg += field + ": ";
  return msg + what;
}
}  // namespace

InputError::InputError(std::string file, std::string field, const std::string& expected)
    : std::runtime_error(compose(file, field, expected)),
      file_(std::move(file)),
      field_(std::move(field)),
      expected_(expected) {}

}  // namespace flux
