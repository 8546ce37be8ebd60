// `aerun init`'s starter case: values of the command line become parameters, the command a
// template that gives the same line back, and the text loads as a case.
#include "aerun/case/starter_case.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/error.hpp"

using aerun::StarterRequest;
using ::testing::HasSubstr;

namespace {

aerun::CaseSpec load(const std::string& text) {
  return aerun::parse_case(text, "t.yaml", ".");
}

std::string param_text(const aerun::CaseSpec& c, const std::string& name) {
  for (const auto& p : c.params)
    if (p.name == name) {
      std::string out;
      for (const auto& v : p.values) out += (out.empty() ? "" : ",") + v.text();
      return out;
    }
  return "<none>";
}

// A request without a schema line.
StarterRequest req(std::string name, std::vector<std::string> argv,
                   std::vector<std::pair<std::string, std::vector<std::string>>> sweeps = {}) {
  StarterRequest r;
  r.name = std::move(name);
  r.argv = std::move(argv);
  r.sweeps = std::move(sweeps);
  return r;
}

}  // namespace

TEST(StarterCase, TheIssuesExampleSweepsLAndKeepsMethodAndHiddenFixed) {
  const std::string y = aerun::starter_case(
      req("fig7a", {"./examples/run.sh", "-m", "stronghold", "-l", "32", "-h", "2048"},
          {{"l", {"16", "32", "48"}}}));
  const auto c = load(y);
  EXPECT_EQ(c.name, "fig7a");
  EXPECT_EQ(c.command, "./examples/run.sh -m {m} -l {l} -h {h}");
  EXPECT_EQ(param_text(c, "m"), "stronghold");
  EXPECT_EQ(param_text(c, "l"), "16,32,48");
  EXPECT_EQ(param_text(c, "h"), "2048");
  EXPECT_THAT(y, HasSubstr("#   fig7a: {rows: [l], columns: [samples_per_s]}"));
  EXPECT_THAT(y, HasSubstr("# Written by `aerun init` from: ./examples/run.sh -m stronghold"));
}

TEST(StarterCase, LongOptionsEqualsFormsRepeatsAndWordsYamlWouldMisread) {
  const auto c = load(
      aerun::starter_case(req("t", {"python", "train.py", "--hidden-size", "1024", "--lr=3e-4",
                                    "seed=7", "--opt", "on", "--opt", "no", "--shift", "-1.5"})));
  EXPECT_EQ(c.command,
            "python train.py --hidden-size {hidden_size} --lr={lr} seed={seed} --opt {opt} --opt "
            "{opt_2} --shift {shift}");
  EXPECT_EQ(param_text(c, "hidden_size"), "1024");
  EXPECT_EQ(param_text(c, "lr"), "3e-4");
  EXPECT_EQ(param_text(c, "seed"), "7");
  EXPECT_EQ(param_text(c, "opt"), "on");  // text, not YAML's boolean
  EXPECT_EQ(param_text(c, "opt_2"), "no");
  EXPECT_EQ(param_text(c, "shift"), "-1.5");
}

TEST(StarterCase, PathsFlagsPositionalsAndBracesStayAsWrittenQuotedForTheShell) {
  const auto c = load(aerun::starter_case(req("t", {"./run.sh", "--data", "/scratch/x y", "--fp16",
                                                    "input.txt", "--cfg", "{\"a\": 1}", "it's"})));
  EXPECT_TRUE(c.params.empty());
  EXPECT_EQ(c.command,
            "./run.sh --data '/scratch/x y' --fp16 input.txt --cfg '{{\"a\": 1}}' 'it'\\''s'");
}

TEST(StarterCase, BadRequestsNameWhatIsWrong) {
  try {
    aerun::starter_case(req("t", {"./run.sh", "-l", "32"}, {{"layers", {"1", "2"}}}));
    FAIL() << "no error";
  } catch (const aerun::InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--sweep: 'layers' is not a parameter of the command"));
    EXPECT_THAT(e.what(), HasSubstr("its parameters: l"));
  }
  EXPECT_THROW(aerun::starter_case(req("..", {"./run.sh"})), aerun::InputError);
  EXPECT_THROW(aerun::starter_case(req("t", {})), aerun::InputError);
}
