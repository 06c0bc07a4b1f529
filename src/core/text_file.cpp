#include "core/text_file.hpp"

#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace flux {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open file");
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

}  // namespace flux
