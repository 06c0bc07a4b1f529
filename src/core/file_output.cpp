#include "core/file_output.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"

namespace flux {

void write_file_atomic(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp-flux";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, "", "cannot open for writing");
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw InputError(path, "", "write failed");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw InputError(path, "", "cannot rename temporary file: " + ec.message());
  }
}

}  // namespace flux
