// The 64-GPU BigScience cases of seed 004 (Megatron + DeepSpeed 3D new and old branch, Megatron +
// DeepSpeed ZeRO old branch, HF + DeepSpeed ZeRO 3 offload) on the real binary: each dry-run is one
// 16-node Slurm job array asking for the seed's allocation; a task's command, run with stand-ins
// for srun, scontrol and python, passes the flags and writes the DeepSpeed config of its table row;
// the fixture logs (tests/fixtures/bigscience/README.md), ingested by name, give the seed's tables
// back with the TFLOPs derived (golden files), ID 11 as OOM and the ZeRO-2 row as host_oom.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "harness.hpp"

namespace aerun::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kCases = std::string(AERUN_CASES_DIR) + "/bigscience";
const std::string kFixtures = std::string(AERUN_FIXTURES) + "/bigscience";

void expect_case_golden(const std::string& text, const std::string& name) {
  expect_golden(text, kFixtures + "/golden/" + name);
}

// `aerun case FILE --scheduler slurm --dry-run`: the one job script it writes.
std::string dry_run_script(const TempDir& dir, const std::string& file) {
  const Result r =
      run_aerun(dir, {"case", file, "--scheduler", "slurm", "--dry-run", "--db", dir / "a.db"});
  EXPECT_EQ(r.code, 0) << r.err;
  std::vector<std::string> paths;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') paths.push_back(line);
  EXPECT_EQ(paths.size(), 1u) << r.out;
  return paths.empty() ? "" : paths[0];
}

// What array task `index` of a job script runs (the script's own lines read its run), executed
// in `dir` with stand-ins: srun runs its
// command on "this node", scontrol names one host, python writes its arguments (one per line) to
// argv.txt. SLURM_JOB_ID is 42, so the DeepSpeed config is ds_config.42.json.
struct TaskRun {
  std::vector<std::string> argv;  // python's arguments
  std::string config;             // ds_config.42.json, empty when not written
};

TaskRun run_task(const TempDir& dir, const std::string& script, int index) {
  fs::create_directories(dir / "bin");
  write_file(dir / "bin/srun",
             "#!/bin/bash\nwhile [ \"$1\" != bash ]; do shift; done\nexec \"$@\"\n");
  write_file(dir / "bin/scontrol", "#!/bin/bash\necho jzxh001\n");
  write_file(dir / "bin/python", "#!/bin/bash\nprintf '%s\\n' \"$@\" > argv.txt\n");
  for (const char* b : {"srun", "scontrol", "python"})
    fs::permissions(dir.path() / "bin" / b, fs::perms::owner_all);
  write_file(dir / "task.sh",
             fmt::format("set -e\ncd {}\nexport PATH={}:$PATH SLURM_JOB_ID=42 SLURM_JOBID=42 "
                         "SLURM_NNODES=16 SLURM_PROCID=0 SLURM_JOB_NODELIST=jzxh001 "
                         "SLURM_ARRAY_TASK_ID={}\n"
                         "eval \"$(sed -n '/^aerun_task=/,/^export AERUN_RUN_KEY/p' {})\"\n"
                         "eval \"$AERUN_COMMAND\"\n",
                         shell_quote(dir.path().string()), shell_quote(dir / "bin"), index,
                         shell_quote(script)));
  fs::remove(dir / "argv.txt");
  fs::remove(dir / "ds_config.42.json");
  EXPECT_EQ(std::system(("bash " + shell_quote(dir / "task.sh")).c_str()), 0);
  TaskRun t;
  std::istringstream in(read_file(dir / "argv.txt"));
  for (std::string a; std::getline(in, a);) t.argv.push_back(a);
  if (fs::exists(dir / "ds_config.42.json")) t.config = read_file(dir / "ds_config.42.json");
  return t;
}

// The arguments as one line, to look for "--flag value" pairs.
std::string joined(const TaskRun& t) {
  std::string s;
  for (const auto& a : t.argv) s += a + " ";
  return s;
}

struct CaseJobs {
  const char* file;
  int runs;
  const char* walltime;
};
// Runs per case: meg-ds-3d 5 + 3 + 4 + 4 table rows; meg-ds-zero 2 + 5 + 1 + 17; hf 10.
const CaseJobs kJobs[] = {{"meg-ds-3d.yaml", 16, "00:20:00"},
                          {"meg-ds-3d-old.yaml", 1, "00:20:00"},
                          {"meg-ds-zero.yaml", 25, "00:20:00"},
                          {"hf-ds-zero3-offload.yaml", 10, "00:30:00"}};

TEST(Bigscience64GpuCases, EachCaseIsOneSixteenNodeArrayWithTheSeedsAllocation) {
  // seed 004: salloc --constraint=v100-32g --nodes=16 --ntasks=16 --cpus-per-task=40
  //           --gres=gpu:4 --hint=nomultithread (one task per node), account six@gpu
  for (const auto& job : kJobs) {
    TempDir dir;
    const std::string script = dry_run_script(dir, kCases + "/" + job.file);
    const std::string text = read_file(script);
    const std::string array =
        job.runs == 1 ? "" : fmt::format("#SBATCH --array=0-{}\n", job.runs - 1);
    EXPECT_THAT(text,
                HasSubstr(fmt::format("#SBATCH --nodes=16\n#SBATCH --ntasks-per-node=1\n"
                                      "#SBATCH --cpus-per-task=40\n#SBATCH --time={}\n"
                                      "#SBATCH --account=six@gpu\n#SBATCH --constraint=v100-32g\n"
                                      "#SBATCH --hint=nomultithread\n{}#SBATCH --gres=gpu:4\n",
                                      job.walltime, array)))
        << job.file;
    EXPECT_EQ(std::system(("bash -n " + shell_quote(script)).c_str()), 0) << job.file;
    EXPECT_FALSE(fs::exists(dir / "a.db"));  // a dry-run stores nothing
  }
}

TEST(Bigscience64GpuCases, Meg3dRowsRunMegatronWithOrWithoutTheDeepSpeedPipelineAndItsConfig) {
  TempDir dir;
  const std::string script = dry_run_script(dir, kCases + "/meg-ds-3d.yaml");
  // Task 0 = 3d.1: DS on, ZeRO 0, PP 16, GAS 256, MBS 4 -> global batch 4 * 256 * 1 = 1024.
  TaskRun t = run_task(dir, script, 0);
  std::string a = joined(t);
  EXPECT_THAT(a, HasSubstr("--nnodes 16 --master_addr jzxh001 --master_port 6000 --node_rank 0 "));
  EXPECT_THAT(a, HasSubstr("--tensor-model-parallel-size 4 --pipeline-model-parallel-size 16 "
                           "--num-layers 64 --hidden-size 8192 --num-attention-heads 32 "));
  EXPECT_THAT(a, HasSubstr("--micro-batch-size 4 --global-batch-size 1024 "));
  EXPECT_THAT(a, HasSubstr("--checkpoint-activations "));
  EXPECT_THAT(a, HasSubstr("--deepspeed --deepspeed_config ds_config.42.json --zero-stage 0 "
                           "--deepspeed-activation-checkpointing "));
  EXPECT_THAT(a, Not(HasSubstr("--partition-activations")));
  EXPECT_EQ(
      t.config,
      "{\"train_micro_batch_size_per_gpu\": 4, \"gradient_accumulation_steps\": 256, "
      "\"gradient_clipping\": 1.0, \"prescale_gradients\": true, \"zero_optimization\": "
      "{\"stage\": 0}, \"fp16\": {\"enabled\": true, \"loss_scale\": 0, \"loss_scale_window\": "
      "500, \"hysteresis\": 2, \"min_loss_scale\": 1, \"initial_scale_power\": 12}, "
      "\"steps_per_print\": 2000, \"wall_clock_breakdown\": false}\n");
  // Task 2 = 3d.3: the seed's GBS 2048 with GAS 256 and DP 1 is MBS 8 (2048 / 256).
  a = joined(run_task(dir, script, 2));
  EXPECT_THAT(a, HasSubstr("--micro-batch-size 8 --global-batch-size 2048 "));
  // Task 4 = 3d.5: Megatron alone: no DeepSpeed flag, no config.
  t = run_task(dir, script, 4);
  EXPECT_THAT(joined(t), Not(HasSubstr("--deepspeed")));
  EXPECT_EQ(t.config, "");
  // Task 5 = z1.1: ZeRO 1, reduce_bucket_size 5e8, --partition-activations, PP 8 -> DP 2,
  // GAS 128: global batch 4 * 128 * 2 = 1024.
  t = run_task(dir, script, 5);
  a = joined(t);
  EXPECT_THAT(a, HasSubstr("--pipeline-model-parallel-size 8 "));
  EXPECT_THAT(a, HasSubstr("--micro-batch-size 4 --global-batch-size 1024 "));
  EXPECT_THAT(a, HasSubstr("--zero-stage 1 --deepspeed-activation-checkpointing "
                           "--partition-activations "));
  EXPECT_THAT(t.config, HasSubstr("\"gradient_accumulation_steps\": 128, "));
  EXPECT_THAT(t.config,
              HasSubstr("\"zero_optimization\": {\"stage\": 1, \"reduce_bucket_size\": 5e8}"));
  // Task 12 = 2.1: MSIZE 39 is 8192 x 48 layers.
  EXPECT_THAT(joined(run_task(dir, script, 12)), HasSubstr("--num-layers 48 --hidden-size 8192 "));
}

TEST(Bigscience64GpuCases, OldBranch3dRowRunsTheV115PipelineFlags) {
  TempDir dir;
  const TaskRun t = run_task(dir, dry_run_script(dir, kCases + "/meg-ds-3d-old.yaml"), 0);
  const std::string a = joined(t);
  EXPECT_THAT(a, HasSubstr("pretrain_gpt2.py --model-parallel-size 4 --pipe-parallel-size 16 "));
  EXPECT_THAT(a, HasSubstr("--batch-size 4 --gas 256 "));
  EXPECT_THAT(a, HasSubstr("--deepspeed --deepspeed_config ds_config.42.json --zero-stage 0 "));
  // train_batch_size = MBS 4 * GAS 256 * DP 1
  EXPECT_THAT(t.config,
              HasSubstr("{\"train_batch_size\": 1024, \"train_micro_batch_size_per_gpu\": 4, "));
}

TEST(Bigscience64GpuCases, ZeroRowsToggleOlatunjisFlagsAndOffload) {
  TempDir dir;
  const std::string script = dry_run_script(dir, kCases + "/meg-ds-zero.yaml");
  // Task 0 = z.1: the base script: TP 4, MBS 48, --checkpoint-in-cpu, --synchronize-each-layer,
  // --contigious-checkpointing, one layer per checkpoint, ZeRO 3 buckets from hidden 8192:
  // 8192^2 = 67108864, * 9 / 10 = 60397977 (integer), 10 * 8192 = 81920.
  TaskRun t = run_task(dir, script, 0);
  std::string a = joined(t);
  EXPECT_THAT(a, HasSubstr("pretrain_gpt2.py --model-parallel-size 4 --num-layers 64 "
                           "--hidden-size 8192 "));
  EXPECT_THAT(a, HasSubstr("--batch-size 48 "));
  EXPECT_THAT(a, HasSubstr("--zero-stage 3 --zero-reduce-bucket-size 50000000 "
                           "--zero-allgather-bucket-size 5000000000 --zero-contigious-gradients "
                           "--zero-reduce-scatter --checkpoint-activations "
                           "--deepspeed-activation-checkpointing --checkpoint-num-layers 1 "
                           "--partition-activations --checkpoint-in-cpu --synchronize-each-layer "
                           "--contigious-checkpointing "));
  EXPECT_THAT(t.config, HasSubstr("\"stage3_prefetch_bucket_size\": 60397977, "
                                  "\"stage3_param_persistence_threshold\": 81920, "
                                  "\"reduce_bucket_size\": 67108864, "));
  EXPECT_THAT(t.config, HasSubstr("\"offload_optimizer\": {\"device\": \"none\"}"));
  // Task 7 = off.1: full CPU offload, MBS 64.
  t = run_task(dir, script, 7);
  EXPECT_THAT(joined(t), HasSubstr("--batch-size 64 "));
  EXPECT_THAT(joined(t), HasSubstr(" --cpu-optimizer "));
  EXPECT_THAT(t.config, HasSubstr("\"offload_optimizer\": {\"device\": \"cpu\"}, "
                                  "\"offload_param\": {\"device\": \"cpu\"}"));
  // Task 18 = ID 11 (the OOM): TP 1, MBS 22, split transformers, 2 layers per checkpoint,
  // scattered embeddings, activations in CPU; no synchronize / contiguous checkpointing.
  a = joined(run_task(dir, script, 18));
  EXPECT_THAT(a, HasSubstr("--model-parallel-size 1 "));
  EXPECT_THAT(a, HasSubstr("--batch-size 22 "));
  EXPECT_THAT(a, HasSubstr("--checkpoint-num-layers 2 --partition-activations --checkpoint-in-cpu "
                           "--split-transformers --scattered-embeddings "));
  EXPECT_THAT(a, Not(HasSubstr("--synchronize-each-layer")));
  // Task 21 = ID 14: from ID 12, --split-transformers removed, PA_CPU N.
  a = joined(run_task(dir, script, 21));
  EXPECT_THAT(a, HasSubstr("--partition-activations --scattered-embeddings "));
  EXPECT_THAT(a, Not(HasSubstr("--split-transformers")));
  EXPECT_THAT(a, Not(HasSubstr("--checkpoint-in-cpu")));
}

TEST(Bigscience64GpuCases, HfRowsRunRunClmWithTheirZeroStageAndOffloadDevices) {
  TempDir dir;
  const std::string script = dry_run_script(dir, kCases + "/hf-ds-zero3-offload.yaml");
  // Task 8 = hf.9: ZeRO 3, optimizer and parameter offload, MBS 12.
  TaskRun t = run_task(dir, script, 8);
  const std::string a = joined(t);
  EXPECT_THAT(a, HasSubstr("examples/pytorch/language-modeling/run_clm.py --model_type gpt2 "));
  EXPECT_THAT(a, HasSubstr("--config_overrides n_embd=8192,n_head=32,n_layer=64,n_positions=1024,"
                           "gradient_checkpointing=true,use_cache=False "));
  EXPECT_THAT(a, HasSubstr("--per_device_train_batch_size 12 "));
  EXPECT_THAT(a, HasSubstr("--logging_steps 1 --deepspeed ds_config.42.json "));
  EXPECT_THAT(t.config,
              HasSubstr("\"zero_optimization\": {\"stage\": 3, \"offload_optimizer\": "
                        "{\"device\": \"cpu\", \"pin_memory\": false}, \"offload_param\": "
                        "{\"device\": \"cpu\", \"pin_memory\": false}, "));
  // Task 9 = hf.10: ZeRO 2 with optimizer offload only.
  t = run_task(dir, script, 9);
  EXPECT_THAT(t.config,
              HasSubstr("\"zero_optimization\": {\"stage\": 2, \"offload_optimizer\": "
                        "{\"device\": \"cpu\", \"pin_memory\": false}, \"offload_param\": "
                        "{\"device\": \"none\", \"pin_memory\": false}, "));
}

// Ingests a fixture folder by name and prints the case's tables.
std::string ingest_and_tables(const TempDir& dir, const std::string& folder,
                              const std::string& pattern, int files,
                              const std::vector<std::string>& tables) {
  const std::string cases = kCases + "/" + folder + ".yaml";
  Result r = run_aerun(dir, {"ingest", "--assume-complete", kFixtures + "/" + folder, "--case",
                             cases, "--pattern", "fixture_" + pattern, "--db", dir / "r.db"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(fmt::format("{} added, 0 updated, 0 unchanged, 0 skipped", files)));
  std::string all;
  for (const auto& t : tables) {
    r = run_aerun(dir, {"table", t, "--cases", cases, "--db", dir / "r.db"});
    EXPECT_EQ(r.code, 0) << r.err;
    expect_case_golden(r.out, t + ".md");
    all += r.out;
  }
  return all;
}

TEST(Bigscience64GpuCases, Meg3dTablesFromFixtureLogsGiveTheSeedsSpeedMemoryAndTflops) {
  TempDir dir;
  const std::string md = ingest_and_tables(
      dir, "meg-ds-3d",
      "{id}-{msize}B-ds-{ds}-z{zero_stage}-pa-{pa}-bucket-{bucket}-pp{pp}-dp-{dp}-gas-{gas}-mbs-"
      "{mbs}-{date}.out",
      16, {"meg-ds-3d", "meg-ds-3d-z1", "meg-ds-3d-exp1", "meg-ds-3d-exp2"});
  // 3d.2: iterations 205.7, 206.0, 206.3 s -> 206.0 s; rank 0's max reserved 29286.4 MB / 1024 =
  // 28.6 GB (seed: 29, rounded up); 52*4*2*1024*1536 / (206*64*1e3) = 654311424 / 13184000 = 49.63.
  EXPECT_THAT(md, HasSubstr("| 3d.2 | Y | 28.6 | 29 | 0.99 ✓ | 1 | 16 | 256 | 6 | 1536 | 206.0 | "
                            "206 | 1.00 ✓ | 49.6 | 49.6 | 1.00 ✓ | 06-10 |"));
  // 3d.1 at 137 s: 436207616 / (137*64000) = 49.75; the seed's 46.7 was computed with 146 s.
  EXPECT_THAT(md, HasSubstr("| 49.7 | 46.7 | 1.07 ✓ |"));
  // 2.1: 39*4*2*1024*1024 / (104*64*1e3) = 327155712 / 6656000 = 49.15 (seed 49.1).
  EXPECT_THAT(md, HasSubstr("| 2.1 | Y | 2e8 | 2 | 8 | 128 | 4 | 1024 | 104.0 | 104 | 1.00 ✓ | "
                            "49.2 | 49.1 | 1.00 ✓ | 07-10 |"));
}

TEST(Bigscience64GpuCases, OldBranch3dTableFromItsFixtureLog) {
  TempDir dir;
  const std::string md = ingest_and_tables(dir, "meg-ds-3d-old",
                                           "{msize}B-pp{pp}-dp-{dp}-gas-{gas}-mbs-{mbs}-{date}.out",
                                           1, {"meg-ds-3d-old"});
  // The seed's perl line: 52*4*2*1024*1024 / (146*64*1e3) = 436207616 / 9344000 = 46.68.
  EXPECT_THAT(md, HasSubstr("| 52 | 16 | 1 | 256 | 4 | 05-27 | 1024 | 146.0 | 146 | 1.00 ✓ | 46.7 "
                            "| 46.7 | 1.00 ✓ |"));
}

TEST(Bigscience64GpuCases, ZeroTablesShowId11AsOomNeverAsAZero) {
  TempDir dir;
  const std::string md = ingest_and_tables(
      dir, "meg-ds-zero",
      "{id}-{msize}B-tp{tp}-mbs-{mbs}-scatemb-{scat_emb}-pacpu-{pa_cpu}-{date}.out", 25,
      {"meg-ds-zero-perf", "meg-ds-zero-tp-dp", "meg-ds-zero-offload", "meg-ds-zero-olatunji"});
  EXPECT_EQ(sql1(dir / "r.db", "SELECT count(*) FROM runs WHERE status='oom'"), "1");
  // DP (64 / TP) and Glob-BS (MBS 22 * DP 64 = 1408) are derived from parameters alone: the OOM
  // run has them; its speed and TFLOPs are its status.
  EXPECT_THAT(md, HasSubstr("| 11 | Y | Y | 1 | 64 | 22 | 1408 | OOM |  |  | OOM |  |  |"));
  // The same point on two dates: 52*4*2*1024*768 / (122*64e3) = 327155712 / 7808000 = 41.90 and
  // / (127*64e3) = 327155712 / 8128000 = 40.25.
  EXPECT_THAT(md, HasSubstr("| z.1 | 52 | 16 | 48 | 768 | 122.0 | 122 | 1.00 ✓ | 41.9 | 41.9 | "
                            "1.00 ✓ | 05-25 |"));
  EXPECT_THAT(md, HasSubstr("| z.2 | 52 | 16 | 48 | 768 | 127.0 | 127 | 1.00 ✓ | 40.3 | 40.3 | "
                            "1.00 ✓ | 05-27 |"));
  // 24B at TP 2, DP 32, MBS 32: 24*4*2*1024*1024 / (85.7*64e3) = 201326592 / 5484800 = 36.71.
  EXPECT_THAT(md, HasSubstr("| tp.5 | 24 | 2 | 32 | 32 | 1024 | 85.7 | 85.7 | 1.00 ✓ | 36.7 |"));
  // ID 13: 218103808 / (79*64e3) = 43.14 against the seed's 38.3 (which is what 89 s gives).
  EXPECT_THAT(md, HasSubstr("| 43.1 | 38.3 | 1.13 ✓ |"));
}

TEST(Bigscience64GpuCases, HfTableDerivesSpeedFromSamplesPerSecondAndShowsTheCgroupKill) {
  TempDir dir;
  const std::string md = ingest_and_tables(
      dir, "hf-ds-zero3-offload",
      "{id}-{msize}B-zero{zero}-optoffl-{opt_offl}-paroffl-{par_offl}-mbs-{mbs}-{date}.out", 10,
      {"hf-ds-zero3-offload"});
  EXPECT_EQ(sql1(dir / "r.db", "SELECT count(*) FROM runs WHERE status='host_oom'"), "1");
  // hf.1: 'train_samples_per_second': 3.683 -> 512 / 3.683 = 139.02 s;
  // 52*4*2*1024*512 / (139.02*64e3) = 218103808 / 8897280 = 24.51 (seed 24.5).
  EXPECT_THAT(md, HasSubstr("| hf.1 | 3 | N | N | 8 | 512 | 139.0 | 139 | 1.00 ✓ | 24.5 | 24.5 | "
                            "1.00 ✓ | 05-25 |"));
  EXPECT_THAT(md,
              HasSubstr("| hf.10 | 2 | Y | N | 4 | 256 | host_oom |  |  | host_oom |  |  | "
                        "05-28 |"));  // Glob-BS = 4 * 64 from parameters, even for the killed run
}

}  // namespace
}  // namespace aerun::testing
