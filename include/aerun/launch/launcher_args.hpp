// A LauncherSpec as `aerun env` flags and back: a job script carries its case's launcher into the
// job this way (job_script.cpp writes to_args, `aerun env` reads them with the same table), so a
// new launcher setting is one row of launcher_flags().
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aerun/case/launcher_spec.hpp"

namespace aerun {

// One setting of LauncherSpec as a flag: `--<name>=<value>`.
struct LauncherFlag {
  std::string_view name;  // without the dashes: "ranks-per-node"
  std::string_view help;
  bool repeated = false;  // may be given several times (extra, env)
};

// Every flag, in the order to_args writes them.
const std::vector<LauncherFlag>& launcher_flags();

// The set fields of a launcher, as "--name=value" words (kind always, master-port always).
std::vector<std::string> to_args(const LauncherSpec& l);

// Sets one flag's value on a launcher (a repeated flag adds one more). Throws InputError naming
// `--<name>` for a value that is not what the flag takes.
void set_launcher_flag(LauncherSpec& l, std::string_view name, const std::string& value);

// The launcher of "--name=value" words (to_args's output): from_args(to_args(l)) has every
// setting of l. Throws InputError for an unknown flag or a bad value.
LauncherSpec from_args(const std::vector<std::string>& args);

}  // namespace aerun
