#pragma once
// Reads a JSON document whose bulk is a few top-level arrays of records (a workload's tasks, a
// schedule's messages and circuits). Each record is handed to its reader as soon as the parser
// has it, then dropped: reading holds one record at a time instead of a DOM of the whole document
// (about ten times its size), and the file is never held whole either.
//
// A record can be read as parsed once the header members it depends on have been read, and every
// array before its own: Flux writes its files in that order. A document in another order is read
// from its DOM by the same readers in the same order, so both orders accept the same documents
// and name the same first error. Each header member and each array may appear once: a DOM would
// keep the last of two, while records read as parsed would have met the first.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/json_reader.hpp"

namespace flux {

class FileReader;

struct JsonRecordArray {
  std::string key;       // a member of the root
  std::string expected;  // what an error says when it is not an array, e.g. "an array of tasks"
  std::function<void(const JsonNode& record)> read;  // each record, at /key/0, /key/1, ...
};

class JsonRecordReader {
 public:
  // `read_header` reads the `header` members, from the root or from an object of just them.
  JsonRecordReader(std::string file, std::vector<std::string> header,
                   std::function<void(const JsonNode& root)> read_header,
                   std::vector<JsonRecordArray> arrays);

  // Reads the header, then every record of every array in order. Returns the root for its other
  // members (the arrays read as parsed are left empty in it).
  JsonNode read(const std::string& text);
  JsonNode read(FileReader& in);
  [[nodiscard]] const std::string& file() const { return *file_; }  // the label errors name

 private:
  using Event = nlohmann::json::parse_event_t;
  bool on_event(int depth, Event event, nlohmann::json& value);
  void on_root_event(Event event, const nlohmann::json& value);
  bool header_ready();  // reads the header from the members parsed so far, if all are there
  JsonNode finish(JsonNode root);
  nlohmann::json::parser_callback_t callback();

  std::shared_ptr<const std::string> file_;
  std::vector<std::string> header_keys_;
  std::function<void(const JsonNode&)> read_header_;
  std::vector<JsonRecordArray> arrays_;

  std::string key_;             // the root member being parsed
  std::set<std::string> seen_;  // header members and arrays met so far
  nlohmann::json header_;       // the header members parsed before the first array
  bool header_read_ = false;
  std::size_t arrays_done_ = 0;  // arrays [0, arrays_done_) are read
  bool streaming_ = false;       // the records of arrays_[arrays_done_] are read as parsed
  std::size_t records_ = 0;      // records of that array read so far
};

}  // namespace flux
