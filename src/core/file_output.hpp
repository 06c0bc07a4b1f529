#pragma once
// Output files are written whole or not at all. Content goes to a temporary sibling with a name
// unique to this process (mkstemp), renamed over the target on commit; a failure, an exception or
// SIGINT/SIGTERM never leaves a half-written file or a stray temporary behind.
//
// While an OutputBatch is open, committed files are only staged: the batch publishes all of them
// at once when the command succeeded, or none of them. This is how a command with several outputs
// (a schedule and its summary, a simulation folder) avoids leaving some behind when a later one
// fails.
//
// Targets that are not regular files are honoured: a symlink is written through to the file it
// points to, a character device or FIFO (`-o /dev/stdout`) is written to directly, without a
// temporary.
#include <memory>
#include <ostream>
#include <string>

namespace flux {

class OutputFile {
 public:
  explicit OutputFile(std::string path);
  ~OutputFile();  // removes the temporary unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream();
  // Publishes the file (or stages it in the open OutputBatch). InputError naming the path on a
  // write or rename failure; the temporary is removed either way.
  void commit();
  // Publishes the file at once, even while an OutputBatch is open: for files that several
  // processes share or that live inside a folder published whole by a rename (sweep cells).
  void commit_now();

  struct State;

 private:
  std::unique_ptr<State> state_;
};

// Writes `content` to `path` through an OutputFile.
void write_file_atomic(const std::string& path, const std::string& content);
// Same, published at once (OutputFile::commit_now).
void write_file_now(const std::string& path, const std::string& content);

// Creates the output folder `dir` (and its parents) up front, so that a command with a long run
// fails at once on a path it could not write to; InputError naming `dir` and `flag`.
void prepare_output_dir(const std::string& dir, const std::string& flag);

// One per command (not nested): files committed while it is open are published by commit() in the
// order they were written, or discarded when the batch is destroyed uncommitted.
class OutputBatch {
 public:
  OutputBatch();
  ~OutputBatch();
  OutputBatch(const OutputBatch&) = delete;
  OutputBatch& operator=(const OutputBatch&) = delete;
  void commit();
};

// SIGINT and SIGTERM remove every temporary still open or staged, print one line and exit with
// 128 + the signal number (130, 143). Call once, at program start.
void remove_outputs_on_signal();

}  // namespace flux
