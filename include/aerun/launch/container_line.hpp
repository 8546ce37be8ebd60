// How a case's runs start inside its image (`container:`): the words each runtime needs, and
// where they go around the launcher — ranks outside the image (mpiexec/srun start one container
// per rank), the launcher inside it (torchrun, deepspeed spawn their workers themselves), Pyxis's
// options on srun itself, or, with no launcher, the whole command run by the image's shell.
// Each runtime's line is written from its own documentation, cited in container_line.cpp and
// docs/containers.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/case/container_spec.hpp"

namespace aerun {

struct ContainerLine {
  enum class Place {
    AfterLauncher,   // launcher, then `prefix`, then the program: one container per rank
    BeforeLauncher,  // `prefix`, then the launcher and the program: the launcher runs inside
    OnLauncher,      // Pyxis: `options` join srun's own; srun starts each rank in the image
    WholeCommand,    // no launcher: `prefix` SHELL -c 'the command'
  };
  Place place = Place::WholeCommand;
  std::string prefix;       // shell-ready words that start the image (ends with the image)
  std::string options;      // shell-ready words added to the launcher's line (Pyxis)
  std::string assignments;  // shell-ready NAME=VALUE words set before the launcher (Pyxis)
  std::string shell;        // WholeCommand: the image's shell
};

// What the container needs to know about the run besides the case's section.
struct ContainerContext {
  std::string launcher;  // the case's launcher kind ("" without a launcher)
  // What `gpus: auto` becomes: nvidia or rocm (what discovery found), "" (no GPU), or "node":
  // decided on the node as each run starts (batch jobs), by the vendor's device files.
  std::string gpu_vendor;
  // Variables set outside that runtimes which start from a clean environment (podman,
  // podman-hpc, enroot) must pass in by name: the case's env and the rendezvous variables.
  std::vector<std::string> forwarded;
  // Host paths the runs reach beside their working directory, mounted at the same path: with
  // `rundir:`, the case's workdir and the absolute targets of its `link:` entries (a run's
  // directory links to them).
  std::vector<std::string> same_path;
};

// The line for spec; throws InputError at the container's file:line, key container.runtime or
// container.gpus, for a pair no runtime documents (Pyxis without srun, ROCm in Shifter, ...).
ContainerLine container_line(const ContainerSpec& spec, const ContainerContext& ctx);

// The launch text (`{launch}`) with the container placed: the launcher's line `launch` ("" with
// no launcher) and line. WholeCommand lines give "" (the command is wrapped instead).
std::string launch_in_container(const std::string& launch, const ContainerLine& line);

// The rendered command as it runs: wrapped in the image's shell for a WholeCommand line, as it is
// otherwise.
std::string command_in_container(const std::string& command, const ContainerLine& line);

// "nvidia", "rocm" or "" from discovery's GPU source (nvidia-smi, rocm-smi, amd-smi, ...).
std::string gpu_vendor_of(const std::string& gpu_source);

}  // namespace aerun
