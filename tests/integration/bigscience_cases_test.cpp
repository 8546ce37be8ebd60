// The shipped BigScience GPT-2 cases (seed 004) on the real binary and the real table code: their
// Slurm dry-runs write job arrays asking for the seed's allocation and running the BigScience
// scripts' srun line with the seed's TP/PP/PP-chunk/micro-batch values; fixture logs in the seed's
// formats (tests/fixtures/bigscience/README.md) give the seed's tables back, TFLOPs derived.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <tuple>

#include "aerun/case/case_loader.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/report/table.hpp"
#include "aerun/sweep/sweep.hpp"
#include "fixture_runs.hpp"
#include "harness.hpp"

namespace aerun::testing {
namespace {

using ::testing::HasSubstr;

const std::string kCases = std::string(AERUN_CASES_DIR) + "/bigscience";
const std::string kFixtures = std::string(AERUN_FIXTURES) + "/bigscience";
// The log names of seed 004's renamed sbatch scripts (<name>-<jobid>.out).
const std::string kLogPattern = "{msize}B-{impl}-mbs-{mbs}-pp{pp}-dp-{dp}-gas-{gas}-{jobid}.out";

void expect_case_golden(const std::string& text, const std::string& name) {
  expect_golden(text, kFixtures + "/golden/" + name);
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
  EXPECT_EQ(task_variable(scripts[0], 0),
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
      const std::string cmd = task_variable(scripts[a], i);
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
  for (int i = 0; i < 16; ++i) run.insert(task_variable(scripts[0], i));
  std::set<std::string> expected;
  for (const auto& name : seed) expected.insert("bash ./" + name + ".sh");
  EXPECT_EQ(run, expected);
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
  expect_case_golden(md, "meg-gpt2-perf.md");
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
  Result r = run_aerun(dir, {"ingest", "--assume-complete", kFixtures, "--case", cases, "--pattern",
                             "fixture_" + kLogPattern, "--db", dir / "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("16 added, 0 updated, 0 unchanged"));
  // The averager's "fail": no iteration line in the log.
  EXPECT_EQ(sql1(dir / "r.db", "SELECT count(*) FROM runs WHERE status='no_progress'"), "8");
  r = run_aerun(dir, {"table", "gpt2-meg-ds-64gpu", "--cases", cases, "--db", dir / "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  expect_case_golden(r.out, "gpt2-meg-ds-64gpu.md");
  // 61B megatron MBS 2 PP 16: iterations 144.2, 144.5, 144.8 s -> 144.5 s (the seed's int(): 144);
  // 61*4*2*1024*(2*1*512) / (144.5*64*1e3) = 511705088 / 9248000 = 55.33 (seed: 55.5 at 144 s).
  EXPECT_THAT(r.out,
              HasSubstr("| 61 | megatron | 2 | 16 | 1 | 512 | 144.5 | 144 | 1.00 ✓ | 55.3 |"));
}

// ---- The tables that span GPU counts (per-point nodes): max model size, save-checkpoint speed,
// ---- HF + DeepSpeed ZeRO-3. Dry runs check the job scripts and command lines; the golden tables
// ---- come from a local run of the case whose command is replaced by `cat` of each point's
// ---- fixture log (the same extraction, store and `aerun table` as a run on Jean Zay).

// `file` with no scheduler, workdir `.` and its command (`command: >-` up to `tables:`) replaced
// by `cat <fixtures>/<log_template>` ({param} placeholders of the point), written into dir.
std::string replay_case(const TempDir& dir, const std::string& file,
                        const std::string& log_template) {
  std::istringstream in(read_file(file));
  std::string out;
  bool in_command = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("tables:", 0) == 0) in_command = false;
    if (in_command || line.rfind("scheduler:", 0) == 0) continue;
    if (line.rfind("workdir:", 0) == 0) {
      out += "workdir: .\n";
    } else if (line.rfind("command:", 0) == 0) {
      out += "command: cat " + kFixtures + "/" + log_template + "\n";
      in_command = true;
    } else {
      out += line + "\n";
    }
  }
  const std::string path = dir / fs::path(file).filename().string();
  write_file(path, out);
  return path;
}

// Runs the replayed case locally and prints its table.
std::string replayed_table(const TempDir& dir, const std::string& file,
                           const std::string& log_template, const std::string& table) {
  const std::string replay = replay_case(dir, file, log_template);
  Result r = run_aerun(dir, {"case", replay, "--db", dir / "r.db", "--no-progress"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sql1(dir / "r.db", "SELECT count(*) FROM runs WHERE status != 'ok'"), "0");
  r = run_aerun(dir, {"table", table, "--cases", replay, "--db", dir / "r.db"});
  EXPECT_EQ(r.code, 0) << r.err;
  return r.out;
}

TEST(BigscienceCases, MaxSizeIsOneJobPerNodeCountAndNodeTypeWithTheSeedsShapes) {
  TempDir dir;
  const auto scripts = dry_run_scripts(dir, kCases + "/meg-gpt2-max-size.yaml", "slurm");
  // 10 rows; the two 64-node rows on 16 GB nodes (78B PP 64, 22B DP 4) share one array.
  const std::vector<std::tuple<int, std::string, int>> jobs = {
      {4, "v100-16g", 1},  {16, "v100-16g", 1}, {32, "v100-16g", 1},
      {64, "v100-16g", 2}, {4, "v100-32g", 1},  {8, "v100-32g", 1},
      {16, "v100-32g", 1}, {32, "v100-32g", 1}, {64, "v100-32g", 1}};
  ASSERT_EQ(scripts.size(), jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto& [nodes, constraint, runs] = jobs[i];
    const std::string script = read_file(scripts[i]);
    EXPECT_THAT(script, HasSubstr(fmt::format("#SBATCH --nodes={}\n", nodes)));
    EXPECT_THAT(script, HasSubstr(fmt::format("#SBATCH --constraint={}\n", constraint)));
    EXPECT_EQ(script.find("#SBATCH --array=") != std::string::npos, runs > 1) << i;
    EXPECT_EQ(std::system(("bash -n " + shell_quote(scripts[i])).c_str()), 0);
  }
  // The first row: 7.5B = 36 layers x 4096 on 4 nodes, PP 4, MBS 1, 4 chunks, DP 1 -> GBS 4.
  const std::string first = task_variable(scripts[0], 0);
  EXPECT_THAT(first, HasSubstr("--nproc_per_node 4 --nnodes 4 "));
  EXPECT_THAT(first, HasSubstr("--tensor-model-parallel-size 4 --pipeline-model-parallel-size 4 "
                               "--num-layers 36 --hidden-size 4096 --num-attention-heads 32 "));
  EXPECT_THAT(first, HasSubstr("--micro-batch-size 1 --global-batch-size 4 "));
  // The 64-node array: 78B (128 x 7168, PP 64, GBS 4), then 22B (48 x 6144, PP 16, DP 4: GBS 16).
  EXPECT_THAT(task_variable(scripts[3], 0),
              HasSubstr("--pipeline-model-parallel-size 64 --num-layers 128 --hidden-size 7168 "));
  const std::string dp4 = task_variable(scripts[3], 1);
  EXPECT_THAT(dp4, HasSubstr("--nnodes 64 "));
  EXPECT_THAT(dp4, HasSubstr("--pipeline-model-parallel-size 16 --num-layers 48 --hidden-size "
                             "6144 "));
  EXPECT_THAT(dp4, HasSubstr("--micro-batch-size 1 --global-batch-size 16 "));
  // The last: 206B = 256 x 8192 on 64 nodes of 32 GB.
  EXPECT_THAT(task_variable(scripts[8], 0), HasSubstr("--nnodes 64 --master_addr"));
  EXPECT_THAT(task_variable(scripts[8], 0), HasSubstr("--num-layers 256 --hidden-size 8192 "));
  EXPECT_FALSE(fs::exists(dir / "a.db"));
}

TEST(BigscienceCases, MaxSizeTableFromFixtureLogsGivesBothOfTheSeedsTables) {
  TempDir dir;
  const std::string md = replayed_table(
      dir, kCases + "/meg-gpt2-max-size.yaml",
      "fixture_meg_gpt2_max_size-{constraint}-n{nodes}-{msize}B.out", "meg-gpt2-max-size");
  expect_case_golden(md, "meg-gpt2-max-size.md");
  // 16 GB, 16 GPUs: iterations 0.658, 0.661, 0.664 s -> 0.661 s; size 36*(12*4096^2 + 13*4096)
  // + 50257*4096 + 1024*4096 + 2*4096 = 7 460 659 200 -> 7.46 B;
  // 7.4606592*4*2*1024*4 / (0.661*16*1e3) = 244 450.8 / 10 576 = 23.11 (seed 23.2 with 7.5).
  EXPECT_THAT(md, HasSubstr("| v100-16g | 16 | 7.5 | 1 | 4 | 4 | 1 | 4 | 7.5 | 0.661 | 0.661 | "
                            "1.00 ✓ | 23.1 | 23.2 | 1.00 ✓ |"));
  // 32 GB, 256 GPUs: 256*(12*8192^2 + 13*8192) + 50257*8192 + 1024*8192 + 2*8192
  // = 206 605 959 168 -> 206.6 B; 206.606*4*2*1024*4 / (6.736*256*1e3) = 6 770 064 / 1 724 416
  // = 3.93 (seed 3.9).
  EXPECT_THAT(md, HasSubstr("| v100-32g | 256 | 206 | 1 | 64 | 4 | 1 | 4 | 206.6 | 6.736 | "
                            "6.736 | 1.00 ✓ | 3.9 | 3.9 | 1.01 ✓ |"));
  // The seed's DP 4 row: GBS 16 (its own definition) where it computed with 4:
  // 22.062*4*2*1024*16 / (1.826*256*1e3) = 2 891 710 / 467 456 = 6.19 against the seed's 1.5.
  EXPECT_THAT(md, HasSubstr("| v100-16g | 256 | 22 | 4 | 16 | 4 | 1 | 16 | 22.1 | 1.826 | 1.826 "
                            "| 1.00 ✓ | 6.2 | 1.5 | 4.12 ✗ |"));
}

TEST(BigscienceCases, SaveCheckpointRunsSaveAtTheSecondIterationOnEachNodeCount) {
  TempDir dir;
  const auto scripts = dry_run_scripts(dir, kCases + "/meg-gpt2-save-checkpoint.yaml", "slurm");
  // 8 nodes (25B), 16 (52B), 32 (52B, 97B: an array), 64 (52B, 97B, 181B: an array).
  ASSERT_EQ(scripts.size(), 4u);
  const std::vector<std::pair<int, int>> jobs = {{8, 1}, {16, 1}, {32, 2}, {64, 3}};
  for (size_t i = 0; i < jobs.size(); ++i) {
    const std::string script = read_file(scripts[i]);
    EXPECT_THAT(script, HasSubstr(fmt::format("#SBATCH --nodes={}\n", jobs[i].first)));
    if (jobs[i].second > 1) {
      EXPECT_THAT(script, HasSubstr(fmt::format("#SBATCH --array=0-{}\n", jobs[i].second - 1)));
    }
  }
  // 52B on 64 nodes: PP 16, DP = 256 / (4 * 16) = 4, GBS = 1 * 4 * 4 = 16.
  const std::string b52 = task_variable(scripts[3], 0);
  EXPECT_THAT(b52, HasSubstr("--pipeline-model-parallel-size 16 --num-layers 64 --hidden-size "
                             "8192 "));
  EXPECT_THAT(b52, HasSubstr("--micro-batch-size 1 --global-batch-size 16 "));
  // 181B on 64 nodes: 256 x 7680, PP 64, DP 1; two iterations, saving at the second.
  const std::string b181 = task_variable(scripts[3], 2);
  EXPECT_THAT(b181, HasSubstr("--nnodes 64 "));
  EXPECT_THAT(b181, HasSubstr("--pipeline-model-parallel-size 64 --num-layers 256 --hidden-size "
                              "7680 "));
  EXPECT_THAT(b181, HasSubstr("--train-iters 2 "));
  EXPECT_THAT(b181, HasSubstr("--save $six_ALL_CCFRSCRATCH/checkpoints/gpt2-181B-n64 "
                              "--save-interval 2 "));
}

TEST(BigscienceCases, SaveCheckpointTableFromFixtureLogsGivesTheSeedsTimes) {
  TempDir dir;
  const std::string md = replayed_table(dir, kCases + "/meg-gpt2-save-checkpoint.yaml",
                                        "fixture_meg_gpt2_save_checkpoint-n{nodes}-{msize}B.out",
                                        "meg-gpt2-save-checkpoint");
  expect_case_golden(md, "meg-gpt2-save-checkpoint.md");
  // 181B on 64 nodes: `time (ms) | save-checkpoint: 19495.31`; size 256*(12*7680^2 + 13*7680)
  // + 50257*7680 + 1024*7680 + 2*7680 = 181 613 345 280 -> 181.6 B; 14 bytes each = 2.54 TB;
  // 2542.59 GB / 19.49531 s = 130.4 GB/s.
  EXPECT_THAT(md, HasSubstr("| 64 | 181 | 256 | 181.6 | 2.54 | 19495.31 | 19495.31 | 1.00 ✓ | "
                            "130.4 |"));
  // 97B on 64 nodes, the seed's fastest save: 11525.99 ms; 98.03B * 14 = 1372.4 GB / 11.526 s
  // = 119.1 GB/s.
  EXPECT_THAT(md, HasSubstr("| 64 | 97 | 256 | 98.0 | 1.37 | 11525.99 | 11525.99 | 1.00 ✓ | "
                            "119.1 |"));
}

TEST(BigscienceCases, HfZero3MaxSizeRunsRunClmWithZero3FullOffloadOnEachNodeCount) {
  TempDir dir;
  const auto scripts = dry_run_scripts(dir, kCases + "/hf-zero3-max-size.yaml", "slurm");
  ASSERT_EQ(scripts.size(), 3u);
  const int nodes[] = {4, 8, 16};
  for (size_t i = 0; i < 3; ++i)
    EXPECT_THAT(read_file(scripts[i]), HasSubstr(fmt::format("#SBATCH --nodes={}\n", nodes[i])));
  // 25B = 40 layers x 7168 on 4 nodes, micro-batch 4 per GPU.
  EXPECT_EQ(task_variable(scripts[0], 0),
            "srun --jobid $SLURM_JOBID bash -c 'python -u -m torch.distributed.launch "
            "--nproc_per_node 4 --nnodes 4 --master_addr $(scontrol show hostnames "
            "$SLURM_JOB_NODELIST | head -n 1) --master_port 6000 --node_rank $SLURM_PROCID "
            "examples/pytorch/language-modeling/run_clm.py --model_type gpt2 --tokenizer_name "
            "gpt2 --config_overrides n_embd=7168,n_layer=40,n_head=32,n_positions=1024 "
            "--dataset_name stas/openwebtext-10k --block_size 1024 --per_device_train_batch_size "
            "4 --gradient_checkpointing --fp16 --do_train --max_steps 5 --logging_steps 1 "
            "--report_to none --output_dir $six_ALL_CCFRSCRATCH/hf-zero3/gpt2-25B "
            "--overwrite_output_dir --deepspeed ds_config_zero3_full_offload.json'");
  EXPECT_THAT(task_variable(scripts[2], 0),
              HasSubstr("--config_overrides n_embd=8192,n_layer=120,n_head=32,"));
  // The DeepSpeed config it names: ZeRO stage 3, optimizer and parameters offloaded to the CPU.
  const std::string ds = read_file(kCases + "/ds_config_zero3_full_offload.json");
  EXPECT_THAT(ds, HasSubstr("\"stage\": 3"));
  EXPECT_THAT(ds, HasSubstr("\"offload_optimizer\": {\"device\": \"cpu\""));
  EXPECT_THAT(ds, HasSubstr("\"offload_param\": {\"device\": \"cpu\""));
}

TEST(BigscienceCases, HfZero3MaxSizeTableFromTrainerMetricsGivesTheSeedsSpeedAndTflops) {
  TempDir dir;
  const std::string md =
      replayed_table(dir, kCases + "/hf-zero3-max-size.yaml",
                     "fixture_hf_zero3_max_size-n{nodes}-{msize}B.out", "hf-zero3-max-size");
  expect_case_golden(md, "hf-zero3-max-size.md");
  // 16 GPUs: train_samples_per_second 1.103 -> speed 64 / 1.103 = 58.02 s; size 40*(12*7168^2 +
  // 13*7168) + 50257*7168 + 1024*7168 + 2*7168 = 25 033 831 424 -> 25.0 B;
  // 25.0338*4*2*1024*64 / (58.02*16*1e3) = 13 125 026 / 928 377 = 14.14 (seed 14.0).
  EXPECT_THAT(md, HasSubstr("| 16 | 25 | 4 | 64 | 25.0 | 58.0 | 58 | 1.00 ✓ | 14.1 | 14 | 1.01 ✓ "
                            "|"));
  // 64 GPUs: 256 / 1.153 = 222.03 s; 120 x 8192 = 97.07 B;
  // 97.07*4*2*1024*256 / (222.03*64*1e3) = 203 570 545 / 14 209 920 = 14.33 (seed 14.3).
  EXPECT_THAT(md, HasSubstr("| 64 | 97 | 4 | 256 | 97.1 | 222.0 | 222 | 1.00 ✓ | 14.3 | 14.3 | "
                            "1.00 ✓ |"));
}

}  // namespace
}  // namespace aerun::testing
