// `aerun systems` (issue 41): the profiles aerun knows, the one it recognises here and why, and
// `systems check` refusing a bad profile with its file, line and key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::AllOf;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

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

namespace {

// A case that asks for what it needs and names no machine.
const char* kPortable = R"yaml(case: portable
params: {x: [1]}
resources: {nodes: 2, walltime: 30m}
command: echo "x={x} foo=$FOO"
)yaml";

std::string job_script(const TempDir& d, const std::string& ext) {
  for (const auto& e : fs::directory_iterator(d / "results/logs/portable/jobs"))
    if (e.path().extension() == ext) return read_file(e.path().string());
  return "";
}

}  // namespace

TEST(CaseOnASystem, APortableCaseBecomesEachCentresJobScript) {
  // Polaris: ALCF's submit_gpu.sh asks `-q debug`, `-l filesystems=home:eagle`, 4 GPUs a node;
  // its PyTorch page loads `module use /soft/modulefiles; module load conda` (systems/NOTES.md).
  TempDir d;
  write_file(d / "c.yaml", kPortable);
  auto r = run_aerun(d, {"case", "c.yaml", "--system", "polaris", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string script = job_script(d, ".pbs");
  EXPECT_THAT(script,
              AllOf(HasSubstr("#PBS -q debug\n"), HasSubstr("#PBS -l filesystems=home:eagle\n"),
                    HasSubstr("ngpus=4"), HasSubstr("#PBS -l walltime=00:30:00\n")))
      << script;
  EXPECT_THAT(script, AllOf(ContainsRegex("\nmodule use /soft/modulefiles \\|\\| [^\n]*\nmodule "
                                          "load conda \\|\\| [^\n]*exit 95"),
                            HasSubstr("export NCCL_NET_GDR_LEVEL=PHB"),
                            HasSubstr("export AERUN_SYSTEM=polaris")));
  // Perlmutter: NERSC's launchers page asks `-C gpu` and 4 GPUs a node; its default QOS is debug.
  fs::remove_all(d / "results");
  r = run_aerun(d, {"case", "c.yaml", "--system", "perlmutter", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  script = job_script(d, ".sbatch");
  EXPECT_THAT(script,
              AllOf(HasSubstr("gpu"), HasSubstr("--qos=debug"), HasSubstr("--gpus-per-node=4")))
      << script;
  EXPECT_THAT(script, Not(HasSubstr("module load conda")));
}

TEST(CaseOnASystem, TheCasesOwnValuesForASystemAreReadOverItsKeys) {
  // One file for two machines: Polaris gets 10 nodes in its `prod` queue and its own variable,
  // Perlmutter the file's 2 nodes; a key of a map the system pins (resources.nodes) leaves the
  // map's other keys (walltime) as the file has them.
  TempDir d;
  write_file(d / "c.yaml", std::string(kPortable) +
                               "env: {FOO: base}\n"
                               "systems:\n"
                               "  polaris:\n"
                               "    resources: {nodes: 10, queue: prod}\n"
                               "    env: {FOO: on-polaris}\n"
                               "  perlmutter: {}\n");
  auto r = run_aerun(d, {"case", "c.yaml", "--system", "polaris", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string script = job_script(d, ".pbs");
  EXPECT_THAT(script, AllOf(HasSubstr("#PBS -q prod\n"), HasSubstr("select=10"),
                            HasSubstr("#PBS -l walltime=00:30:00\n"), HasSubstr("on-polaris")))
      << script;
  fs::remove_all(d / "results");
  r = run_aerun(d, {"case", "c.yaml", "--system", "perlmutter", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  script = job_script(d, ".sbatch");
  EXPECT_THAT(script,
              AllOf(HasSubstr("--nodes=2"), HasSubstr("FOO=base"), Not(HasSubstr("on-polaris"))))
      << script;
}

TEST(CaseOnASystem, AnErrorInASystemsValuesIsFoundOnAnyMachineAtItsLine) {
  TempDir d;
  write_file(d / "c.yaml", std::string(kPortable) +
                               "systems:\n"
                               "  polaris:\n"
                               "    resources: {nodes: many}\n");
  auto r = run_aerun(d, {"case", "c.yaml", "--system", "local", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("c.yaml:7:"), HasSubstr("resources.nodes"))) << r.err;
  write_file(d / "k.yaml", std::string(kPortable) + "systems:\n  polaris:\n    case: other\n");
  r = run_aerun(d, {"case", "k.yaml", "--system", "local", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("k.yaml:7:"), HasSubstr("unknown key 'case'"))) << r.err;
}

TEST(CaseOnASystem, WhatTheSystemsQueueDoesNotAllowIsRefusedAtTheCasesKey) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: big\nparams: {x: [1]}\nresources: {nodes: 600, queue: prod}\n"
             "command: echo {x}\n");
  auto r = run_aerun(d, {"case", "c.yaml", "--system", "polaris", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("c.yaml:3:"), HasSubstr("resources.nodes"),
                           HasSubstr("at most 496"), HasSubstr("polaris.yaml")));
  write_file(d / "w.yaml",
             "case: long\nparams: {x: [1]}\nresources: {nodes: 1, walltime: 2h}\n"
             "command: echo {x}\n");
  r = run_aerun(d, {"case", "w.yaml", "--system", "polaris", "--dry-run"});  // debug: 1 h
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("resources.walltime"), HasSubstr("at most 1h")));
  write_file(d / "q.yaml",
             "case: q\nparams: {x: [1]}\nresources: {queue: gpu_p2}\ncommand: echo\n");
  r = run_aerun(d, {"case", "q.yaml", "--system", "polaris", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err,
              AllOf(HasSubstr("resources.queue"), HasSubstr("not a queue of system polaris")));
  r = run_aerun(d, {"case", "q.yaml", "--system", "summit"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no system named 'summit'"));
}

TEST(CaseOnASystem, ALocalRunStartsWithTheSystemsSetUpAndKeepsItsKey) {
  TempDir d;
  write_file(d / "c.yaml", kPortable);
  write_file(d / "mine/lab.yaml", "name: lab\nenvironment: {variables: {FOO: from-lab}}\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--system", "lab", "--systems", d / "mine"}).code, 0);
  EXPECT_THAT(read_file(sql1(d / "results/aerun.db", "SELECT log_path FROM runs")),
              HasSubstr("x=1 foo=from-lab"));
  // On lab again: the same run, reused. On no named system: another run (the system is part of
  // a run's identity), whose key is the one it had before systems were.
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--system", "lab", "--systems", d / "mine"}).code, 0);
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM runs"), "1");
  const auto again = run_aerun(d, {"case", "c.yaml"});
  EXPECT_EQ(again.code, 0);
  EXPECT_EQ(sql1(d / "results/aerun.db",
                 "SELECT group_concat(system, '|') FROM (SELECT system FROM runs ORDER BY id)"),
            "lab|");
}

// Two machines of the user's own, each a profile of a local scheduler.
void two_labs(const TempDir& d) {
  write_file(d / "mine/lab-a.yaml", "name: lab-a\nrecognise: {variables: {MY_SITE: a}}\n");
  write_file(d / "mine/lab-b.yaml", "name: lab-b\n");
}

TEST(SystemsOfRuns, TheSamePointOnTwoSystemsIsTwoRunsEachListedShownAndSelectedByItsSystem) {
  TempDir d;
  write_file(d / "c.yaml", "case: startup\nparams: {x: [1]}\ncommand: echo x={x}\n");
  two_labs(d);
  for (const char* system : {"lab-a", "lab-b", "lab-a"})
    ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--system", system, "--systems", d / "mine"}).code,
              0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const auto csv = run_aerun(d, {"runs", "--format", "csv", "--columns", "case,system,x"});
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_EQ(csv.out, "case,system,x\nstartup,lab-a,1\nstartup,lab-b,1\nstartup,,1\n");
  const auto md = run_aerun(d, {"runs"});
  EXPECT_THAT(md.out, AllOf(HasSubstr("| key | case | system | rep |"), HasSubstr("| lab-b |")));
  EXPECT_THAT(run_aerun(d, {"runs", "--format", "json"}).out, HasSubstr("\"system\": \"lab-a\""));
  const auto b =
      run_aerun(d, {"runs", "--system", "lab-b", "--format", "csv", "--columns", "system"});
  EXPECT_EQ(b.out, "system\nlab-b\n");
  const auto none =
      run_aerun(d, {"runs", "--only", "system=local", "--format", "csv", "--columns", "system,x"});
  EXPECT_EQ(none.out, "system,x\n,1\n");
  const auto both = run_aerun(
      d, {"runs", "--only", "system=lab-a,lab-b", "--format", "csv", "--columns", "system"});
  EXPECT_EQ(both.out, "system\nlab-a\nlab-b\n");
  const std::string key_a =
      sql1(d / "results/aerun.db", "SELECT key FROM runs WHERE system='lab-a'");
  EXPECT_THAT(run_aerun(d, {"show", key_a}).out, HasSubstr("\nsystem      lab-a\n"));
  const std::string key_b =
      sql1(d / "results/aerun.db", "SELECT key FROM runs WHERE system='lab-b'");
  EXPECT_THAT(run_aerun(d, {"diff", key_a, key_b}).out,
              AllOf(HasSubstr("lab-a"), HasSubstr("lab-b")));
}

TEST(SystemsOfRuns, TheSystemRecognisedHereIsTheDefaultAndLocalNamesNone) {
  TempDir d;
  write_file(d / "c.yaml", "case: startup\nparams: {x: [1]}\ncommand: echo x={x}\n");
  two_labs(d);
  const std::string env = "AERUN_SYSTEMS=" + (d / "mine") + " MY_SITE=a";
  const auto r = run_aerun(d, {"case", "c.yaml"}, env);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("system lab-a (MY_SITE='a' matches 'a'"));
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT system FROM runs"), "lab-a");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--system", "local"}, env).code, 0);
  EXPECT_EQ(sql1(d / "results/aerun.db",
                 "SELECT group_concat(system, '|') FROM (SELECT system FROM runs ORDER BY id)"),
            "lab-a|");
}

TEST(SystemsOfRuns, MergingTwoSystemsStoresKeepsBothRunsCurrent) {
  TempDir d;
  write_file(d / "c.yaml", "case: startup\nparams: {x: [1]}\ncommand: echo x={x}\n");
  two_labs(d);
  ASSERT_EQ(
      run_aerun(d, {"case", "c.yaml", "--system", "lab-a", "--systems", d / "mine", "--db", "a.db"})
          .code,
      0);
  ASSERT_EQ(
      run_aerun(d, {"case", "c.yaml", "--system", "lab-b", "--systems", d / "mine", "--db", "b.db"})
          .code,
      0);
  const auto m = run_aerun(d, {"merge", "a.db", "b.db", "--into", "all.db"});
  ASSERT_EQ(m.code, 0) << m.err;
  const auto runs =
      run_aerun(d, {"runs", "--db", "all.db", "--format", "csv", "--columns", "system,x"});
  EXPECT_EQ(runs.out, "system,x\nlab-a,1\nlab-b,1\n");
  EXPECT_EQ(sql1(d / "all.db", "SELECT count(*) FROM run_history"), "0");  // none hidden
}

TEST(SystemsOfRuns, AStoreOfBeforeSystemsNamesItsRunsByTheShippedProfilesHostNames) {
  TempDir d;
  write_file(d / "c.yaml", "case: startup\nparams: {x: [1]}\ncommand: echo x={x}\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  // As aerun left it before systems (schema v14), run on a Polaris login node.
  const std::string db = d / "results/aerun.db";
  ASSERT_EQ(run_aerun(d, {"runs"}).code, 0);
  ASSERT_NO_FATAL_FAILURE(sql_exec(
      db,
      "DROP INDEX runs_case_system; ALTER TABLE runs DROP COLUMN system; ALTER TABLE run_history "
      "DROP COLUMN system; DELETE FROM schema_migrations WHERE version=15; UPDATE runs SET "
      "host='polaris-login-02'; PRAGMA user_version=14"));
  const std::string old_key = sql1(db, "SELECT key FROM runs");
  const auto r = run_aerun(d, {"runs", "--format", "csv", "--columns", "system,x"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "system,x\npolaris,1\n");
  EXPECT_NE(sql1(db, "SELECT key FROM runs"), old_key);
}

TEST(SystemsOfRuns, IngestedLogsKeepTheSystemTheyAreSaidToComeFrom) {
  TempDir d;
  write_file(d / "logs/a.log", "step 1 | loss: 2.5\nstep 2 | loss: 2.25\n");
  auto r = run_aerun(d, {"ingest", "logs", "--case", "lg", "--system", "polaris"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_aerun(d, {"ingest", "logs", "--case", "lg", "--system", "aurora"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_aerun(d, {"ingest", "logs", "--case", "lg", "--system", "aurora"});  // unchanged
  EXPECT_THAT(r.out, HasSubstr("0 added, 0 updated, 1 unchanged"));
  EXPECT_EQ(run_aerun(d, {"runs", "--format", "csv", "--columns", "system"}).out,
            "system\npolaris\naurora\n");
  r = run_aerun(d, {"ingest", "logs", "--case", "lg", "--system", "summit"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no system named 'summit'"));
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM sessions"), "3");  // none opened
}

TEST(SystemsOfRuns, ATableTakesTheSystemAsARowOrAsItsColumns) {
  TempDir d;
  two_labs(d);
  write_file(d / "c.yaml", R"yaml(case: startup
params: {x: [1, 2]}
command: 'echo "t: {x}.5"'
metrics: {t: 't: ([0-9.]+)'}
tables:
  bysys: {rows: [x], pivot: system, columns: [t]}
  rows2: {rows: [x, system], columns: [t]}
)yaml");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--system", "lab-a", "--systems", d / "mine"}).code, 0);
  // Before lab-b ran, its column does not exist; lab-a's points are all there.
  EXPECT_THAT(run_aerun(d, {"table", "bysys", "--cases", "c.yaml"}).out,
              HasSubstr("| x | lab-a |\n"));
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--system", "lab-b", "--systems", d / "mine"}).code, 0);
  EXPECT_THAT(run_aerun(d, {"table", "bysys", "--cases", "c.yaml"}).out,
              AllOf(HasSubstr("| x | lab-a | lab-b |\n"), HasSubstr("| 1 | 1.5 | 1.5 |\n"),
                    HasSubstr("| 2 | 2.5 | 2.5 |\n")));
  EXPECT_THAT(run_aerun(d, {"table", "rows2", "--cases", "c.yaml"}).out,
              AllOf(HasSubstr("| 1 | lab-a | 1.5 |\n"), HasSubstr("| 1 | lab-b | 1.5 |\n")));
  EXPECT_THAT(run_aerun(d, {"table", "bysys", "--cases", "c.yaml", "--only", "system=lab-b"}).out,
              AllOf(HasSubstr("| x | lab-b |\n"), Not(HasSubstr("lab-a"))));
}

TEST(SystemsOfRuns, RegressComparesOneSystemWithAnotherSessionBySession) {
  // One case file for two machines of the user's own (its step time pinned per system), a night
  // on each; `regress --baseline system=lab-a` judges lab-b's night against lab-a's.
  TempDir d;
  two_labs(d);
  write_file(d / "c.yaml",
             "case: speed\nparams: {x: [1]}\nrepeat: 5\ncommand: echo \"iter_ms=$T\"\n"
             "metrics: {iter_ms: 'iter_ms=([0-9.]+)'}\n"
             "systems:\n  lab-a: {env: {T: 100}}\n  lab-b: {env: {T: 130}}\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--system", "lab-a", "--systems", d / "mine", "--label",
                          "night-a"})
                .code,
            0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--system", "lab-b", "--systems", d / "mine", "--label",
                          "night-b"})
                .code,
            0);
  const auto r = run_aerun(d, {"regress", "--baseline", "system=lab-a"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;  // lab-b is slower
  EXPECT_THAT(r.out, AllOf(HasSubstr("system lab-a (night-a)"), HasSubstr("x=1 on lab-b"),
                           HasSubstr("regressed")));
  const auto none = run_aerun(d, {"regress", "--baseline", "system=lab-c"});
  EXPECT_EQ(none.code, 2);
  EXPECT_THAT(none.err, HasSubstr("has a run on system lab-c"));
}

TEST(SystemsOfRuns, ATableAndAPlotBySystemOfACaseWithItsOwnValuesPerSystem) {
  // Each machine's runs are of the version the case has there (its env pinned per system): the
  // table shows both machines' values, and the plot draws a line per system.
  TempDir d;
  two_labs(d);
  write_file(d / "c.yaml",
             "case: speed\nparams: {x: [1, 2]}\ncommand: echo \"iter_ms=$(( {x} * $T ))\"\n"
             "metrics: {iter_ms: 'iter_ms=([0-9.]+)'}\n"
             "systems:\n  lab-a: {env: {T: 100}}\n  lab-b: {env: {T: 130}}\n"
             "tables:\n  t: {rows: [x, system], columns: [{metric: iter_ms}]}\n"
             "plots:\n  p: {table: t, kind: line, x: x, y: iter_ms, series: system}\n");
  for (const char* system : {"lab-a", "lab-b"})
    ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--system", system, "--systems", d / "mine"}).code,
              0);
  const auto t = run_aerun(d, {"table", "t", "--cases", "c.yaml"});
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_THAT(t.out, AllOf(HasSubstr("| 1 | lab-a | 100 |"), HasSubstr("| 1 | lab-b | 130 |"),
                           HasSubstr("| 2 | lab-b | 260 |")))
      << t.out;
  EXPECT_THAT(t.err, Not(HasSubstr("earlier versions")));
  const auto p = run_aerun(d, {"plot", "p", "--cases", "c.yaml", "--out", d / "plots"});
  if (p.code == 4) GTEST_SKIP() << "no gnuplot";
  ASSERT_EQ(p.code, 0) << p.err;
  const std::string gp = read_file(d / "plots/p.gp");
  EXPECT_THAT(gp, AllOf(HasSubstr("lab-a"), HasSubstr("lab-b"))) << gp;
}

TEST(CaseOnASystem, ACaseThatNamesItsValidSystemsRunsThereOnlyAndSaysWhereElsewhere) {
  TempDir d;
  write_file(d / "c.yaml",
             std::string(kPortable) + "valid_systems: [polaris, perlmutter]  # ReFrame's word\n");
  EXPECT_EQ(run_aerun(d, {"case", "c.yaml", "--system", "polaris", "--dry-run"}).code, 0);
  auto r = run_aerun(d, {"case", "c.yaml", "--system", "aurora", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr(d / "c.yaml:5:"), HasSubstr("valid_systems"),
                           HasSubstr("runs on polaris, perlmutter only, and this is system aurora"),
                           HasSubstr("--system")));
  // Nothing recognised here: no named system, which the case does not list either.
  r = run_aerun(d, {"case", "c.yaml", "--dry-run"}, "NERSC_HOST= SLURM_CONF=/nonexistent");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("this is no named system (local)"));
  EXPECT_FALSE(fs::exists(d / "results/aerun.db"));
  // `local` may be listed like any other.
  write_file(d / "l.yaml", std::string(kPortable) + "valid_systems: [local, polaris]\n");
  EXPECT_EQ(run_aerun(d, {"case", "l.yaml", "--system", "local", "--dry-run"}).code, 0);
  write_file(d / "e.yaml", std::string(kPortable) + "valid_systems: []\n");
  EXPECT_THAT(run_aerun(d, {"case", "e.yaml", "--dry-run"}).err,
              AllOf(HasSubstr("e.yaml:5:"), HasSubstr("names no system")));
}

TEST(CaseOnASystem, LauncherSystemIsEachMachinesOwnLauncher) {
  // Polaris's and Aurora's profiles name PALS's mpiexec, Perlmutter's srun (systems/*.yaml).
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: portable
params: {x: [1]}
resources: {nodes: 2, walltime: 30m}
launcher: {kind: system, ranks_per_node: gpus}
command: '{launch} python3 train.py --x {x}'
)yaml");
  auto r = run_aerun(d, {"case", "c.yaml", "--system", "polaris", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(job_script(d, ".pbs"), HasSubstr("--launcher=pals"));
  fs::remove_all(d / "results");
  r = run_aerun(d, {"case", "c.yaml", "--system", "perlmutter", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(job_script(d, ".sbatch"), HasSubstr("--launcher=srun"));
  // No named system names no launcher: one process runs it, and a case asking for more ranks is
  // told so at its key.
  write_file(d / "one.yaml", "case: one\nlauncher: system\ncommand: '{launch} echo hi'\n");
  r = run_aerun(d, {"case", "one.yaml", "--system", "local"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(read_file(sql1(d / "results/aerun.db", "SELECT log_path FROM runs")),
              HasSubstr("hi"));
  write_file(d / "four.yaml",
             "case: four\nlauncher: {kind: system, ranks: 4}\ncommand: '{launch} echo hi'\n");
  r = run_aerun(d, {"case", "four.yaml", "--system", "local", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("four.yaml:2:"), HasSubstr("launcher.kind"),
                           HasSubstr("names no launcher")));
  write_file(d / "typo.yaml", "case: typo\nlauncher: sytem\ncommand: 'echo hi'\n");
  EXPECT_THAT(run_aerun(d, {"case", "typo.yaml", "--dry-run"}).err,
              AllOf(HasSubstr("unknown launcher 'sytem'"), HasSubstr("system (the system's)")));
}
