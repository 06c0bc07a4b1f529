#pragma once
// Command-line flags generated from the schedulers' options tables: one flag per option (an
// option several schedulers share, such as flux and flux-greedy's lookahead, once), its help and
// default from the table, its value parsed and checked against it. Errors name the flag.
#include <CLI/CLI.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "schedulers/registry.hpp"

namespace flux::cli {

class SchedulerFlags {
 public:
  // Registers the flags of `schedulers` on `cmd`; `defaults` overrides a table default by key
  // (text as it is written on the command line, e.g. {"time_limit", "300s"}).
  void add_to(CLI::App& cmd, const std::vector<const schedulers::WorkloadScheduler*>& schedulers,
              const std::map<std::string, std::string>& defaults = {});
  // The options of `s` as the command line sets them (overridden defaults included), parsed and
  // checked; InputError names the flag.
  [[nodiscard]] OptionValues values_for(const schedulers::WorkloadScheduler& s) const;
  // Sets `key` as if it had been given (a command's own flag that feeds a scheduler option).
  void set(const std::string& key, const std::string& text);
  // Runs `body`, renaming an InputError on an option's key to its flag.
  template <class Body>
  decltype(auto) naming_flags(Body body) const {
    try {
      return body();
    } catch (const InputError& e) {
      rethrow_with_flag(e);
      throw;
    }
  }

 private:
  struct Flag {
    OptionSpec spec;
    std::string text;       // value of a valued option
    bool switched = false;  // a boolean flag was given
    bool overridden = false;
    CLI::Option* option = nullptr;
  };
  [[nodiscard]] const Flag* find(const std::string& key) const;
  void rethrow_with_flag(const InputError& e) const;
  std::vector<std::unique_ptr<Flag>> flags_;  // stable addresses: CLI11 writes into them
};

// The error's text with an option key renamed to its flag (the key of any registered scheduler).
[[nodiscard]] std::string naming_flag(const InputError& e);

// Every registered workload scheduler.
[[nodiscard]] std::vector<const schedulers::WorkloadScheduler*> all_workload_schedulers();
[[nodiscard]] std::vector<std::string> scheduler_names();

}  // namespace flux::cli
