// Each container runtime's line, from its own documentation:
//  - Apptainer / SingularityCE: `apptainer exec [--nv|--rocm] [--bind SRC:DST[:ro]] [--env N=V]
//    IMAGE CMD` (apptainer.org/docs/user/main/cli/apptainer_exec.html, gpu.html,
//    bind_paths_and_mounts.html); the host's environment and working directory pass in by default;
//    MPI's "hybrid" model starts one container per rank: `mpirun -n N apptainer exec IMAGE app`
//    (apptainer.org/docs/user/main/mpi.html).
//  - Pyxis: srun's own options `--container-image=IMAGE --container-mounts=SRC:DST[:FLAGS],...
//    --container-workdir=DIR --container-env=NAME,...` (github.com/NVIDIA/pyxis, README and
//    args.c); srun starts every rank in the image, with the job's environment (the image's own
//    values win unless named by --container-env) and the image's WORKDIR unless told.
//  - Enroot: `enroot start [--env KEY[=VAL]] [--mount SRC:DST[:TYPE:OPTIONS]] NAME|IMAGE
//    [COMMAND] [ARG...]`
//    (github.com/NVIDIA/enroot, doc/cmd/start.md: an image file starts directly; `--env KEY`
//    takes the host's value); the host's environment is cleared (bin/common.h) and the program
//    starts in $HOME or / (src/runtime.sh): aerun mounts the working directory and enters it
//    with `sh -c 'cd "$0" && exec "$@"' "$PWD"` before the program. GPUs come through its NVIDIA
//    hook.
//  - Podman 4.3: `podman run --rm [-v SRC:DST[:ro]] [-w DIR] [-e NAME[=VALUE]] [-e 'PREFIX*']
//    [--device nvidia.com/gpu=all] IMAGE CMD` (docs.podman.io/en/v4.3/markdown/podman-run.1.html;
//    the CDI device name: docs.nvidia.com/datacenter/cloud-native/container-toolkit, "Support for
//    Container Device Interface"; podman 4.3 takes a CDI name in --device in code,
//    pkg/specgen/generate/container_create.go isCDIDevice, though its device.md does not say so;
//    ROCm: `--device=/dev/kfd --device=/dev/dri --group-add video`,
//    rocm.docs.amd.com "Running ROCm Docker containers"); the host's environment does not pass in.
//  - podman-hpc (NERSC): `srun -n N podman-hpc run --rm --mpi [--gpu] IMAGE CMD`
//    (github.com/NERSC/podman-hpc, etc/modules.d/gpu.yaml `--gpu`,
//    mpich.yaml `--mpi`: Cray MPICH, SLURM_* and PMI_* passed in, host IPC, network and PID).
//  - Shifter: `shifter --image=TYPE:TAG [--volume=SRC:DST[:flags]] [--module=NAME] [--env=N=V]
//    CMD` (github.com/NERSC/shifter, src/shifter.c usage); the calling environment and working
//    directory pass in. `--module=gpu` is NERSC's site module (udiRoot.conf), not Shifter's own.
#include "aerun/launch/container_line.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "aerun/util/shell_quote.hpp"

namespace aerun {

namespace {

constexpr const char* kOnNode = "node";

// The launchers that start ranks themselves (one container each) and those that spawn their
// workers from one process (the container holds the launcher).
bool starts_ranks(const std::string& kind) {
  return kind == "mpich" || kind == "pals" || kind == "openmpi" || kind == "intelmpi" ||
         kind == "srun";
}

std::string words(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& w : v) s += (s.empty() ? "" : " ") + w;
  return s;
}

// Variables a per-rank container must see: aerun's own, GPU binding, the MPI and Slurm rank
// variables (podman passes a family by its `PREFIX*`).
const std::vector<std::string>& forwarded_families() {
  static const std::vector<std::string> f{"AERUN_*",
                                          "CUDA_VISIBLE_DEVICES",
                                          "ROCR_VISIBLE_DEVICES",
                                          "HIP_VISIBLE_DEVICES",
                                          "PMI_*",
                                          "PMIX_*",
                                          "OMPI_*",
                                          "SLURM_*",
                                          "MPI_LOCALRANKID",
                                          "PALS_*"};
  return f;
}
// Enroot takes names only: aerun's own variables, the GPU binding and each launcher's rank
// variables (launch_dialects' RankVariables, and Slurm's); the PMI wire-up itself is enroot's
// Slurm hooks' (enroot conf/hooks/extra/50-slurm-pmi.sh), where a site enables them.
const std::vector<std::string>& enroot_forwarded() {
  static const std::vector<std::string> f{"AERUN_CASE",
                                          "AERUN_RUN_KEY",
                                          "AERUN_REPEAT",
                                          "AERUN_ATTEMPT",
                                          "AERUN_RUNDIR",
                                          "CUDA_VISIBLE_DEVICES",
                                          "SLURM_PROCID",
                                          "SLURM_LOCALID",
                                          "SLURM_NTASKS",
                                          "SLURM_NODEID",
                                          "SLURM_JOB_ID",
                                          "PMI_RANK",
                                          "PMI_SIZE",
                                          "MPI_LOCALRANKID",
                                          "OMPI_COMM_WORLD_RANK",
                                          "OMPI_COMM_WORLD_SIZE",
                                          "OMPI_COMM_WORLD_LOCAL_RANK",
                                          "PALS_RANKID",
                                          "PALS_LOCAL_RANKID"};
  return f;
}

std::string gpus_of(const ContainerSpec& c, const ContainerContext& ctx) {
  return c.gpus == "auto" ? ctx.gpu_vendor : c.gpus == "none" ? "" : c.gpus;
}

// `gpus: auto` decided on the node as the run starts (a batch job's node, not the host that
// submits it): the runtime's GPU words when the node has the vendor's device files.
std::string on_node(const char* nvidia, const char* rocm) {
  std::string s;
  if (nvidia) s += fmt::format("$(test -e /dev/nvidiactl && echo {})", nvidia);
  if (rocm) s += fmt::format("$(test -e /dev/kfd && echo {})", rocm);
  return s;
}

[[noreturn]] void refuse(const ContainerSpec& c, const std::string& key, const std::string& why) {
  throw InputError(c.loc, "container." + key, why);
}

std::string mount_text(const ContainerMount& m, bool flag_rw = false) {
  return m.source + ":" + m.target + (m.read_only ? ":ro" : flag_rw ? ":rw" : "");
}

// The run's working directory, the same path inside (podman, enroot, Pyxis do not bind it).
constexpr const char* kPwdMount = "\"$PWD\":\"$PWD\"";

ContainerLine apptainer(const ContainerSpec& c, const std::string& gpus,
                        const std::vector<std::string>& extra) {
  std::vector<std::string> w{c.runtime, "exec"};
  if (gpus == "nvidia") w.push_back("--nv");
  if (gpus == "rocm") w.push_back("--rocm");
  if (gpus == kOnNode) w.push_back(on_node("--nv", "--rocm"));
  for (const auto& p : extra) w.push_back("--bind " + shell_quote(p + ":" + p));
  for (const auto& m : c.mounts) w.push_back("--bind " + shell_quote(mount_text(m)));
  for (const auto& [n, v] : c.env) w.push_back("--env " + shell_quote(n + "=" + v));
  w.push_back(shell_quote(c.image));
  ContainerLine l;
  l.prefix = words(w);
  return l;
}

ContainerLine pyxis(const ContainerSpec& c, const ContainerContext& ctx, const std::string& gpus) {
  if (ctx.launcher != "srun")
    refuse(c, "runtime",
           "pyxis starts the image through srun's --container-image: use `launcher: srun` "
           "(torchrun then runs inside, as the command: `{launch} torchrun ...` with one rank "
           "per node)");
  if (gpus == "rocm")
    refuse(c, "gpus", "pyxis gives GPUs through enroot's NVIDIA hook; there is no ROCm one");
  std::vector<std::string> w{"--container-image=" + shell_quote(c.image)};
  std::string mounts = kPwdMount;
  for (const auto& p : ctx.same_path) mounts += "," + shell_quote(p + ":" + p);
  for (const auto& m : c.mounts) mounts += "," + shell_quote(mount_text(m));
  w.push_back("--container-mounts=" + mounts);
  w.push_back("--container-workdir=\"$PWD\"");
  ContainerLine l;
  l.place = ContainerLine::Place::OnLauncher;
  if (!c.env.empty()) {
    std::vector<std::string> names, set;
    for (const auto& [n, v] : c.env) {
      names.push_back(n);
      set.push_back(n + "=" + shell_quote(v));
    }
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ",") + n;
    w.push_back("--container-env=" + list);
    l.assignments = words(set);
  }
  l.options = words(w);
  return l;
}

ContainerLine enroot(const ContainerSpec& c, const ContainerContext& ctx, const std::string& gpus) {
  if (gpus == "rocm")
    refuse(c, "gpus", "enroot gives GPUs through its NVIDIA hook; there is no ROCm one");
  std::vector<std::string> w{"enroot", "start", std::string("--mount ") + kPwdMount};
  for (const auto& p : ctx.same_path) w.push_back("--mount " + shell_quote(p + ":" + p));
  // An fstab entry with colons (doc/cmd/start.md); SRC:DST alone is `none rbind,x-create=auto`
  // (bin/enroot-mount.c), and a read-only one must say so whole: a bare `ro` would drop rbind.
  for (const auto& m : c.mounts)
    w.push_back("--mount " + shell_quote(m.source + ":" + m.target +
                                         (m.read_only ? ":none:rbind,x-create=auto,ro" : "")));
  for (const auto& n : enroot_forwarded()) w.push_back("--env " + n);
  for (const auto& n : ctx.forwarded) w.push_back("--env " + shell_quote(n));
  for (const auto& [n, v] : c.env) w.push_back("--env " + shell_quote(n + "=" + v));
  w.push_back(shell_quote(c.image));
  // Enroot starts the program in $HOME or /: enter the run's directory first.
  w.push_back(shell_quote(c.shell) + " -c 'cd \"$0\" && exec \"$@\"' \"$PWD\"");
  ContainerLine l;
  l.prefix = words(w);
  return l;
}

ContainerLine podman(const ContainerSpec& c, const ContainerContext& ctx, const std::string& gpus) {
  const bool hpc = c.runtime == "podman-hpc";
  std::vector<std::string> w{c.runtime, "run", "--rm"};
  if (hpc) {
    if (gpus == "rocm") refuse(c, "gpus", "podman-hpc's GPU module is NVIDIA's (--gpu)");
    if (gpus == "nvidia") w.push_back("--gpu");
    if (gpus == kOnNode) w.push_back(on_node("--gpu", nullptr));
    if (starts_ranks(ctx.launcher)) w.push_back("--mpi");
  } else {
    // The host's network and IPC: ranks and their rendezvous see one another as without it.
    w.insert(w.end(), {"--network=host", "--ipc=host"});
    if (gpus == "nvidia") w.push_back("--device nvidia.com/gpu=all");
    if (gpus == "rocm")
      w.insert(w.end(), {"--device /dev/kfd", "--device /dev/dri", "--group-add video"});
    if (gpus == kOnNode)
      w.push_back(on_node("--device nvidia.com/gpu=all",
                          "--device /dev/kfd --device /dev/dri --group-add video"));
  }
  w.push_back(std::string("-v ") + kPwdMount);
  w.push_back("-w \"$PWD\"");
  for (const auto& p : ctx.same_path) w.push_back("-v " + shell_quote(p + ":" + p));
  for (const auto& m : c.mounts) w.push_back("-v " + shell_quote(mount_text(m)));
  for (const auto& f : forwarded_families()) w.push_back("-e " + shell_quote(f));
  for (const auto& n : ctx.forwarded) w.push_back("-e " + shell_quote(n));
  for (const auto& [n, v] : c.env) w.push_back("-e " + shell_quote(n + "=" + v));
  w.push_back(shell_quote(c.image));
  ContainerLine l;
  l.prefix = words(w);
  return l;
}

ContainerLine shifter(const ContainerSpec& c, const std::string& gpus,
                      const std::vector<std::string>& extra) {
  if (gpus == "rocm") refuse(c, "gpus", "Shifter's GPU module (--module=gpu) is NVIDIA's");
  std::vector<std::string> w{"shifter", "--image=" + shell_quote(c.image)};
  if (gpus == "nvidia") w.push_back("--module=gpu");
  if (gpus == kOnNode) w.push_back(on_node("--module=gpu", nullptr));
  for (const auto& p : extra) w.push_back("--volume=" + shell_quote(p + ":" + p));
  for (const auto& m : c.mounts) w.push_back("--volume=" + shell_quote(mount_text(m)));
  for (const auto& [n, v] : c.env) w.push_back("--env=" + shell_quote(n + "=" + v));
  ContainerLine l;
  l.prefix = words(w);
  return l;
}

}  // namespace

std::string gpu_vendor_of(const std::string& source) {
  if (source == "nvidia-smi") return "nvidia";
  if (source == "rocm-smi" || source == "amd-smi") return "rocm";
  return "";
}

ContainerLine container_line(const ContainerSpec& c, const ContainerContext& ctx) {
  const std::string gpus = gpus_of(c, ctx);
  ContainerLine l;
  if (c.runtime == "apptainer" || c.runtime == "singularity")
    l = apptainer(c, gpus, ctx.same_path);
  else if (c.runtime == "pyxis")
    return pyxis(c, ctx, gpus);
  else if (c.runtime == "enroot")
    l = enroot(c, ctx, gpus);
  else if (c.runtime == "podman" || c.runtime == "podman-hpc")
    l = podman(c, ctx, gpus);
  else if (c.runtime == "shifter")
    l = shifter(c, gpus, ctx.same_path);
  else
    refuse(c, "runtime", "unknown container runtime '" + c.runtime + "'");
  l.shell = c.shell;
  if (ctx.launcher.empty() || ctx.launcher == "none")
    l.place = ContainerLine::Place::WholeCommand;
  else if (starts_ranks(ctx.launcher))
    l.place = ContainerLine::Place::AfterLauncher;
  else
    l.place = ContainerLine::Place::BeforeLauncher;
  return l;
}

std::string launch_in_container(const std::string& launch, const ContainerLine& l) {
  switch (l.place) {
    case ContainerLine::Place::AfterLauncher:
      return launch + " " + l.prefix;
    case ContainerLine::Place::BeforeLauncher:
      return l.prefix + " " + launch;
    case ContainerLine::Place::OnLauncher:
      return (l.assignments.empty() ? "" : l.assignments + " ") + launch + " " + l.options;
    case ContainerLine::Place::WholeCommand:
      break;
  }
  return launch;
}

std::string command_in_container(const std::string& command, const ContainerLine& l) {
  if (l.place != ContainerLine::Place::WholeCommand) return command;
  return l.prefix + " " + shell_quote(l.shell) + " -c " + shell_quote(command);
}

}  // namespace aerun
