#pragma once
// A large output file written as a stream but published atomically: the content goes to a
// temporary sibling that commit() renames over the target; without commit() (an error while
// generating) the temporary is removed, so no half-written file is left (like write_file_atomic).
#include <fstream>
#include <string>

namespace flux {

class StreamedFile {
 public:
  explicit StreamedFile(std::string path);
  ~StreamedFile();
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;
  std::ostream& stream() { return out_; }
  void commit();

 private:
  std::string path_, tmp_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace flux
