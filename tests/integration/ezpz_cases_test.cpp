// The shipped ezpz cases (seed 003, Polaris): their PBS dry-runs write job scripts asking for 2
// nodes whose launch step, run with a Polaris nodefile, gives the workshop's DIST_LAUNCH line, and
// whose command is the workshop's; the seed's own output lines give their tables (golden files).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

namespace aerun::testing {
namespace {

using ::testing::HasSubstr;

const std::string kCases = std::string(AERUN_CASES_DIR) + "/ezpz";
const std::string kFixtures = std::string(AERUN_FIXTURES) + "/ezpz";

// The one job script of `aerun case FILE --scheduler pbs --dry-run`.
std::string pbs_script(const TempDir& dir, const std::string& file) {
  const Result r =
      run_aerun(dir, {"case", file, "--scheduler", "pbs", "--dry-run", "--db", dir / "a.db"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("1 run in 1 pbs job script (nothing submitted)"));
  const auto nl = r.out.find('\n');
  return r.out.substr(nl + 1, r.out.find('\n', nl + 1) - nl - 1);
}

// Runs the script's `aerun env` step as the job would on the nodes of `nodefile` (default: two
// Polaris nodes), and returns a variable it exports.
std::string job_env(const TempDir& dir, const std::string& script, const std::string& var,
                    const std::string& nodefile = kFixtures + "/fixture_polaris_nodefile") {
  write_file(dir / "env.sh", "line=$(grep -o 'aerun_env=$(.*); then' " + shell_quote(script) +
                                 ")\nline=${line#aerun_env=\\$(}\nline=${line%); then}\n"
                                 "eval \"$(eval \"$line\")\"\nprintf %s \"$" +
                                 var + "\"\n");
  const std::string out = dir / "env.txt";
  const std::string cmd =
      "PBS_JOBID=3061463.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov "
      "PBS_NODEFILE=" +
      shell_quote(nodefile) + " bash " + shell_quote(dir / "env.sh") + " >" + shell_quote(out);
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  return read_file(out);
}

std::string job_command(const std::string& script) {
  const std::string text = read_file(script);
  const auto at = text.find("AERUN_COMMAND='") + 15;
  return text.substr(at, text.find("'\n", at) - at);
}

TEST(EzpzCases, EachCaseIsOnePbsJobOnTwoPolarisNodes) {
  for (const std::string name : {"test_dist", "wordplay"}) {
    TempDir dir;
    const std::string script = pbs_script(dir, kCases + "/" + name + ".yaml");
    EXPECT_THAT(read_file(script), HasSubstr("#PBS -l select=2\n"));
    EXPECT_THAT(read_file(script),
                HasSubstr("#PBS -l place=scatter\n#PBS -l filesystems=home:eagle\n"
                          "#PBS -A argonne_tpc\n"));
    EXPECT_EQ(std::system(("bash -n " + shell_quote(script)).c_str()), 0);
    EXPECT_FALSE(fs::exists(dir / "a.db"));
  }
}

TEST(EzpzCases, TheJobsLaunchStepGivesTheWorkshopsDistLaunchLine) {
  TempDir dir;
  const std::string script = pbs_script(dir, kCases + "/wordplay.yaml");
  // seed 003, ezpz_setup_job on 2 hosts x 4 GPUs:
  // DIST_LAUNCH=mpiexec --verbose --envall -n 8 -ppn 4 --hostfile <nodefile> --cpu-bind depth -d 8
  EXPECT_EQ(job_env(dir, script, "DIST_LAUNCH"),
            "mpiexec --verbose --envall -n 8 -ppn 4 --hostfile " + kFixtures +
                "/fixture_polaris_nodefile --cpu-bind depth -d 8");
  EXPECT_EQ(job_env(dir, script, "NHOSTS"), "2");
  EXPECT_EQ(job_env(dir, script, "NGPUS"), "8");
}

TEST(EzpzCases, TheAuroraCaseAsksForTheSeedsJobAndGetsItsDistLaunchLine) {
  TempDir dir;
  const std::string script = pbs_script(dir, kCases + "/aurora_ddp.yaml");
  // seed 000: qsub -q EarlyAppAccess -A Aurora_Deployment -l walltime=2:00:00 -l select=4 -I
  EXPECT_THAT(read_file(script), HasSubstr("#PBS -l select=4\n#PBS -l walltime=02:00:00\n"
                                           "#PBS -A Aurora_Deployment\n#PBS -q EarlyAppAccess\n"));
  // seed 000, savejobenv on 4 Aurora hosts: NGPU_PER_HOST 12, NGPUS 48,
  // DIST_LAUNCH: mpiexec --verbose --envall -n 48 -ppn 12 --hostfile <nodefile>
  const std::string nodefile = kFixtures + "/fixture_aurora_nodefile";
  EXPECT_EQ(job_env(dir, script, "DIST_LAUNCH", nodefile),
            "mpiexec --verbose --envall -n 48 -ppn 12 --hostfile " + nodefile);
  EXPECT_EQ(job_env(dir, script, "NHOSTS", nodefile), "4");
  EXPECT_EQ(job_env(dir, script, "NGPUS", nodefile), "48");
  // seed 000: "$ launch python3 -m ezpz framework=pytorch backend=DDP"
  EXPECT_THAT(job_command(script),
              ::testing::EndsWith("$DIST_LAUNCH python3 -m ezpz framework=pytorch backend=DDP"));
}

TEST(EzpzCases, CommandsAreTheWorkshopsLaunchLines) {
  TempDir dir;
  // seed 003: "$ launch python3 -m wordplay \ train.backend=DDP \ ... | tee wordplay-gpt2-DDP.log";
  // `launch` is the job's $DIST_LAUNCH; aerun keeps the log itself, so no tee.
  EXPECT_EQ(job_command(pbs_script(dir, kCases + "/wordplay.yaml")),
            "export PBS_O_WORKDIR=$(pwd) && source deps/ezpz/src/ezpz/bin/utils.sh && "
            "ezpz_setup_python && $DIST_LAUNCH python3 -m wordplay train.backend=DDP "
            "train.eval_interval=100 data=shakespeare train.dtype=bf16 model.batch_size=64 "
            "model.block_size=1024 train.max_iters=1000 train.log_interval=10 "
            "train.compile=false");
  // seed 003: "$ unset NCCL_COLLNET_ENABLE ... NCCL_NET_GDR_LEVEL" then "$ launch python3 -m
  // ezpz.test_dist"
  TempDir d2;
  EXPECT_EQ(job_command(pbs_script(d2, kCases + "/test_dist.yaml")),
            "export PBS_O_WORKDIR=$(pwd) && source deps/ezpz/src/ezpz/bin/utils.sh && "
            "ezpz_setup_python && unset NCCL_COLLNET_ENABLE NCCL_CROSS_NIC NCCL_NET "
            "NCCL_NET_GDR_LEVEL && $DIST_LAUNCH python3 -m ezpz.test_dist");
}

// Ingests the seed's output lines (a 1-node, 4-GPU run) into a case and prints its table.
std::string table_of(const TempDir& dir, const std::string& file, const std::string& table,
                     const std::string& pattern) {
  Result r = run_aerun(dir, {"ingest", "--assume-complete", kFixtures, "--case", file, "--pattern",
                             pattern, "--db", dir / "r.db"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("1 added"));
  r = run_aerun(dir, {"table", table, "--cases", file, "--db", dir / "r.db"});
  EXPECT_EQ(r.code, 0) << r.err;
  expect_golden(r.out, kFixtures + "/golden/" + table + ".md");
  return r.out;
}

TEST(EzpzCases, TestDistTableFromTheSeedsIterationLines) {
  TempDir dir;
  const std::string t = table_of(dir, kCases + "/test_dist.yaml", "ezpz-test-dist",
                                 "fixture_seed003_test_dist-nodes{nodes}-gpus{gpus_per_node}.log");
  // iter=1..5; loss at iter 5: 875.796; sps mean (16970 + 36110 + 35900 + 37040 + 38250) / 5 =
  // 32854; dt mean (3.77066 + 1.77221 + 1.78271 + 1.7279 + 1.67313) ms / 5 = 2.145 ms.
  EXPECT_THAT(t, HasSubstr("| 1 | 4 | 4 | 5 | 875.80 | 3.285e+04 | 2.145 |"));
}

TEST(EzpzCases, WordplayTableFromTheSeedsStepLines) {
  TempDir dir;
  const std::string t =
      table_of(dir, kCases + "/wordplay.yaml", "wordplay-ddp",
               "fixture_seed003_wordplay-{backend}-nodes{nodes}-gpus{gpus_per_node}-bs{batch_size}"
               "-block{block_size}.log");
  // step=10..100; loss at step 100: 2.445556; dt: the 10 values sum to 2.881379 s -> 288.1 ms;
  // sps: sum 138.92125 / 10 = 13.892, per GPU / 4 = 3.473 (the log's sps_per_gpu is 3.47);
  // mfu: sum 459.585416 / 10 = 45.96.
  EXPECT_THAT(t,
              HasSubstr("| 1 | 4 | DDP | 64 | 1024 | 4 | 100 | 2.4456 | 288.1 | 13.892 | 3.473 |"));
  EXPECT_THAT(t, HasSubstr("| 45.96 |"));
}

}  // namespace

using ::testing::AllOf;

// Seed 000's startup study as one file for its three machines (cases/startup/ezpz_startup.yaml):
// each system's dry-run is that centre's job, and each PBS job's launch step gives the line the
// seeds printed there.
std::string script_on(const TempDir& dir, const std::string& system, const std::string& ext) {
  const Result r =
      run_aerun(dir, {"case", std::string(AERUN_CASES_DIR) + "/startup/ezpz_startup.yaml",
                      "--system", system, "--dry-run", "--db", dir / (system + ".db")});
  EXPECT_EQ(r.code, 0) << r.err;
  const std::string path = r.out.substr(
      r.out.find('\n') + 1, r.out.find('\n', r.out.find('\n') + 1) - r.out.find('\n') - 1);
  EXPECT_EQ(fs::path(path).extension(), ext) << r.out;
  return path;
}

TEST(EzpzCases, TheStartupCaseIsOneFileForAuroraPolarisAndPerlmutter) {
  TempDir dir;
  const std::string aurora = script_on(dir, "aurora", ".pbs");
  EXPECT_THAT(read_file(aurora),
              AllOf(HasSubstr("#PBS -l select=4:ngpus=12\n"), HasSubstr("#PBS -q debug-scaling\n"),
                    HasSubstr("\nmodule load frameworks || ")));
  // seed 000, savejobenv on 4 Aurora hosts.
  const std::string aurora_nodes = kFixtures + "/fixture_aurora_nodefile";
  EXPECT_EQ(job_env(dir, aurora, "DIST_LAUNCH", aurora_nodes),
            "mpiexec --verbose --envall -n 48 -ppn 12 --hostfile " + aurora_nodes);
  const std::string polaris = script_on(dir, "polaris", ".pbs");
  EXPECT_THAT(read_file(polaris), AllOf(HasSubstr("#PBS -l select=2:ngpus=4\n"),
                                        HasSubstr("#PBS -l filesystems=home:eagle\n")));
  // seed 003, ezpz_setup_job on 2 Polaris hosts.
  EXPECT_EQ(job_env(dir, polaris, "DIST_LAUNCH"),
            "mpiexec --verbose --envall -n 8 -ppn 4 --hostfile " + kFixtures +
                "/fixture_polaris_nodefile --cpu-bind depth -d 8");
  // Perlmutter: NERSC's launchers page asks -C gpu and 4 GPUs a node, and launches with srun.
  const std::string perlmutter = script_on(dir, "perlmutter", ".sbatch");
  EXPECT_THAT(read_file(perlmutter),
              AllOf(HasSubstr("#SBATCH --nodes=2\n"), HasSubstr("#SBATCH --gpus-per-node=4\n"),
                    HasSubstr("#SBATCH --constraint=gpu\n"), HasSubstr("--launcher=srun")));
  for (const std::string& s : {aurora, polaris, perlmutter})
    EXPECT_THAT(job_command(s), ::testing::EndsWith("$DIST_LAUNCH python3 -m ezpz.test_dist"));
  // Elsewhere it says where it runs.
  const Result r =
      run_aerun(dir, {"case", std::string(AERUN_CASES_DIR) + "/startup/ezpz_startup.yaml",
                      "--system", "jean-zay", "--dry-run", "--db", dir / "jz.db"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("runs on aurora, polaris, perlmutter only"));
}

}  // namespace aerun::testing
