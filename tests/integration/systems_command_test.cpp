// `aerun systems` (issue 41): the profiles aerun knows, the one it recognises here and why, and
// `systems check` refusing a bad profile with its file, line and key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(SystemsCommand, ListsTheShippedProfilesAndTheOneRecognisedHere) {
  TempDir d;
  const auto r = run_aerun(d, {"systems"}, "NERSC_HOST=perlmutter");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* name : {"aurora", "polaris", "perlmutter", "jean-zay", "local"})
    EXPECT_THAT(r.out, HasSubstr(std::string("\n") + name + " ")) << r.out;
  EXPECT_THAT(r.out, HasSubstr("here: perlmutter (NERSC_HOST='perlmutter' matches 'perlmutter')"));
  const auto none = run_aerun(d, {"systems", "--format", "json"}, "NERSC_HOST=");
  ASSERT_EQ(none.code, 0) << none.err;
  EXPECT_THAT(none.out, HasSubstr("\"here\": \"local\""));
  EXPECT_THAT(run_aerun(d, {"env", "--format", "json"}, "NERSC_HOST=perlmutter").out,
              HasSubstr("\"system\": \"perlmutter\""));
}

TEST(SystemsCommand, AUsersFolderAddsAndHidesProfiles) {
  TempDir d;
  write_file(d / "mine/polaris.yaml",
             "name: polaris\nscheduler: local\nrecognise: {variables: {MY_SITE: lab}}\n");
  write_file(d / "mine/lab.yaml", "name: lab\nscheduler: slurm\nlauncher: srun\n");
  const auto r = run_aerun(d, {"systems", "--systems", d / "mine"}, "MY_SITE=lab");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("here: polaris (MY_SITE='lab' matches 'lab')"));
  EXPECT_THAT(r.out, HasSubstr("hidden: polaris"));
  EXPECT_THAT(r.out, HasSubstr("\nlab "));
  const auto env = run_aerun(d, {"systems"}, "AERUN_SYSTEMS=" + (d / "mine") + " MY_SITE=lab");
  EXPECT_THAT(env.out, HasSubstr("here: polaris"));
}

TEST(SystemsCommand, CheckConfirmsGoodProfilesAndRefusesABadOneWithItsLineAndKey) {
  TempDir d;
  const auto ok = run_aerun(d, {"systems", "check", "polaris", "perlmutter"});
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_THAT(ok.out, AllOf(HasSubstr("polaris: ok"), HasSubstr("perlmutter: ok")));
  write_file(d / "bad.yaml",
             "name: bad\nscheduler: slurm\nqueues:\n  - name: gpu\n    walltime: 1 week\n");
  const auto bad = run_aerun(d, {"systems", "check", d / "bad.yaml"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, AllOf(HasSubstr("bad.yaml:5:"), HasSubstr("queues[0].walltime")));
  const auto unknown = run_aerun(d, {"systems", "check", "summit"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_THAT(unknown.err, AllOf(HasSubstr("no system named 'summit'"), HasSubstr("aurora")));
  // A bad profile in a folder of the user's stops the listing, naming it...
  write_file(d / "mine/x.yaml", "name: x\nlauncher: mpirun\n");
  const auto listing = run_aerun(d, {"systems", "--systems", d / "mine"});
  EXPECT_EQ(listing.code, 2);
  EXPECT_THAT(listing.err, AllOf(HasSubstr("x.yaml:2:"), HasSubstr("launcher")));
  // ...but not `aerun env`, which jobs run: the system is unknown, the error a note.
  const auto env = run_aerun(d, {"env"}, "AERUN_SYSTEMS=" + (d / "mine"));
  EXPECT_EQ(env.code, 0) << env.err;
  EXPECT_THAT(env.out, HasSubstr("SYSTEM=unknown"));
  EXPECT_THAT(env.err, HasSubstr("x.yaml:2:"));
}
