// The system profiles aerun knows (issue 41): those of the folders the user names (--systems,
// then $AERUN_SYSTEMS, colon-separated) before the shipped ones (systems/ of the project, installed
// in share/aerun/systems), and which of them is the machine aerun runs on.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aerun/case/system_profile.hpp"

namespace aerun {

// The folders profiles are read from, first first: `option` (--systems, colon-separated), then
// $AERUN_SYSTEMS, then the shipped folder.
std::vector<std::string> system_folders(const std::string& option);
// The shipped folder: ../share/aerun/systems beside the binary, else the source tree's systems/.
std::string shipped_systems_folder();

struct SystemCatalog {
  std::vector<SystemProfile> profiles;  // in folder order, then by name
  // A profile of a later folder that a first one's name hides: "name (file) hidden by file".
  std::vector<std::string> hidden;
  const SystemProfile* find(const std::string& name) const;
};

// Every `*.yaml` profile of the folders (a missing folder is skipped; the first folder that has a
// name wins, and a name twice in one folder is an error naming both files). The built-in `local`
// (the smallest profile: `name: local`, `scheduler: local`) is last unless a folder has one.
SystemCatalog load_system_catalog(const std::vector<std::string>& folders);

// What recognition looks at: the machine's host name, its variables and, under Slurm, its
// cluster's name (a seam: tests give their own).
struct MachineFacts {
  std::string hostname;  // short or full: matched on the part before the first '.'
  std::function<std::optional<std::string>(const std::string&)> variable;
  std::string slurm_cluster;
  std::string slurm_cluster_from;  // SLURM_CLUSTER_NAME or the slurm.conf it came from
  static MachineFacts here();
};

struct SystemMatch {
  const SystemProfile* profile = nullptr;
  std::string why;                // "host name 'x3004c0s7b0n0' matches 'x3*'"
  std::vector<std::string> also;  // other profiles that match too (the first wins)
};

// The first profile one of whose tests matches (the built-in `local` when none does: why says so).
SystemMatch recognise_system(const SystemCatalog& catalog, const MachineFacts& facts);

// The name a run on this profile stores (docs/systems.md): its name, and "" for `local` (no named
// machine: the keys runs always had).
std::string stored_system_name(const SystemProfile& p);
// The same for a system given by its name (`--baseline system=local`, `--only system=local`).
std::string stored_system_name(const std::string& profile_name);
// The stored name of the system whose host-name patterns a host matches ("" for none): what a
// store's rows of before systems get (Store::set_system_of_host).
std::string system_named_by_host(const SystemCatalog& catalog, const std::string& host);

}  // namespace aerun
