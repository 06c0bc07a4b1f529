#include "cli/scheduler_flags.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "core/error.hpp"

namespace flux::cli {
namespace {

// Checks a flag's value when the command line is parsed, whether or not the command runs the
// scheduler that reads it, so that a bad value is never silently ignored.
CLI::Validator value_check(const OptionSpec& spec) {
  return CLI::Validator(
      [spec](const std::string& text) {
        try {
          (void)parse_option(spec, text, flag_of(spec));
          return std::string();
        } catch (const InputError& e) {
          return e.expected();
        }
      },
      "");
}

}  // namespace

void SchedulerFlags::add_to(CLI::App& cmd,
                            const std::vector<const schedulers::WorkloadScheduler*>& schedulers,
                            const std::map<std::string, std::string>& defaults) {
  for (const schedulers::WorkloadScheduler* s : schedulers)
    for (const OptionSpec& spec : s->options) {
      if (const Flag* seen = find(spec.key)) {
        if (seen->spec.type != spec.type || flag_of(seen->spec) != flag_of(spec))
          throw std::logic_error("option " + spec.key + " declared twice with different types");
        continue;
      }
      auto flag = std::make_unique<Flag>();
      flag->spec = spec;
      const auto d = defaults.find(spec.key);
      flag->overridden = d != defaults.end();
      flag->text = flag->overridden ? d->second : default_text(spec);
      const std::string help = fmt::format("{}: {}", s->name, describe(spec));
      if (spec.type == OptionType::boolean) {
        // A boolean is a switch to the value that is not the default: --aggregate, --no-prune.
        const bool on = std::get<bool>(spec.default_value);
        flag->option =
            cmd.add_flag(flag_of(spec), flag->switched, (on ? "turn off " : "turn on ") + help);
      } else {
        std::string type(to_string(spec.type));
        std::transform(type.begin(), type.end(), type.begin(), ::toupper);
        flag->option = cmd.add_option(flag_of(spec), flag->text, help)
                           ->default_str(flag->text)
                           ->type_name(type)
                           ->check(value_check(spec));
      }
      flags_.push_back(std::move(flag));
    }
}

const SchedulerFlags::Flag* SchedulerFlags::find(const std::string& key) const {
  for (const auto& f : flags_)
    if (f->spec.key == key) return f.get();
  return nullptr;
}

void SchedulerFlags::set(const std::string& key, const std::string& text) {
  for (auto& f : flags_)
    if (f->spec.key == key) {
      f->text = text;
      f->overridden = true;
    }
}

OptionValues SchedulerFlags::values_for(const schedulers::WorkloadScheduler& s) const {
  OptionValues values;
  for (const OptionSpec& spec : s.options) {
    const Flag* f = find(spec.key);
    if (f == nullptr) continue;
    if (spec.type == OptionType::boolean) {
      if (f->switched) values.set(spec.key, !std::get<bool>(spec.default_value));
    } else if (f->overridden || f->option->count() > 0) {
      values.set(spec.key, parse_option(spec, f->text, flag_of(spec)));
    }
  }
  return values;
}

void SchedulerFlags::rethrow_with_flag(const InputError& e) const {
  const Flag* f = e.file().empty() ? find(e.field()) : nullptr;
  if (f != nullptr) throw InputError("", flag_of(f->spec), e.expected());
}

std::string naming_flag(const InputError& e) {
  if (e.file().empty())
    for (const schedulers::WorkloadScheduler& s : schedulers::workload_schedulers())
      if (const OptionSpec* spec = find_option(s.options, e.field()))
        return InputError("", flag_of(*spec), e.expected()).what();
  return e.what();
}

std::vector<const schedulers::WorkloadScheduler*> all_workload_schedulers() {
  std::vector<const schedulers::WorkloadScheduler*> all;
  for (const schedulers::WorkloadScheduler& s : schedulers::workload_schedulers())
    all.push_back(&s);
  return all;
}

std::vector<std::string> scheduler_names() {
  std::vector<std::string> names;
  for (const schedulers::WorkloadScheduler& s : schedulers::workload_schedulers())
    names.push_back(s.name);
  return names;
}

}  // namespace flux::cli
