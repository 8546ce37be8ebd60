// The shipped BigScience GPT-2 cases (seed 004) on the real binary and the real table code: their
// Slurm dry-runs write job arrays asking for the seed's allocation and running the BigScience
// scripts' srun line with the seed's TP/PP/PP-chunk/micro-batch values; fixture logs in the seed's
// formats (tests/fixtures/bigscience/README.md) give the seed's tables back, TFLOPs derived.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "aerun/case_loader.hpp"
#include "aerun/extractor.hpp"
#include "aerun/sweep.hpp"
#include "aerun/table.hpp"
#include "harness.hpp"

namespace aerun::testing {
namespace {

using ::testing::HasSubstr;

const std::string kCases = std::string(AERUN_CASES_DIR) + "/bigscience";
const std::string kFixtures = std::string(AERUN_FIXTURES) + "/bigscience";
// The log names of seed 004's renamed sbatch scripts (<name>-<jobid>.out).
const std::string kLogPattern = "{msize}B-{impl}-mbs-{mbs}-pp{pp}-dp-{dp}-gas-{gas}-{jobid}.out";

void expect_golden(const std::string& text, const std::string& name) {
  const std::string path = kFixtures + "/golden/" + name;
  if (const char* u = std::getenv("AERUN_UPDATE_GOLDEN"); u && std::string(u) == "1")
    write_file(path, text);
  EXPECT_EQ(text, read_file(path))
      << "golden file " << path << " differs (AERUN_UPDATE_GOLDEN=1 rewrites it; review the diff)";
}

// `aerun case FILE --scheduler S --dry-run`: the job script paths it prints.
std::vector<std::string> dry_run_scripts(const TempDir& dir, const std::string& file,
                                         const std::string& scheduler) {
  const Result r =
      run_aerun(dir, {"case", file, "--scheduler", scheduler, "--dry-run", "--db", dir / "a.db"});
  EXPECT_EQ(r.code, 0) << r.err;
  std::vector<std::string> paths;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') paths.push_back(line);
  return paths;
}

// The command array task `index` of a job script runs: its `case` block evaluated by bash.
std::string task_command(const TempDir& dir, const std::string& script, int index) {
  write_file(dir / "get.sh", "aerun_task=" + std::to_string(index) + "\neval \"$(sed -n " +
                                 "'/^case \"$aerun_task\" in/,/^esac/p' " + shell_quote(script) +
                                 ")\"\nprintf %s \"$AERUN_COMMAND\"\n");
  const std::string out = dir / "cmd.txt";
  std::system(("bash " + shell_quote(dir / "get.sh") + " >" + shell_quote(out)).c_str());
  return read_file(out);
}

// The seed's "Performance" table, one row per run in the seed's order: nodes (x 4 GPUs), PP, PP
// chunks, micro-batch, day (the Notes column).
struct PerfRow {
  int nodes, pp, chunks, mbs;
  std::string day;
};
const std::vector<PerfRow> kPerf = {
    {4, 8, 64, 4, "05-26"},    {4, 8, 128, 4, "05-26"},   {4, 8, 256, 4, "05-26"},
    {4, 4, 128, 4, "05-26"},   {4, 4, 128, 6, "05-26"},   {4, 8, 128, 6, "05-26"},
    {4, 8, 32, 8, "05-26"},    {8, 8, 128, 4, "05-26"},   {8, 8, 128, 6, "05-26"},
    {8, 8, 256, 6, "05-26"},   {8, 8, 512, 6, "05-26"},   {16, 16, 256, 4, "05-25"},
    {16, 16, 256, 4, "05-26"}, {16, 16, 256, 4, "05-27"}, {16, 16, 256, 4, "05-28"},
    {16, 16, 256, 6, "05-26"}, {16, 16, 256, 8, "05-26"}, {16, 16, 512, 6, "05-26"},
    {16, 16, 512, 8, "05-26"}, {16, 32, 256, 4, "05-26"}};

TEST(BigscienceCases, ThePerfCaseIsOneSlurmArrayPerGpuCountAskingForTheSeedsAllocation) {
  // seed 004: salloc --constraint=v100-32g --nodes=16 --ntasks=16 --cpus-per-task=40 --gres=gpu:4
  //           --hint=nomultithread  (one task per node); the "change runtime" one-liner: 00:20:00.
  // Per-point nodes: 4 nodes (7 rows), 8 nodes (4 rows), 16 nodes (9 rows), in the seed's order.
  TempDir dir;
  const auto scripts = dry_run_scripts(dir, kCases + "/meg-gpt2-perf.yaml", "slurm");
  ASSERT_EQ(scripts.size(), 3u);
  const std::vector<std::pair<int, int>> arrays = {{4, 7}, {8, 4}, {16, 9}};
  for (size_t a = 0; a < arrays.size(); ++a) {
    const auto [nodes, runs] = arrays[a];
    const std::string script = read_file(scripts[a]);
    EXPECT_THAT(script,
                HasSubstr(fmt::format("#SBATCH --nodes={}\n#SBATCH --ntasks-per-node=1\n"
                                      "#SBATCH --cpus-per-task=40\n#SBATCH --time=00:20:00\n"
                                      "#SBATCH --account=six@gpu\n#SBATCH --constraint=v100-32g\n"
                                      "#SBATCH --hint=nomultithread\n#SBATCH --array=0-{}\n"
                                      "#SBATCH --gres=gpu:4\n",
                                      nodes, runs - 1)));
    EXPECT_EQ(std::system(("bash -n " + shell_quote(scripts[a])).c_str()), 0);
  }
  EXPECT_FALSE(fs::exists(dir / "a.db"));  // a dry-run stores nothing
}

TEST(BigscienceCases, PerfRunsAreTheBigscienceSrunLineWithTheSeedsTpPpChunksAndMicroBatch) {
  TempDir dir;
  const auto scripts = dry_run_scripts(dir, kCases + "/meg-gpt2-perf.yaml", "slurm");
  ASSERT_EQ(scripts.size(), 3u);
  // Task 0 of the 4-node array: 18B (NHIDDEN 6144, NLAYERS 40), TP 4, PP 8, 64 chunks, MBS 4:
  // global batch 4*64*1.
  EXPECT_EQ(task_command(dir, scripts[0], 0),
            "srun --jobid $SLURM_JOBID bash -c 'python -u -m torch.distributed.launch "
            "--nproc_per_node 4 --nnodes 4 --master_addr $(scontrol show hostnames "
            "$SLURM_JOB_NODELIST | head -n 1) --master_port 6000 --node_rank $SLURM_PROCID "
            "`pwd`/pretrain_gpt.py --tensor-model-parallel-size 4 "
            "--pipeline-model-parallel-size 8 --num-layers 40 --hidden-size 6144 "
            "--num-attention-heads 32 --seq-length 1024 --max-position-embeddings 1024 "
            "--micro-batch-size 4 --global-batch-size 256 --lr 0.00015 --lr-decay-style cosine "
            "--min-lr 1.0e-5 --train-iters 1000 --lr-decay-iters 800 --lr-warmup-fraction .01 "
            "--weight-decay 1e-2 --clip-grad 1.0 --vocab-file "
            "$six_ALL_CCFRWORK/models-custom/megatron-gpt2/megatron_lm_345m_v0.0/release/"
            "gpt2-vocab.json --merge-file "
            "$six_ALL_CCFRWORK/models-custom/megatron-gpt2/megatron_lm_345m_v0.0/release/"
            "gpt2-merges.txt --fp16 --checkpoint-activations --log-interval 1 "
            "--save-interval 500 --eval-interval 100 --eval-iters 10 --data-path "
            "$six_ALL_CCFRWORK/datasets-custom/openwebtext-10k/meg-gpt2_text_document "
            "--data-impl mmap --split 949,50,1 --distributed-backend nccl'");
  // Every task of every array: the seed's row, in the seed's order, with the array's own node
  // count in --nnodes; Glob-BS = MBS * chunks * DP(1).
  size_t row = 0;
  for (size_t a = 0; a < scripts.size(); ++a) {
    const int tasks = a == 0 ? 7 : a == 1 ? 4 : 9;
    for (int i = 0; i < tasks; ++i, ++row) {
      const std::string cmd = task_command(dir, scripts[a], i);
      const PerfRow& r = kPerf.at(row);
      EXPECT_THAT(cmd, HasSubstr(fmt::format("--nnodes {} ", r.nodes)));
      EXPECT_THAT(cmd, HasSubstr(fmt::format("--tensor-model-parallel-size 4 "
                                             "--pipeline-model-parallel-size {} ",
                                             r.pp)));
      EXPECT_THAT(cmd, HasSubstr(fmt::format("--micro-batch-size {} --global-batch-size {} ", r.mbs,
                                             r.mbs * r.chunks)));
    }
  }
  EXPECT_EQ(row, kPerf.size());
}

TEST(BigscienceCases, LogsCaseRunsTheSeedsRenamedScriptsOnSixteenNodes) {
  TempDir dir;
  const auto scripts = dry_run_scripts(dir, kCases + "/gpt2-meg-ds-64gpu-logs.yaml", "slurm");
  ASSERT_EQ(scripts.size(), 1u);
  const std::string script = read_file(scripts[0]);
  EXPECT_THAT(script, HasSubstr("#SBATCH --nodes=16\n"));
  EXPECT_THAT(script, HasSubstr("#SBATCH --array=0-15\n"));
  // The 16 logs of the seed's averager output, as the scripts that wrote them.
  const std::set<std::string> seed = {
      "61B-megatron-mbs-2-pp16-dp-1-gas-512", "55B-megatron-mbs-2-pp16-dp-1-gas-512",
      "55B-ds-zero0-mbs-2-pp16-dp-1-gas-512", "55B-ds-zero0-mbs-4-pp16-dp-1-gas-256",
      "55B-megatron-mbs-4-pp16-dp-1-gas-256", "61B-ds-zero0-mbs-4-pp16-dp-1-gas-256",
      "61B-ds-zero0-mbs-2-pp16-dp-1-gas-512", "61B-megatron-mbs-4-pp16-dp-1-gas-256",
      "61B-megatron-mbs-4-pp8-dp-2-gas-128",  "61B-megatron-mbs-2-pp8-dp-2-gas-256",
      "61B-ds-zero1-mbs-4-pp8-dp-2-gas-128",  "61B-ds-zero1-mbs-2-pp8-dp-2-gas-256",
      "55B-megatron-mbs-4-pp8-dp-2-gas-128",  "55B-megatron-mbs-2-pp8-dp-2-gas-256",
      "55B-ds-zero1-mbs-4-pp8-dp-2-gas-128",  "55B-ds-zero1-mbs-2-pp8-dp-2-gas-256"};
  std::set<std::string> run;
  for (int i = 0; i < 16; ++i) run.insert(task_command(dir, scripts[0], i));
  std::set<std::string> expected;
  for (const auto& name : seed) expected.insert("bash ./" + name + ".sh");
  EXPECT_EQ(run, expected);
}

// A run of `c` read from a fixture log, as the runner records it.
RunRecord run_from_log(const CaseSpec& c, const ParamList& point, const std::string& log) {
  static long long next_id = 1;
  const Extractor x = extract_file(log, c.metrics, c.status, c.startup);
  RunRecord r;
  r.id = next_id++;
  r.key = fs::path(log).filename().string();
  r.case_name = c.name;
  r.params = point;
  r.status = x.status() ? x.status()->status : "ok";
  r.metrics = x.metrics();
  r.log_path = log;
  return r;
}

std::string param(const ParamList& p, const std::string& name) {
  const Value* v = find_param(p, name);
  return v ? v->text() : "";
}

// The fixture log of a Performance row: fixture_meg_gpt2_perf_n<nodes>-pp<pp>-chunks<c>-mbs<m>.out;
// the 64-GPU point the seed repeated on later days has the day appended (-05-26, -05-27, -05-28).
std::string perf_fixture(const ParamList& p) {
  std::string name =
      fmt::format("{}/fixture_meg_gpt2_perf_n{}-pp{}-chunks{}-mbs{}", kFixtures, param(p, "nodes"),
                  param(p, "pp"), param(p, "pp_chunks"), param(p, "mbs"));
  const bool repeat = param(p, "nodes") == "16" && param(p, "pp") == "16" &&
                      param(p, "pp_chunks") == "256" && param(p, "mbs") == "4";
  if (repeat && param(p, "day") != "05-25") name += "-" + param(p, "day");
  return name + ".out";
}

TEST(BigscienceCases, PerfTableFromFixtureLogsGivesTheSeedsWholeTableWithItsGpuCounts) {
  const CaseSpec c = load_case(kCases + "/meg-gpt2-perf.yaml");
  std::vector<RunRecord> runs;
  Sweep(c).for_each([&](const ParamList& p) {
    const std::string log = perf_fixture(p);
    EXPECT_TRUE(fs::exists(log)) << log;
    runs.push_back(run_from_log(c, p, log));
    return true;
  });
  ASSERT_EQ(runs.size(), kPerf.size());
  const Table t = build_table(c, c.tables.at(0), runs);
  const std::string md = render_markdown(t);
  expect_golden(md, "meg-gpt2-perf.md");
  // 16 GPUs, 18B at PP 8, 64 chunks, MBS 4: iterations 90.2, 90.5, 90.8 s -> 90.5 s; size
  // 40*(12*6144^2 + 13*6144) + 50257*6144 + 1024*6144 + 2*6144 = 18 437 670 912 -> 18.4 B;
  // 18.437670912*4*2*1024*256 / (90.5*16*1e3) = 38 666 598 / 1 448 000 = 26.70 (seed 26.1 with
  // MSIZE rounded to 18).
  EXPECT_THAT(md, HasSubstr("| 16 | 8 | 64 | 4 | 05-26 | 1 | 256 | 18.4 | 90.5 | 90.5 | 1.00 ✓ | "
                            "26.7 | 26.1 | 1.02 ✓ |"));
  // 64 GPUs, PP 16, 256 chunks, MBS 4 on its four days: size 64*(12*8192^2 + 13*8192) +
  // 50257*8192 + 1024*8192 + 2*8192 = 51 966 533 632 -> 52.0 B; 51.966533632*4*2*1024*1024 =
  // 435 925 ... ; / (129*64e3) = 52.80, / (217*64e3) = 31.39, / (125*64e3) = 54.49,
  // / (225*64e3) = 30.27: the seed's 52.8, 31.4, 54.5, 30.3, each its own row.
  EXPECT_THAT(md, HasSubstr("| 64 | 16 | 256 | 4 | 05-25 | 1 | 1024 | 52.0 | 129.0 | 129 | 1.00 ✓ "
                            "| 52.8 | 52.8 | 1.00 ✓ |"));
  EXPECT_THAT(md, HasSubstr("| 64 | 16 | 256 | 4 | 05-26 | 1 | 1024 | 52.0 | 217.0 | 217 | 1.00 ✓ "
                            "| 31.4 | 31.4 | 1.00 ✓ |"));
  EXPECT_THAT(md, HasSubstr("| 64 | 16 | 256 | 4 | 05-27 | 1 | 1024 | 52.0 | 125.0 | 125 | 1.00 ✓ "
                            "| 54.5 | 54.5 | 1.00 ✓ |"));
  EXPECT_THAT(md, HasSubstr("| 64 | 16 | 256 | 4 | 05-28 | 1 | 1024 | 52.0 | 225.0 | 225 | 1.00 ✓ "
                            "| 30.3 | 30.3 | 1.00 ✓ |"));
}

TEST(BigscienceCases, IngestingTheSeedsLogNamesGivesTheAveragersTableWithFailsAsStatuses) {
  TempDir dir;
  const std::string cases = kCases + "/gpt2-meg-ds-64gpu-logs.yaml";
  Result r = run_aerun(dir, {"ingest", kFixtures, "--case", cases, "--pattern",
                             "fixture_" + kLogPattern, "--db", dir / "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("16 added, 0 updated, 0 unchanged"));
  // The averager's "fail": no iteration line in the log.
  EXPECT_EQ(sql1(dir / "r.db", "SELECT count(*) FROM runs WHERE status='no_progress'"), "8");
  r = run_aerun(dir, {"table", "gpt2-meg-ds-64gpu", "--cases", cases, "--db", dir / "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  expect_golden(r.out, "gpt2-meg-ds-64gpu.md");
  // 61B megatron MBS 2 PP 16: iterations 144.2, 144.5, 144.8 s -> 144.5 s (the seed's int(): 144);
  // 61*4*2*1024*(2*1*512) / (144.5*64*1e3) = 511705088 / 9248000 = 55.33 (seed: 55.5 at 144 s).
  EXPECT_THAT(r.out,
              HasSubstr("| 61 | megatron | 2 | 16 | 1 | 512 | 144.5 | 144 | 1.00 ✓ | 55.3 |"));
}

}  // namespace
}  // namespace aerun::testing
