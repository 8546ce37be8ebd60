// The `container:` section of a case file (docs/containers.md), its command-line overrides and
// its part in the case's version.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

CaseSpec load(const std::string& yaml, const CaseOverrides& o = {}) {
  return parse_case(yaml, "fig.yaml", "/cases", o);
}

std::string error_of(const std::string& yaml, const CaseOverrides& o = {}) {
  try {
    load(yaml, o);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for:\n" << yaml;
  return "";
}

const char* kCase =
    "case: c\n"
    "container:\n"
    "  image: pytorch_24.05.sif\n"
    "  runtime: apptainer\n"
    "  mounts: [/lus/data:/data:ro, ckpt, '/scratch:/scratch:rw']\n"
    "  gpus: nvidia\n"
    "  env: {NCCL_DEBUG: INFO, OMP_NUM_THREADS: 8}\n"
    "  shell: /bin/bash\n"
    "command: python train.py\n";

TEST(ContainerSection, EveryKeyIsRead) {
  const CaseSpec s = load(kCase);
  ASSERT_TRUE(s.container);
  const ContainerSpec& c = *s.container;
  EXPECT_EQ(c.image, "/cases/pytorch_24.05.sif");  // an image file: the case folder's
  EXPECT_EQ(c.runtime, "apptainer");
  ASSERT_EQ(c.mounts.size(), 3u);
  EXPECT_EQ(c.mounts[0].source, "/lus/data");
  EXPECT_EQ(c.mounts[0].target, "/data");
  EXPECT_TRUE(c.mounts[0].read_only);
  // A relative source is the case file's folder's; with no target it is seen at its own path.
  EXPECT_EQ(c.mounts[1].source, "/cases/ckpt");
  EXPECT_EQ(c.mounts[1].target, "/cases/ckpt");
  EXPECT_FALSE(c.mounts[2].read_only);
  EXPECT_EQ(load("case: c\ncontainer: {image: a, runtime: podman, mounts: [., 'd/']}\n"
                 "command: x\n")
                .container->mounts[1]
                .source,
            "/cases/d");  // no trailing '/': `SRC/:DST` is not every runtime's form
  EXPECT_EQ(c.gpus, "nvidia");
  EXPECT_THAT(c.env, ElementsAre(std::pair<std::string, std::string>{"NCCL_DEBUG", "INFO"},
                                 std::pair<std::string, std::string>{"OMP_NUM_THREADS", "8"}));
  EXPECT_EQ(c.shell, "/bin/bash");
  EXPECT_EQ(c.loc.line, 2);
  EXPECT_FALSE(c.per_point);
}

TEST(ContainerSection, AnImageFileIsTheCaseFoldersAndARegistryNameStaysAsWritten) {
  auto image_of = [](const std::string& img, const std::string& runtime) {
    return load("case: c\ncontainer: {image: '" + img + "', runtime: " + runtime +
                "}\ncommand: x\n")
        .container->image;
  };
  EXPECT_EQ(image_of("img/pt.sif", "apptainer"), "/cases/img/pt.sif");
  EXPECT_EQ(image_of("./pt.sqsh", "pyxis"), "/cases/pt.sqsh");
  EXPECT_EQ(image_of("/sw/pt.sif", "apptainer"), "/sw/pt.sif");
  EXPECT_EQ(image_of("docker://nvcr.io/nvidia/pytorch:24.05-py3", "apptainer"),
            "docker://nvcr.io/nvidia/pytorch:24.05-py3");
  EXPECT_EQ(image_of("nvcr.io#nvidia/pytorch:24.05-py3", "pyxis"),
            "nvcr.io#nvidia/pytorch:24.05-py3");
  EXPECT_EQ(image_of("localhost/train:1", "podman"), "localhost/train:1");
}

TEST(ContainerSection, AbsentMeansTheHost) {
  EXPECT_FALSE(load("case: c\ncommand: ./train\n").container);
}

TEST(ContainerSection, ImageAndRuntimeAreRequiredAndTheRuntimeIsOneOfTheDocumentedOnes) {
  EXPECT_THAT(error_of("case: c\ncontainer: {runtime: podman}\ncommand: x\n"),
              HasSubstr("fig.yaml:2:12: container: missing required key 'image'"));
  EXPECT_THAT(error_of("case: c\ncontainer: {image: a.sif}\ncommand: x\n"),
              HasSubstr("missing required key 'runtime' (apptainer, singularity, pyxis, enroot, "
                        "podman, podman-hpc, shifter)"));
  EXPECT_THAT(error_of("case: c\ncontainer: {image: a.sif, runtime: apptainr}\ncommand: x\n"),
              HasSubstr("fig.yaml:2:36: container.runtime: unknown container runtime "
                        "'apptainr' (did you mean 'apptainer'?)"));
  EXPECT_THAT(error_of("case: c\ncontainer: {image: a, runtime: podman, gpus: cuda}\ncommand: x\n"),
              HasSubstr("container.gpus: unknown gpus value 'cuda'"));
  EXPECT_THAT(error_of("case: c\ncontainer: {image: a, runtime: podman, mount: [x]}\ncommand: x\n"),
              HasSubstr("did you mean 'mounts'"));
  EXPECT_THAT(error_of("case: c\ncontainer: docker.io/pytorch\ncommand: x\n"),
              HasSubstr("container: expected a map with 'image' and 'runtime'"));
}

TEST(ContainerSection, AMountIsSourceTargetAndAFlag) {
  EXPECT_THAT(error_of("case: c\ncontainer: {image: a, runtime: podman, mounts: ['/a:b']}\n"
                       "command: x\n"),
              HasSubstr("container.mounts[0]: '/a:b': the target 'b' is not an absolute path"));
  EXPECT_THAT(error_of("case: c\ncontainer: {image: a, runtime: podman, mounts: ['/a:/b:rx']}\n"
                       "command: x\n"),
              HasSubstr("'/a:/b:rx': a mount is SOURCE[:TARGET][:ro|rw]"));
  // Pyxis separates mounts by commas, Shifter by semicolons: a path holding one is refused.
  EXPECT_THAT(error_of("case: c\ncontainer: {image: a, runtime: pyxis, mounts: ['/a,b']}\n"
                       "command: x\n"),
              HasSubstr("may not hold ',', ';' or a newline"));
  EXPECT_THAT(error_of("case: c\ncontainer: {image: a, runtime: podman, env: {1X: y}}\n"
                       "command: x\n"),
              HasSubstr("container.env.1X: '1X' is not a variable name"));
}

TEST(ContainerSection, PlaceholdersAreFilledPerPointAndMustNameParameters) {
  const CaseSpec s = load(
      "case: c\nparams: {tag: ['24.01', '24.05'], d: [x]}\n"
      "container: {image: 'nvcr.io#nvidia/pytorch:{tag}-py3', runtime: pyxis,\n"
      "            mounts: ['/lus/{d}:/data'], env: {TAG: '{tag}'}}\n"
      "command: x\n");
  ASSERT_TRUE(s.container->per_point);
  const ContainerSpec c = resolve_container(
      *s.container, ParamList{{"tag", Value::parse("24.05")}, {"d", Value::parse("x")}});
  EXPECT_EQ(c.image, "nvcr.io#nvidia/pytorch:24.05-py3");
  ASSERT_EQ(c.mounts.size(), 1u);
  EXPECT_EQ(c.mounts[0].source, "/lus/x");
  EXPECT_EQ(c.env[0].second, "24.05");
  EXPECT_THAT(error_of("case: c\nparams: {tag: [a]}\n"
                       "container: {image: 'img:{tga}', runtime: podman}\ncommand: x\n"),
              HasSubstr("container.image: placeholder '{tga}' names no parameter (known: tag)"));
}

TEST(ContainerSection, TheImageIsPartOfTheCaseVersion) {
  const std::string host = load("case: c\ncommand: python train.py\n").version;
  const std::string a = load(kCase).version;
  std::string other = kCase;
  other.replace(other.find("24.05"), 5, "24.06");
  EXPECT_NE(a, host);
  EXPECT_NE(a, load(other).version);
}

TEST(ContainerSection, TheCommandLineReplacesTheImageOrRunsOnTheHost) {
  CaseOverrides o;
  o.container_image = "/sw/other.sif";
  EXPECT_EQ(load(kCase, o).container->image, "/sw/other.sif");
  EXPECT_EQ(load(kCase, o).container->runtime, "apptainer");
  o.container_runtime = "singularity";
  EXPECT_EQ(load(kCase, o).container->runtime, "singularity");
  CaseOverrides none;
  none.no_container = true;
  EXPECT_FALSE(load(kCase, none).container);
  // A case without a container needs the runtime too.
  CaseOverrides image_only;
  image_only.container_image = "img";
  EXPECT_THAT(error_of("case: c\ncommand: x\n", image_only),
              HasSubstr("--container-runtime: the case has no `container:` section: give both "
                        "--container IMAGE and --container-runtime (apptainer, "));
  CaseOverrides both = image_only;
  both.container_runtime = "podman";
  const CaseSpec s = load("case: c\ncommand: x\n", both);
  ASSERT_TRUE(s.container);
  EXPECT_EQ(s.container->image, "img");
  EXPECT_EQ(s.container->runtime, "podman");
  both.container_runtime = "docker";
  EXPECT_THAT(error_of("case: c\ncommand: x\n", both),
              HasSubstr("unknown container runtime 'docker'"));
}

}  // namespace
}  // namespace aerun
