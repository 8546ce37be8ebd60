// The environment record's items from inside an image (probe/image_probe.hpp): the script the
// image's shell runs, and how its output becomes items.
#include "probe/image_probe.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ImageProbe, TheScriptAsksForEachToolTheHostIsAskedForAndTheImagesOs) {
  const std::string s = image_probe_script("@@M");
  for (const char* t :
       {"'@@M os'", "'@@M cc --version'", "'@@M nvcc --version'", "'@@M mpiexec --version'",
        "'@@M python --version'", "'@@M pip freeze'", "'@@M conda list'"})
    EXPECT_THAT(s, HasSubstr(t));
  EXPECT_THAT(s, HasSubstr("\"$py\" -m pip freeze --disable-pip-version-check"));
  EXPECT_THAT(s, HasSubstr("exit 0\n"));  // a missing tool is no failed start
}

TEST(ImageProbe, EachMarkedSectionIsAnItemNamedAfterItsImage) {
  const auto items = image_items(
      "@@M os\nID=debian\n@@M pip freeze\ntorch==2.11.0\nnumpy==2.3.0\n\n", "@@M", "image 2");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0], (EnvItem{"image 2: os", "", "ID=debian"}));
  EXPECT_EQ(items[1], (EnvItem{"image 2: pip freeze", "", "torch==2.11.0\nnumpy==2.3.0"}));
}

TEST(ImageProbe, AToolsOwnTextThatLooksLikeAMarkStaysItsText) {
  // The mark is random per start: a tool printing another mark (or this one mid-line) does not
  // cut its item.
  const auto items = image_items("@@M cc --version\ncc 12\n@@X fake\nsee @@M os\n", "@@M", "image");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].text, "cc 12\n@@X fake\nsee @@M os");
  EXPECT_TRUE(image_items("no marks at all\n", "@@M", "image").empty());
  // What the runtime printed before the script's first mark is no item.
  EXPECT_THAT(image_items("pulling... see @@M x\n@@M os\nID=a\n", "@@M", "image"),
              ElementsAre(EnvItem{"image: os", "", "ID=a"}));
}

TEST(ImageProbe, AnImageThatCannotStartHereSaysWhyAndRunsNothing) {
  ImageProbe p;
  p.image = "nvcr.io#nvidia/pytorch:24.05-py3";
  p.not_started = "Pyxis starts an image only as a job step (inside an allocation)";
  const auto items = probe_image(p, 0, CommandSettings{}, nullptr);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].name, "image");
  EXPECT_EQ(items[0].status, "not started here: " + p.not_started);
  EXPECT_EQ(items[0].text, p.image + "\ndigest unknown");
}

TEST(ImageProbe, AStartThatFailsIsTheImageItemsStatusWithWhatItSaid) {
  ImageProbe p;
  p.image = "img";
  p.start = "echo 'no such image' >&2; false";
  const auto items = probe_image(p, 0, CommandSettings{}, nullptr);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_THAT(items[0].status, HasSubstr("could not start the image: exit code 1"));
  EXPECT_THAT(items[0].text, HasSubstr("no such image"));
}

TEST(ImageProbe, ItemsComeFromWhatRunsInsideTheStart) {
  // A start that runs the script with the host's own shell stands in for a runtime here.
  ImageProbe p;
  p.image = "host-as-image";
  p.start = "env";
  const auto items = probe_image(p, 0, CommandSettings{}, nullptr);
  ASSERT_GE(items.size(), 2u);
  std::vector<std::string> names;
  for (const auto& i : items) names.push_back(i.name);
  EXPECT_THAT(names, ::testing::Contains("image: os"));
  EXPECT_THAT(names, ::testing::Contains("image: cc --version"));
}

}  // namespace
}  // namespace aerun
