// Each runtime's line and where it goes around each launcher (container_line.hpp): the lines are
// the documented ones cited in src/launch/container_line.cpp and docs/containers.md.
#include "aerun/launch/container_line.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace aerun {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

ContainerSpec image(const std::string& runtime, const std::string& img = "pt.sif") {
  ContainerSpec c;
  c.runtime = runtime;
  c.image = img;
  c.gpus = "nvidia";
  c.mounts = {ContainerMount{"/lus/data", "/data", true}};
  c.env = {{"NCCL_DEBUG", "INFO"}};
  return c;
}

ContainerLine line(const ContainerSpec& c, const std::string& launcher,
                   const std::string& vendor = "") {
  ContainerContext ctx;
  ctx.launcher = launcher;
  ctx.gpu_vendor = vendor;
  ctx.forwarded = {"MASTER_ADDR"};
  return container_line(c, ctx);
}

// The full command of `{launch} python train.py` with launcher line `launch`.
std::string composed(const ContainerSpec& c, const std::string& launcher, const std::string& launch,
                     const std::string& vendor = "") {
  const ContainerLine l = line(c, launcher, vendor);
  if (l.place == ContainerLine::Place::WholeCommand)
    return command_in_container("python train.py && echo done", l);
  return launch_in_container(launch, l) + " python train.py";
}

TEST(ContainerLine, ApptainerRunsOneContainerPerRankUnderMpiexecAsItsHybridModel) {
  EXPECT_EQ(composed(image("apptainer"), "mpich", "mpiexec -n 8 --ppn 4"),
            "mpiexec -n 8 --ppn 4 apptainer exec --nv --bind /lus/data:/data:ro "
            "--env NCCL_DEBUG=INFO pt.sif python train.py");
  EXPECT_THAT(composed(image("singularity"), "srun", "srun -N 2 -n 8"),
              StartsWith("srun -N 2 -n 8 singularity exec --nv "));
}

TEST(ContainerLine, EveryRankStartingLauncherPutsTheImageAfterItself) {
  for (const char* launcher : {"mpich", "pals", "openmpi", "intelmpi", "srun"})
    for (const char* runtime :
         {"apptainer", "singularity", "enroot", "podman", "podman-hpc", "shifter"}) {
      const ContainerLine l = line(image(runtime), launcher);
      EXPECT_EQ(l.place, ContainerLine::Place::AfterLauncher) << launcher << " " << runtime;
      EXPECT_THAT(launch_in_container("LAUNCH", l), StartsWith("LAUNCH "));
    }
}

TEST(ContainerLine, TorchrunAndDeepspeedRunInsideTheImageAndSpawnTheirWorkersThere) {
  for (const char* launcher : {"torchrun", "deepspeed"}) {
    const ContainerLine l = line(image("apptainer"), launcher);
    EXPECT_EQ(l.place, ContainerLine::Place::BeforeLauncher);
    EXPECT_EQ(launch_in_container("torchrun --nproc-per-node 4", l),
              "apptainer exec --nv --bind /lus/data:/data:ro --env NCCL_DEBUG=INFO pt.sif "
              "torchrun --nproc-per-node 4");
  }
}

TEST(ContainerLine, EveryRuntimeAndLauncherPairHasItsPlace) {
  const char* runtimes[] = {"apptainer", "singularity", "enroot",
                            "podman",    "podman-hpc",  "shifter"};
  for (const char* runtime : runtimes) {
    const std::string start = line(image(runtime), "").prefix;
    for (const char* launcher : {"torchrun", "deepspeed"}) {
      const ContainerLine l = line(image(runtime), launcher);
      EXPECT_EQ(l.place, ContainerLine::Place::BeforeLauncher) << runtime << " " << launcher;
      EXPECT_EQ(launch_in_container("LAUNCH", l), l.prefix + " LAUNCH");
    }
    for (const char* launcher : {"", "none"}) {
      const ContainerLine l = line(image(runtime), launcher);
      EXPECT_EQ(l.place, ContainerLine::Place::WholeCommand) << runtime << " '" << launcher << "'";
      EXPECT_EQ(command_in_container("a && b", l), start + " /bin/sh -c 'a && b'");
    }
  }
  // Pyxis only as srun's options; every other launcher is refused (tested below).
  EXPECT_EQ(line(image("pyxis"), "srun").place, ContainerLine::Place::OnLauncher);
  for (const char* launcher : {"mpich", "pals", "openmpi", "intelmpi", "deepspeed", "none"})
    EXPECT_THROW(line(image("pyxis"), launcher), InputError) << launcher;
}

TEST(ContainerLine, WithoutALauncherTheImagesShellRunsTheWholeCommand) {
  for (const char* launcher : {"", "none"}) {
    ContainerSpec c = image("podman", "localhost/train:1");
    c.gpus = "none";
    EXPECT_EQ(composed(c, launcher, ""),
              "podman run --rm --network=host --ipc=host -v \"$PWD\":\"$PWD\" -w \"$PWD\" "
              "-v /lus/data:/data:ro -e 'AERUN_*' -e CUDA_VISIBLE_DEVICES -e "
              "ROCR_VISIBLE_DEVICES -e HIP_VISIBLE_DEVICES -e 'PMI_*' -e 'PMIX_*' -e 'OMPI_*' "
              "-e 'SLURM_*' -e MPI_LOCALRANKID -e 'PALS_*' -e MASTER_ADDR "
              "-e NCCL_DEBUG=INFO localhost/train:1 /bin/sh -c 'python train.py && echo done'");
  }
}

TEST(ContainerLine, PyxisIsSrunsOwnOptionsWithTheWorkingDirectoryMountedAndEntered) {
  ContainerSpec c = image("pyxis", "nvcr.io#nvidia/pytorch:24.05-py3");
  c.mounts.push_back(ContainerMount{"/scratch", "/scratch", false});
  EXPECT_EQ(composed(c, "srun", "srun -N 2 -n 16 --ntasks-per-node 8"),
            "NCCL_DEBUG=INFO srun -N 2 -n 16 --ntasks-per-node 8 "
            "--container-image='nvcr.io#nvidia/pytorch:24.05-py3' "
            "--container-mounts=\"$PWD\":\"$PWD\",/lus/data:/data:ro,/scratch:/scratch "
            "--container-workdir=\"$PWD\" --container-env=NCCL_DEBUG python train.py");
}

TEST(ContainerLine, PyxisWithoutSrunOrWithRocmIsRefusedAtTheContainerKey) {
  ContainerSpec c = image("pyxis");
  c.loc = SourceLoc{"fig.yaml", 4, 1};
  for (const char* launcher : {"", "mpich", "torchrun"}) {
    try {
      line(c, launcher);
      ADD_FAILURE() << "pyxis under '" << launcher << "' was accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr("fig.yaml:4:1: container.runtime: pyxis starts the image "
                                      "through srun's --container-image: use `launcher: srun`"));
    }
  }
  c.gpus = "rocm";
  EXPECT_THROW(line(c, "srun"), InputError);
  for (const char* runtime : {"enroot", "podman-hpc", "shifter"}) {
    ContainerSpec r = image(runtime);
    r.gpus = "rocm";
    EXPECT_THROW(line(r, "srun"), InputError) << runtime;
  }
}

TEST(ContainerLine, EnrootMountsAndEntersTheRunsDirectoryAndPassesVariablesByName) {
  // Enroot clears the host's environment and starts in $HOME or /.
  EXPECT_EQ(composed(image("enroot", "pytorch.sqsh"), "srun", "srun -n 4"),
            "srun -n 4 enroot start --mount \"$PWD\":\"$PWD\" "
            "--mount /lus/data:/data:none:rbind,x-create=auto,ro "
            "--env AERUN_CASE --env AERUN_RUN_KEY --env AERUN_REPEAT --env AERUN_ATTEMPT "
            "--env AERUN_RUNDIR --env CUDA_VISIBLE_DEVICES --env SLURM_PROCID --env SLURM_LOCALID "
            "--env SLURM_NTASKS --env SLURM_NODEID --env SLURM_JOB_ID --env PMI_RANK --env "
            "PMI_SIZE --env MPI_LOCALRANKID --env OMPI_COMM_WORLD_RANK --env OMPI_COMM_WORLD_SIZE "
            "--env OMPI_COMM_WORLD_LOCAL_RANK --env PALS_RANKID --env PALS_LOCAL_RANKID "
            "--env MASTER_ADDR "
            "--env NCCL_DEBUG=INFO pytorch.sqsh /bin/sh -c 'cd \"$0\" && exec \"$@\"' \"$PWD\" "
            "python train.py");
}

TEST(ContainerLine, PodmanHpcAndShifterUseNerscsModulesForGpusAndMpi) {
  EXPECT_EQ(composed(image("podman-hpc", "nersc/pt:1"), "srun", "srun -n 4"),
            "srun -n 4 podman-hpc run --rm --gpu --mpi -v \"$PWD\":\"$PWD\" -w \"$PWD\" "
            "-v /lus/data:/data:ro -e 'AERUN_*' -e CUDA_VISIBLE_DEVICES -e ROCR_VISIBLE_DEVICES "
            "-e HIP_VISIBLE_DEVICES -e 'PMI_*' -e 'PMIX_*' -e 'OMPI_*' -e 'SLURM_*' "
            "-e MPI_LOCALRANKID -e 'PALS_*' -e MASTER_ADDR -e NCCL_DEBUG=INFO nersc/pt:1 "
            "python train.py");
  // torchrun inside: no MPI module.
  EXPECT_THAT(line(image("podman-hpc"), "torchrun").prefix, Not(HasSubstr("--mpi")));
  EXPECT_EQ(composed(image("shifter", "docker:nersc/pt:1"), "srun", "srun -n 4"),
            "srun -n 4 shifter --image=docker:nersc/pt:1 --module=gpu "
            "--volume=/lus/data:/data:ro --env=NCCL_DEBUG=INFO python train.py");
}

TEST(ContainerLine, GpusNameEachRuntimesDocumentedFlag) {
  ContainerSpec a = image("apptainer");
  a.gpus = "rocm";
  EXPECT_THAT(line(a, "mpich").prefix, HasSubstr("apptainer exec --rocm "));
  ContainerSpec p = image("podman");
  EXPECT_THAT(line(p, "mpich").prefix, HasSubstr(" --device nvidia.com/gpu=all "));
  p.gpus = "rocm";
  EXPECT_THAT(line(p, "mpich").prefix,
              HasSubstr(" --device /dev/kfd --device /dev/dri --group-add video "));
  p.gpus = "none";
  EXPECT_THAT(line(p, "mpich").prefix, Not(HasSubstr("--device")));
}

TEST(ContainerLine, AutoGpusAreWhatDiscoveryFoundOrWhatTheNodeHasWhenTheRunStarts) {
  ContainerSpec a = image("apptainer");
  a.gpus = "auto";
  EXPECT_THAT(line(a, "mpich", "nvidia").prefix, HasSubstr("exec --nv "));
  EXPECT_THAT(line(a, "mpich", "rocm").prefix, HasSubstr("exec --rocm "));
  EXPECT_THAT(line(a, "mpich", "").prefix, StartsWith("apptainer exec --bind "));
  // A batch job's node decides: the words are the node's, by its device files.
  EXPECT_THAT(line(a, "mpich", "node").prefix,
              HasSubstr("exec $(test -e /dev/nvidiactl && echo --nv)"
                        "$(test -e /dev/kfd && echo --rocm) --bind"));
  EXPECT_EQ(gpu_vendor_of("nvidia-smi"), "nvidia");
  EXPECT_EQ(gpu_vendor_of("rocm-smi"), "rocm");
  EXPECT_EQ(gpu_vendor_of("amd-smi"), "rocm");
  EXPECT_EQ(gpu_vendor_of("CUDA_VISIBLE_DEVICES"), "");
}

TEST(ContainerLine, ARunsOwnDirectoryReachesTheWorkdirAndLinkTargetsAtTheirOwnPaths) {
  ContainerContext ctx;
  ctx.launcher = "mpich";
  ctx.same_path = {"/home/u/exp", "/lus/ds"};
  ContainerSpec c = image("apptainer");
  c.mounts.clear();
  c.env.clear();
  EXPECT_EQ(container_line(c, ctx).prefix,
            "apptainer exec --nv --bind /home/u/exp:/home/u/exp --bind /lus/ds:/lus/ds pt.sif");
  EXPECT_THAT(container_line(image("podman"), ctx).prefix,
              HasSubstr("-w \"$PWD\" -v /home/u/exp:/home/u/exp -v /lus/ds:/lus/ds "));
  ctx.launcher = "srun";
  EXPECT_THAT(container_line(image("pyxis"), ctx).options,
              HasSubstr("--container-mounts=\"$PWD\":\"$PWD\",/home/u/exp:/home/u/exp,"
                        "/lus/ds:/lus/ds,"));
  EXPECT_THAT(container_line(image("enroot"), ctx).prefix,
              HasSubstr("--mount /home/u/exp:/home/u/exp --mount /lus/ds:/lus/ds "));
  EXPECT_THAT(container_line(image("shifter"), ctx).prefix,
              HasSubstr("--volume=/home/u/exp:/home/u/exp --volume=/lus/ds:/lus/ds "));
}

TEST(ContainerLine, AnImageOrMountWithShellCharactersIsOneQuotedWord) {
  ContainerSpec c = image("apptainer", "my image;rm -rf ~.sif");
  c.mounts = {ContainerMount{"/a b/$(x)", "/d", false}};
  c.env = {{"V", "`id`"}};
  EXPECT_EQ(line(c, "mpich").prefix,
            "apptainer exec --nv --bind '/a b/$(x):/d' --env 'V=`id`' 'my image;rm -rf ~.sif'");
}

}  // namespace
}  // namespace aerun
