// `aerun init`: a starter case file written from a command line.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace aerun {

struct StarterRequest {
  std::string name;               // the case name (the one case-name rule)
  std::vector<std::string> argv;  // the command line, as the shell gave it to aerun after `--`
  // --sweep KEY=V1,V2,...: these parameters get these values (in this order).
  std::vector<std::pair<std::string, std::vector<std::string>>> sweeps;
  // When not empty: the JSON Schema's path, written on a first `# yaml-language-server:
  // $schema=...` line so that editors complete and check the keys.
  std::string schema;
};

// The YAML text of a starter case: each option value of the command line that is a number or a
// plain word of [A-Za-z0-9_+-] (`-l 32`, `--hidden-size 2048`, `-m stronghold`, `--lr=0.1`,
// `lr=0.1`; not `input.txt` or `/data`) becomes a parameter named after
// its option (`l`, `hidden_size`, `lr`; `_2`, `_3` for repeats) with that value, or the swept
// values; the command becomes a template with `{name}` where each was; everything else (paths,
// positional arguments, flags) stays as written, quoted for the shell. The text loads as a case
// (checked here), with commented hints for presets, metrics and a table. Throws InputError (key
// "init" or "--sweep") for a bad name, an empty command, a --sweep naming no parameter (with the
// nearest) or a case the loader refuses.
std::string starter_case(const StarterRequest& request);

}  // namespace aerun
