// File-name templates: the naming schemes of seeds 000, 002 and 004 -> typed parameters.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/ingest/ingest.hpp"
#include "aerun/util/error.hpp"

using aerun::NameTemplate;
using aerun::Value;

namespace {

std::string text_of(const aerun::ParamList& p, const std::string& name) {
  const Value* v = aerun::find_param(p, name);
  return v ? v->text() : "<none>";
}

}  // namespace

TEST(NameTemplate, Seed002StrongholdLogNames) {
  const NameTemplate t("log_{method}_l-{layers}_hs-{hidden}_bs-{batch}_ws-{window}_{date}.txt");
  const auto p =
      t.match("/x/results/log_zero-offload_l-48_hs-2048_bs-4_ws-10_2022-06-29.1656465726.txt");
  ASSERT_TRUE(p);
  EXPECT_EQ(text_of(*p, "method"), "zero-offload");
  EXPECT_EQ(aerun::find_param(*p, "layers")->kind(), Value::Kind::Int);  // l-48 -> 48
  EXPECT_EQ(aerun::find_param(*p, "layers")->number(), 48);
  EXPECT_EQ(aerun::find_param(*p, "window")->number(), 10);
  EXPECT_EQ(text_of(*p, "date"), "2022-06-29.1656465726");
  EXPECT_THAT(t.names(),
              testing::ElementsAre("method", "layers", "hidden", "batch", "window", "date"));
}

TEST(NameTemplate, Seed004BigScienceNamesWithDashesInsideAValue) {
  const NameTemplate t("{size}B-{impl}-mbs-{mbs}-pp{pp}-dp-{dp}-gas-{gas}-{jobid}.out");
  const auto p = t.match("55B-ds-zero0-mbs-2-pp16-dp-1-gas-512-200964.out");
  ASSERT_TRUE(p);
  EXPECT_EQ(text_of(*p, "size"), "55");
  EXPECT_EQ(text_of(*p, "impl"), "ds-zero0");
  EXPECT_EQ(aerun::find_param(*p, "pp")->number(), 16);
  EXPECT_EQ(aerun::find_param(*p, "gas")->number(), 512);
  EXPECT_EQ(aerun::find_param(*p, "jobid")->number(), 200964);
}

TEST(NameTemplate, Seed000StartupStudyNames) {
  const NameTemplate t("{user}-{host}-nhosts{nhosts}-ngpu{ngpu}-{stamp}.log");
  const auto p = t.match("foremans-nid008217-nhosts2-ngpu8-2023-10-05-191101.log");
  ASSERT_TRUE(p);
  EXPECT_EQ(text_of(*p, "user"), "foremans");
  EXPECT_EQ(text_of(*p, "host"), "nid008217");
  EXPECT_EQ(aerun::find_param(*p, "ngpu")->number(), 8);
  EXPECT_EQ(text_of(*p, "stamp"), "2023-10-05-191101");
}

TEST(NameTemplate, NamesThatDoNotFitAreRejected) {
  const NameTemplate t("log_{method}_l-{layers}.txt");
  EXPECT_EQ(t.match("log_l2l_l-32.txt.bak"), std::nullopt);
  EXPECT_EQ(t.match("notes.md"), std::nullopt);
  EXPECT_EQ(t.match("log__l-32.txt"), std::nullopt);  // a value is never empty
}

TEST(NameTemplate, ATemplateWithFoldersMatchesTheTrailingComponents) {
  const NameTemplate t("{model}/logs/{run}.log");
  const auto p = t.match("/out/gpt_1T/logs/r1.log");
  ASSERT_TRUE(p);
  EXPECT_EQ(text_of(*p, "model"), "gpt_1T");
  EXPECT_EQ(text_of(*p, "run"), "r1");
}

TEST(NameTemplate, BadTemplatesAreInputErrors) {
  EXPECT_THROW(NameTemplate(""), aerun::InputError);
  EXPECT_THROW(NameTemplate("{a}-{a}.log"), aerun::InputError);
  const NameTemplate braces("{{x}}-{n}.log");
  EXPECT_EQ(text_of(*braces.match("{x}-3.log"), "n"), "3");
}
