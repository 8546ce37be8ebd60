// Dry runs of cases that name an image (docs/containers.md): the line of each run, per point, on
// the host and in job scripts. The runtimes' own words are unit-tested in
// tests/unit/launch/container_line_test.cpp; these follow them through `aerun case`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const char* kReleases = R"yaml(case: releases
params: {tag: ['24.01', '24.05'], lr: [0.1]}
container:
  image: "nvcr.io#nvidia/pytorch:{tag}-py3"
  runtime: pyxis
  mounts: [/lus/data:/data:ro]
launcher: {kind: srun, nodes: 1, ranks_per_node: 2, gpus_per_node: 2}
command: "{launch} python train.py --lr {lr}"
resources: {nodes: 1, walltime: 1h}
)yaml";

TEST(ContainerDryRun, EachPointRunsInItsOwnImageAsPyxisOptionsOnSrun) {
  TempDir d;
  write_file(d / "c.yaml", kReleases);
  const auto r = run_aerun(d, {"case", "c.yaml", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("srun -N 1 -n 2 --ntasks-per-node 2 --gpus-per-node 2 "
                               "--container-image='nvcr.io#nvidia/pytorch:24.01-py3' "
                               "--container-mounts=\"$PWD\":\"$PWD\",/lus/data:/data:ro "
                               "--container-workdir=\"$PWD\" python train.py --lr 0.1\n"));
  EXPECT_THAT(r.out, HasSubstr("--container-image='nvcr.io#nvidia/pytorch:24.05-py3'"));
}

TEST(ContainerDryRun, AJobScriptPutsTheImageOnTheJobsLaunchLineAndTheNodeChoosesGpus) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: jobs
params: {lr: [0.1]}
container: {image: /sw/pt.sif, runtime: apptainer}
launcher: {kind: srun, nodes: 1, ranks_per_node: 2, gpus_per_node: 2}
command: "{launch} python train.py --lr {lr}"
resources: {nodes: 1, walltime: 1h}
)yaml");
  const auto r = run_aerun(d, {"case", "c.yaml", "--scheduler", "slurm", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string scripts;
  for (const auto& e : fs::recursive_directory_iterator(d / "results"))
    if (e.path().extension() == ".sbatch") scripts += read_file(e.path());
  EXPECT_THAT(scripts, HasSubstr("$DIST_LAUNCH apptainer exec $(test -e /dev/nvidiactl && echo "
                                 "--nv)$(test -e /dev/kfd && echo --rocm) /sw/pt.sif python "
                                 "train.py --lr 0.1"));
}

TEST(ContainerDryRun, TheCommandLineChangesTheImageOrDropsIt) {
  TempDir d;
  write_file(d / "c.yaml", kReleases);
  auto r = run_aerun(d, {"case", "c.yaml", "--dry-run", "--container", "/sw/pt.sqsh"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("--container-image=/sw/pt.sqsh "));
  EXPECT_THAT(r.out, Not(HasSubstr("nvcr.io")));
  r = run_aerun(d, {"case", "c.yaml", "--dry-run", "--container", "/sw/pt.sif",
                    "--container-runtime", "singularity"});
  EXPECT_THAT(r.out,
              HasSubstr("srun -N 1 -n 2 --ntasks-per-node 2 --gpus-per-node 2 singularity exec"));
  r = run_aerun(d, {"case", "c.yaml", "--dry-run", "--no-container"});
  EXPECT_THAT(
      r.out,
      HasSubstr("srun -N 1 -n 2 --ntasks-per-node 2 --gpus-per-node 2 python train.py --lr 0.1\n"));
}

TEST(ContainerDryRun, PyxisWithoutSrunIsRefusedNamingTheFileLineAndKey) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: bad\ncontainer: {image: a.sqsh, runtime: pyxis}\ncommand: python t.py\n");
  const auto r = run_aerun(d, {"case", "c.yaml", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("c.yaml:2:1: container.runtime: pyxis starts the image through "
                               "srun's --container-image"));
}

}  // namespace
