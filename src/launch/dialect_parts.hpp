// Pieces the launcher dialects share, and each dialect's render function (one file each).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "aerun/launch/launcher.hpp"

namespace aerun::detail {

// How a dialect should name the hosts of a layout.
enum class HostArg {
  Hostfile,  // pass cluster.hostfile as it is
  List,      // spell the hosts inline (the hostfile's format is unreadable to this launcher, or
             // the hosts came from a list)
  Nothing,   // the launcher finds them itself (inside a Slurm allocation, or local)
};

// Hostfile when there is one in a format the launcher reads; nothing inside a Slurm allocation
// without a hostfile or for a local run; the inline list otherwise.
HostArg host_arg(const ClusterInfo& c, std::initializer_list<HostfileFormat> readable);

// Items joined by `sep`.
std::string join(const std::vector<std::string>& items, const std::string& sep);

// The spec's CPU binding, or `fallback` when the spec leaves it to the dialect.
std::string cpu_bind_or(const LauncherSpec& spec, const std::string& fallback);

// InputError at the launcher section: "<kind> cannot <what>".
[[noreturn]] void unsupported(const LauncherSpec& spec, const std::string& what);

// True when the spec forwards every variable (`env: all`).
bool forwards_all(const LauncherSpec& spec);

// The program to run: the spec's override or the dialect's default.
std::string program_of(const LauncherSpec& spec, const std::string& fallback);

std::vector<std::string> render_mpich(const LauncherSpec&, const ClusterInfo&, const LaunchLayout&);
std::vector<std::string> render_pals(const LauncherSpec&, const ClusterInfo&, const LaunchLayout&);
std::vector<std::string> render_openmpi(const LauncherSpec&, const ClusterInfo&,
                                        const LaunchLayout&);
std::vector<std::string> render_intelmpi(const LauncherSpec&, const ClusterInfo&,
                                         const LaunchLayout&);
std::vector<std::string> render_srun(const LauncherSpec&, const ClusterInfo&, const LaunchLayout&);
std::vector<std::string> render_torchrun(const LauncherSpec&, const ClusterInfo&,
                                         const LaunchLayout&);
std::vector<std::string> render_deepspeed(const LauncherSpec&, const ClusterInfo&,
                                          const LaunchLayout&);
std::vector<std::string> render_none(const LauncherSpec&, const ClusterInfo&, const LaunchLayout&);

// The start of a Hydra command line (MPICH, Intel MPI): the program, the extra arguments,
// -n N -ppn P, and the hosts as `<hostfile_flag> FILE` or `-hosts a,b`.
std::vector<std::string> hydra_start(const LauncherSpec& spec, const ClusterInfo& c,
                                     const LaunchLayout& l, const char* hostfile_flag);

}  // namespace aerun::detail
