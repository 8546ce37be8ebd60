// Issue 40, class 2: secrets shown. Redaction went by a variable's name only: a password inside a
// URL (`PIP_INDEX_URL=https://user:SECRET@...`) was printed by `show --env`; a secret the case sets
// in `env:` (`WANDB_API_KEY`) by `show` and `diff`; tokens on the command line (`--hf-token X`,
// `--password=X`) as recorded. None of them reaches any output now; a change is still seen.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const char* kCase = R"yaml(case: secrets
params: {x: [1, 2]}
env: {WANDB_API_KEY: 'wandb-5ecret', NCCL_DEBUG: WARN}
command: echo run {x} --hf-token hf-tok-5ecret --password=pw-5ecret --data https://u:url-5ecret@host/d
)yaml";

}  // namespace

TEST(SecretsShown, NoSecretReachesShowShowEnvOrDiffAndAChangeIsStillSeen) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  auto r = run_aerun(d, {"case", "c.yaml"},
                     "PIP_INDEX_URL=https://alice:pip-5ecret@pypi.example.org/simple "
                     "https_proxy=http://u:proxy-5ecret@proxy:3128");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "results/aerun.db";
  const std::string a = sql1(db, "SELECT key FROM runs WHERE id=1").substr(0, 12);
  const std::string b = sql1(db, "SELECT key FROM runs WHERE id=2").substr(0, 12);
  std::string all;
  for (const std::vector<std::string>& args : {std::vector<std::string>{"show", a},
                                               {"show", a, "--env"},
                                               {"diff", a, b},
                                               {"diff", a, b, "--all"}}) {
    r = run_aerun(d, args);
    EXPECT_LE(r.code, 1) << r.err;
    all += r.out + r.err;
  }
  EXPECT_THAT(all, Not(HasSubstr("5ecret")));
  EXPECT_THAT(all, HasSubstr("--hf-token <redacted sha256:"));
  EXPECT_THAT(all, HasSubstr("PIP_INDEX_URL=https://alice:<redacted sha256:"));
  EXPECT_THAT(all, HasSubstr("NCCL_DEBUG=WARN"));
  // The two runs' WANDB_API_KEY is one value: the digests agree (a change is seen by them:
  // SecretText.TheDigestShowsAChangeNotTheValue).
  r = run_aerun(d, {"diff", a, b});
  EXPECT_THAT(r.out, HasSubstr("environment set by the case (0 differ, 2 the same)"));
}
