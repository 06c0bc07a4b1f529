#include "core/json_records.hpp"

#include <algorithm>
#include <utility>

#include "core/error.hpp"
#include "core/file_input.hpp"

namespace flux {

JsonRecordReader::JsonRecordReader(std::string file, std::vector<std::string> header,
                                   std::function<void(const JsonNode& root)> read_header,
                                   std::vector<JsonRecordArray> arrays)
    : file_(std::make_shared<const std::string>(std::move(file))),
      header_keys_(std::move(header)),
      read_header_(std::move(read_header)),
      arrays_(std::move(arrays)) {}

JsonNode JsonRecordReader::read(const std::string& text) {
  return finish(JsonNode::parse(text, *file_, callback()));
}

JsonNode JsonRecordReader::read(FileReader& in) {
  return finish(JsonNode::parse(in, *file_, callback()));
}

nlohmann::json::parser_callback_t JsonRecordReader::callback() {
  return [this](int depth, Event event, nlohmann::json& value) {
    return on_event(depth, event, value);
  };
}

// False drops the value just parsed: a record once read.
bool JsonRecordReader::on_event(int depth, Event event, nlohmann::json& value) {
  if (depth == 1) {
    on_root_event(event, value);
  } else if (depth == 2 && streaming_ &&
             (event == Event::value || event == Event::object_end || event == Event::array_end)) {
    const JsonRecordArray& a = arrays_[arrays_done_];
    a.read(JsonNode::wrap(value, file_, "/" + a.key + "/" + std::to_string(records_++)));
    return false;
  }
  return true;
}

void JsonRecordReader::on_root_event(Event event, const nlohmann::json& value) {
  const auto is_header = [&] {
    return std::find(header_keys_.begin(), header_keys_.end(), key_) != header_keys_.end();
  };
  if (event == Event::key) {
    key_ = value.get<std::string>();
    const bool is_array = std::any_of(arrays_.begin(), arrays_.end(),
                                      [&](const JsonRecordArray& a) { return a.key == key_; });
    if ((is_header() || is_array) && !seen_.insert(key_).second)
      throw InputError(*file_, "/" + key_, "expected one such field, got a second");
  } else if (event == Event::value && is_header()) {
    header_[key_] = value;
  } else if (event == Event::array_start) {
    streaming_ =
        arrays_done_ < arrays_.size() && key_ == arrays_[arrays_done_].key && header_ready();
    records_ = 0;
  } else if (event == Event::array_end && streaming_) {
    streaming_ = false;
    ++arrays_done_;
  }
}

bool JsonRecordReader::header_ready() {
  if (header_read_) return true;
  for (const std::string& k : header_keys_)
    if (!header_.contains(k)) return false;
  read_header_(JsonNode::wrap(header_, file_, ""));
  header_read_ = true;
  return true;
}

JsonNode JsonRecordReader::finish(JsonNode root) {
  if (!header_read_) read_header_(root);
  for (std::size_t k = arrays_done_; k < arrays_.size(); ++k) {
    const JsonNode records = root[arrays_[k].key];
    if (!records.is_array()) records.fail(arrays_[k].expected);
    for (std::size_t i = 0; i < records.size(); ++i) arrays_[k].read(records.at(i));
  }
  return root;
}

}  // namespace flux
