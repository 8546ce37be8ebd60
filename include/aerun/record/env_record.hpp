// The environment record: what a session's runs ran with, beyond their parameters — the
// environment variables (secrets redacted), loaded modules, compilers, MPI, GPUs, Python
// packages, CPU, kernel, the workdir's git state, the case file, and the case's own
// `provenance:` commands. Stored once per distinct content (docs/store.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace aerun {

// One part of the record: a name ("environment", "cpu", "mpiexec --version", "provenance torch"),
// how getting it went ("" when it worked; else "exit code 1", "timed out after 20 s", ...) and
// the text it gave.
struct EnvItem {
  std::string name;
  std::string status;
  std::string text;
  bool operator==(const EnvItem&) const = default;
};

struct EnvRecord {
  std::vector<EnvItem> items;  // in the order they were taken

  const EnvItem* find(std::string_view name) const {
    for (const auto& i : items)
      if (i.name == name) return &i;
    return nullptr;
  }
  bool empty() const { return items.empty(); }
  bool operator==(const EnvRecord&) const = default;
};

}  // namespace aerun
