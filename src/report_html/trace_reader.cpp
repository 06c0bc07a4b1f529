#include "report_html/trace_reader.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"

namespace flux::report_html {
namespace {

using nlohmann::json;

// Depth 1: the top object; 2: the traceEvents array; 3: an event; deeper: its args (skipped).
class SliceReader : public nlohmann::json_sax<json> {
 public:
  explicit SliceReader(const std::string& path) : path_(path) {}
  std::vector<ComputeSlice> slices;
  bool saw_events = false;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t v) override { return number(static_cast<double>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v)); }
  bool number_float(number_float_t v, const string_t&) override { return number(v); }
  bool string(string_t& v) override {
    if (depth_ != 3) return true;
    if (key_ == "name") name_ = std::move(v);
    if (key_ == "ph") x_ = v == "X";
    return true;
  }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    if (++depth_ == 3) event_ = {}, x_ = false, pid_ = tid_ = -1, name_.clear();
    return true;
  }
  bool end_object() override {
    if (depth_-- == 3 && x_ && pid_ == 0) {
      if (tid_ < 0 || !(event_.start >= 0) || !(event_.end >= 0))
        throw InputError(path_, fmt::format("/traceEvents/{}", index_),
                         "a compute slice with tid, ts and dur");
      event_.gpu = static_cast<int>(tid_);
      event_.end += event_.start;
      event_.name = std::move(name_);
      slices.push_back(std::move(event_));
    }
    if (depth_ == 2) ++index_;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    if (depth_ == 2) saw_events = saw_events || top_key_ == "traceEvents";
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ == 1) top_key_ = k;
    if (depth_ == 3) key_ = k;
    return true;
  }
  bool parse_error(std::size_t at, const std::string&,
                   const nlohmann::detail::exception&) override {
    throw InputError(path_, fmt::format("byte {}", at), "valid JSON (a Chrome trace)");
  }

 private:
  // Chrome trace times are microseconds.
  bool number(double v) {
    if (depth_ != 3 || !std::isfinite(v)) return true;
    if (key_ == "pid") pid_ = v;
    if (key_ == "tid") tid_ = v >= 0 && v < (1 << 20) ? v : -1;
    if (key_ == "ts") event_.start = v * 1e-6;
    if (key_ == "dur") event_.end = v * 1e-6;
    return true;
  }

  const std::string& path_;
  int depth_ = 0;
  std::size_t index_ = 0;
  std::string top_key_, key_, name_;
  ComputeSlice event_;
  bool x_ = false;
  double pid_ = -1, tid_ = -1;
};

}  // namespace

std::vector<ComputeSlice> read_compute_slices(const std::string& text, const std::string& path) {
  SliceReader reader(path);
  json::sax_parse(text, &reader);
  if (!reader.saw_events)
    throw InputError(path, "/traceEvents", "a Chrome trace (an object with traceEvents)");
  return std::move(reader.slices);
}

}  // namespace flux::report_html
