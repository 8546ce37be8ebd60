#include "aerun/case/module_lines.hpp"

#include <fmt/format.h>

#include "aerun/util/shell_quote.hpp"

namespace aerun {

namespace {

// Where a module system keeps its init files, first first: $MODULESHOME, which Lmod and
// Environment Modules both set to their own folder once loaded (so a job that inherited the
// submitting shell's variables finds the same one); Lmod as Debian and EPEL install it
// (/usr/share/lmod/lmod, Debian 12's lmod package) and as HPE Cray PE does
// (/opt/cray/pe/lmod/lmod); Environment Modules as Debian (/usr/share/modules) and RPM
// distributions (/usr/share/Modules) install it. Each has init/bash and init/sh (Lmod: "Integrating
// module Into Users' Shells", lmod.readthedocs.io; Environment Modules: modules.readthedocs.io,
// INSTALL).
constexpr const char* kInit =
    "if ! command -v module >/dev/null 2>&1; then aerun_msh=sh; [ -n \"${BASH_VERSION:-}\" ] && "
    "aerun_msh=bash; for aerun_mdir in \"${MODULESHOME:-}\" /usr/share/lmod/lmod "
    "/opt/cray/pe/lmod/lmod /usr/share/modules /usr/share/Modules; do if [ -n \"$aerun_mdir\" ] "
    "&& [ -r \"$aerun_mdir/init/$aerun_msh\" ]; then . \"$aerun_mdir/init/$aerun_msh\"; break; fi; "
    "done; unset aerun_msh aerun_mdir; fi";

}  // namespace

std::vector<std::string> module_lines(const SystemProfile& p) {
  if (p.modules.empty()) return {};
  std::vector<std::string> out{kInit};
  const std::string where = fmt::format("system {} ({})", p.name, p.file);
  out.push_back(fmt::format(
      "command -v module >/dev/null 2>&1 || {{ printf '%s\\n' {} >&2; exit {}; }}",
      shell_quote(fmt::format("aerun: {}: no `module` command here (neither Lmod nor Environment "
                              "Modules found: set MODULESHOME)",
                              where)),
      kSystemSetupFailed));
  for (const std::string& m : p.modules)
    out.push_back(fmt::format("module {} || {{ printf '%s\\n' {} >&2; exit {}; }}", m,
                              shell_quote(fmt::format("aerun: {}: `module {}` failed", where, m)),
                              kSystemSetupFailed));
  return out;
}

}  // namespace aerun
