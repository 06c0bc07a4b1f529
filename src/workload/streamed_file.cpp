#include "workload/streamed_file.hpp"

#include <cstdio>
#include <filesystem>

#include "core/error.hpp"

namespace flux {

StreamedFile::StreamedFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp-flux") {
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) throw InputError(path_, "", "cannot open for writing");
}

StreamedFile::~StreamedFile() {
  if (committed_) return;
  out_.close();
  std::remove(tmp_.c_str());
}

void StreamedFile::commit() {
  out_.flush();
  if (!out_) throw InputError(path_, "", "write failed");
  out_.close();
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) throw InputError(path_, "", "cannot rename temporary file: " + ec.message());
  committed_ = true;
}

}  // namespace flux
