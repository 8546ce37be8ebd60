// The base vocabulary every case has, whatever its presets: each line below is a real one, copied
// from the public log cited beside it (or, where no log could be found, written from the format
// string in the tool's source, said so), and must give its status to a case with no preset at all.
#include <gtest/gtest.h>

#include <iterator>
#include <random>
#include <string>

#include "aerun/case/apply_presets.hpp"
#include "aerun/extract/extractor.hpp"

namespace {

struct Line {
  const char* text;
  const char* status;
  const char* source;
};

// The status a case with no preset (the base vocabulary only) reads from one line.
std::string status_of(const std::string& line) {
  aerun::CaseSpec spec;
  spec.name = "t";
  aerun::apply_presets(spec, {});
  aerun::Extractor ex(spec);
  ex.feed(line + "\n");
  ex.finish();
  return ex.status() ? ex.status()->status : "";
}

void expect_all(const std::vector<Line>& lines) {
  for (const Line& l : lines)
    EXPECT_EQ(status_of(l.text), l.status) << l.text << "\n  " << l.source;
}

TEST(BaseVocabulary, LsfTerminationReasons) {
  expect_all({
      {"TERM_RUNLIMIT: job killed after reaching LSF run time limit.", "timeout", "marbl/canu#444"},
      {"TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.", "host_oom",
       "marbl/canu#1047"},
      {"TERM_THREADLIMIT: job killed after reaching LSF thread limit.", "failed",
       "cdanielmachado/carveme#34"},
      {"TERM_ADMIN: job killed by root or an administrator.", "cancelled",
       "a job report found by the code index (bkill by an administrator)"},
      {"TERM_OWNER: job killed by owner.", "cancelled", "IBM Spectrum LSF job reports"},
      {"TERM_PREEMPT: job killed after preemption", "interrupted",
       "IBM Spectrum LSF docs, termination reasons"},
  });
}

TEST(BaseVocabulary, FluxJobExceptions) {
  expect_all({
      {"1.029s: job.exception type=timeout severity=0 resource allocation expired", "timeout",
       "flux-framework/flux-sched#1084"},
      {"^C646.329s: job.exception type=cancel severity=0 interrupted by ctrl-C", "cancelled",
       "flux-framework/flux-core#6314"},
      {"5.703s: job.exception fDW519iTCbZ type=exec severity=0 job shell exec error on broker "
       "fluke28 (rank 25): unit process could not be started (systemd error 255)",
       "launch_failed", "flux-framework/flux-core#7310"},
      {"0.038s: job.exception \xc6\x92"
       "8ezArJcP type=exec severity=0 foo.sh: task rank 1 on host "
       "system76-pc failed and exit-on-error is set",
       "failed", "flux-framework/flux-core#7328"},
      {"flux-job: task(s) exited with exit code 1", "failed", "flux-framework/flux-core#7328"},
      {"0.5s: job.exception f3 type=exec severity=0 node failure on n7 (rank 3)", "node_failure",
       "format of flux-core src/modules/job-exec/bulkexec.c (no public log found)"},
  });
}

TEST(BaseVocabulary, PbsAndSlurmLimits) {
  expect_all({
      {"=>> PBS: job killed: walltime 906 exceeded limit 900", "timeout", "NOAA-EMC/EVS#78"},
      {"=>> PBS: job killed: mem job total 115343360 kb exceeded limit 115343360 kb", "host_oom",
       "dask/dask-jobqueue#178"},
      {"=>> PBS: job killed: vmem 3372163072 exceeded limit 2147483648", "host_oom",
       "veg/hyphy#500 (TORQUE)"},
      {"=>> PBS: job killed: ncpus 17.4 exceeded limit 16 (burst)", "failed",
       "community.pbspro.org/t/cpu-bursting-in-a-job/866"},
      {"slurmstepd: error: Detected 1 oom_kill event in StepId=440575.0. Some of the step tasks "
       "have been OOM Killed.",
       "host_oom", "chrisknewman/tusas#149"},
      {"srun: error: nid001277: tasks 1-3: Out Of Memory", "host_oom", "chrisknewman/tusas#149"},
      {"srun: error: irene4016: tasks 1-3: Killed", "failed", "SWIFTSIM/SWIFT#74"},
      {"srun: error: irene4016: task 0: Exited with exit code 255", "failed", "SWIFTSIM/SWIFT#74"},
      {"srun: error: Node failure on hpcsmall-debug-ghpc-0", "node_failure",
       "GoogleCloudPlatform/cluster-toolkit#1600"},
  });
}

TEST(BaseVocabulary, MpiLaunchersAndRuntimes) {
  expect_all({
      {"Abort(1) on node 0 (rank 0 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 1) - "
       "process 0",
       "failed", "idaholab/moose#28399"},
      {"MPICH ERROR [Rank 519] [job id 947981.0] [Tue Jun 11 15:11:42 2024] [c1207] - "
       "Abort(539602063) (rank 519 in comm 0): Fatal error in PMPI_Iprobe: Other MPI error, error "
       "stack:",
       "failed", "ofiwg/libfabric#10072"},
      {"MPIDI_OFI_handle_cq_error(1075)......: OFI poll failed "
       "(ofi_events.c:1077:MPIDI_OFI_handle_cq_error:Input/output error - CANCELED)",
       "comm_error", "a Cray MPICH job of 2025 (sched_mpi research, Cray MPICH 5.3)"},
      {"YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)", "failed",
       "openai/jukebox#155"},
      {"=   KILLED BY SIGNAL: 9 (Killed)", "failed", "bsc-performance-tools/extrae#101"},
      {"mpirun noticed that process rank 0 with PID 21183 on node host01 exited on signal 9 "
       "(Killed).",
       "failed", "open-mpi/ompi#2661"},
      {"mpiexec noticed that process rank 0 with PID 10313 on node proton exited on signal 6 "
       "(Aborted).",
       "failed", "adda-team/adda#151"},
      {"Primary job  terminated normally, but 1 process returned", "failed",
       "Kay1794/Aware-of-the-history#2"},
      {"MPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD ", "failed", "UCL/hemelb#4"},
      {"x3006c0s1b0n0.hsn.cm.polaris.alcf.anl.gov: rank 0 exited with code 2", "failed",
       "a Polaris (HPE PALS) job log found by the code index"},
      {"application called MPI_Abort(MPI_COMM_WORLD, 0) - process 3[cli_3]: aborting", "failed",
       "pmodels/mpich#270"},
      {"PRTE has lost communication with a remote daemon.", "node_failure",
       "Open MPI 5 prterun (help-errmgr-base.txt [node-died])"},
  });
}

TEST(BaseVocabulary, CollectivesOfEveryVendor) {
  expect_all({
      {"  what():  [PG 1 Rank 6] Process group watchdog thread terminated with exception: [Rank 6] "
       "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=199, "
       "OpType=_REDUCE_SCATTER_BASE, NumelIn=7098994688, NumelOut=443687168, Timeout(ms)=600000) "
       "ran for 882722 milliseconds before timing out.",
       "comm_error", "NVIDIA/Megatron-LM#935"},
      {"ERROR NCCL communicator was aborted on rank 3. Original reason for failure was: [Rank 3] "
       "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=56693, OpType=BROADCAST, "
       "Timeout(ms)=1800000) ran",
       "comm_error", "aioz-ai/GCD#6"},
      {"RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by "
       "peer [18.25.6.30]:30872",
       "comm_error", "pytorch/pytorch#78514"},
      {"[rank2]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] "
       "Timed out waiting 1800000ms for recv operation to complete",
       "comm_error", "meta-pytorch/torchtune#2676"},
      {"[E521 15:43:02.707733876 socket.cpp:1023] [c10d] The client socket has timed out after "
       "600000ms while trying to connect to (172.18.21.4, 37907).",
       "comm_error", "lzhxmu/CPPO#6"},
      // oneCCL's worker reports the Level Zero allocation failure: the memory is the cause.
      {"2024:05:29-19:16:18:(202165) |CCL_ERROR| worker.cpp:338 ccl_worker_func: worker 0 caught "
       "internal exception: oneCCL: ze_call.cpp:28 do_call: EXCEPTION: ze error at "
       "zeCommandQueueExecuteCommandLists, code: ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY",
       "oom", "intel/intel-extension-for-pytorch#640"},
  });
}

TEST(BaseVocabulary, AcceleratorMemoryOfEveryVendor) {
  expect_all({
      {"RuntimeError: Native API failed. Native API returns: 39 "
       "(UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)",
       "oom", "intel/intel-extension-for-pytorch#854"},
      {"Baichuan2-13B get RuntimeError: Native API failed. Native API returns: -5 "
       "(PI_ERROR_OUT_OF_RESOURCES) -5 (PI_ERROR_OUT_OF_RESOURCES)",
       "oom", "intel/ipex-llm#9467"},
      {"jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
       "allocate 6291456 bytes.",
       "oom", "jax-ml/jax#13428"},
      {"jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. "
       "Ran out of memory in memory space hbm. Used 21.95G of 15.48G hbm.",
       "oom", "LargeWorldModel/LWM#60"},
      {"RuntimeError: [Rank:0] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for "
       "size::268435456 (256)MB",
       "oom", "mila-iqia/milabench#301"},
      {"E tensorflow/compiler/xla/stream_executor/rocm/rocm_driver.cc:606] failed to allocate "
       "127.99TiB (140729850295296 bytes) from device: HIP_ERROR_OutOfMemory",
       "oom", "keras-team/keras#13889"},
  });
}

// Lines of the corpus of trainers no preset covers (tests/fixtures/logs/generic/README.md).
TEST(BaseVocabulary, OtherFrameworksCrashesAndInterrupts) {
  expect_all({
      {"CUDA Error: out of memory", "oom", "pjreddie/darknet#491 (darknet's check_error)"},
      {"F0610 17:15:24.994758  3575 syncedmem.hpp:30] Check failed: error == cudaSuccess (11 vs. "
       "0)  invalid argument",
       "failed", "martinkersner/train-CRF-RNN#39 (Caffe, glog's CHECK)"},
      {"Exiting from training early", "cancelled",
       "a Transformer-XL run log (pytorch/examples' word_language_model loop, Ctrl-C)"},
      {"CUDA run out of memory. See the logged memory stats.", "oom",
       "facebookresearch/fairseq2#976 (fairseq2's recipe runner)"},
      {"KeyboardInterrupt", "interrupted", "Python's last traceback line for Ctrl-C"},
      {"TypeError: list indices must be integers or slices, not strProcess finished with exit "
       "code 1",
       "failed", "index id 45374835467 (a PyCharm run console, the code's line glued to it)"},
      {"terminate called after throwing an instance of 'std::bad_alloc'", "host_oom",
       "index id 35385132367 (a C++ graph engine's README, then 'what():  std::bad_alloc')"},
      {"/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1515: indexSelectSmallIndex: block: "
       "[0,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.",
       "failed", "tests/fixtures/logs/device/logs/lightning-device-assert.log line 21"},
      {"ZeroDivisionError: float division by zero", "failed",
       "index id 19480405772 (a traceback's last line)"},
      {"THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1525796793591/work/torch/lib/THC/"
       "generic/THCStorage.cu line=58 error=2 : out of memory",
       "oom", "microsoft/singleshotpose#40 (PyTorch 0.4's THC)"},
      {"FatalError: `Termination signal` is detected by the operating system.", "cancelled",
       "simuler/ESPNet log/workerlog.0 (PaddleSeg, tests/fixtures/logs/generic/paddleseg)"},
  });
}

TEST(BaseVocabulary, NumericalDivergence) {
  expect_all({
      {"2023-03-22 09:32:52 iter 3010: loss nan, time 1019.95ms, mfu 14.12%", "diverged",
       "karpathy/nanoGPT#215"},
      {"{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 9.990133642141359e-05, 'epoch': 0.0}",
       "diverged", "hiyouga/LlamaFactory#5660"},

      {"Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.",
       "diverged", "deepspeed/runtime/fp16/loss_scaler.py (DynamicLossScaler.update_scale)"},
      {"FloatingPointError: Minimum loss scale reached (0.0001). Your loss is probably exploding. "
       "Try lowering the learning rate, using gradient clipping or increasing the batch size.",
       "diverged", "fairseq/optim/dynamic_loss_scaler.py"},
      // Not divergence: a loss that is a number, a loss scale, a z-score of llm.c, Megatron's grad
      // norm alone (seed 002's STRONGHOLD runs print it and go on).
      {" iteration       40/      50 | elapsed time per iteration (ms): 2661.4 | learning rate: "
       "1.875E-06 | global batch size:     4 | loss scale: 1.0 | grad norm: nan | ",
       "", "seed 002 (tests/fixtures/stronghold)"},
      {"2023-03-22 09:31:52 iter 3000: loss 2.8061, time 1019.95ms, mfu 14.12%", "",
       "karpathy/nanoGPT#215"},
      {"step    1/74 | loss 7.577 (+nanz)| norm 6.0 (+nanz)| lr 6.00e-06 | 44.24 ms | 31.6% bf16 "
       "MFU | 11856 tok/s",
       "", "karpathy/llm.c README"},
      {"[2023-06-07 22:16:00,018] [INFO] [loss_scaler.py:181:update_scale] [deepspeed] OVERFLOW! "
       "Rank 0 Skipping step. Attempted loss scale: 64, reducing to 32",
       "", "ymcui/Chinese-LLaMA-Alpaca#534"},
  });
}

// The block path matches a status pattern that starts with its literal at each occurrence the
// literal pass reports (extractor.cpp, matched_at_occurrence), where a line read on its own is
// searched occurrence after occurrence: both must find the same status on the same line, whichever
// "loss" of a line is the one followed by NaN. Random lines of the tokens that decide it (a
// property of the two paths, not a log format).
TEST(BaseVocabulary, EveryOccurrenceOfALiteralIsTriedInBlocksAsLineByLine) {
  aerun::CaseSpec spec;
  spec.name = "t";
  aerun::apply_presets(spec, {});
  const char* tokens[] = {
      "lm loss:", " loss", "loss scale:", "loss=", "Loss:", "{'loss': ", " nan", " NaN",
      "'nan'",    " 1.5",  " inf",        "-nan",  " |",    ",",         " ",    "x"};
  std::mt19937 rng(3);
  int diverged = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::string log;
    for (int line = 0; line < 20; ++line) {
      const int n = 2 + static_cast<int>(rng() % 7);
      for (int t = 0; t < n; ++t) log += tokens[rng() % std::size(tokens)];
      log += "\n";
    }
    aerun::Extractor whole(spec);
    whole.feed(log);
    whole.finish();
    aerun::Extractor bytes(spec);
    for (const char c : log) bytes.feed(std::string_view(&c, 1));
    bytes.finish();
    ASSERT_EQ(whole.status().has_value(), bytes.status().has_value()) << log;
    if (!whole.status()) continue;
    EXPECT_EQ(whole.status()->status, bytes.status()->status) << log;
    EXPECT_EQ(whole.status()->line_no, bytes.status()->line_no) << log;
    diverged += whole.status()->status == "diverged";
  }
  EXPECT_GT(diverged, 100);  // the lines do reach the patterns
}

TEST(BaseVocabulary, FullFileSystems) {
  expect_all({
      {"OSError: [Errno 28] No space left on device", "disk_full", "databrickslabs/dolly#139"},
      {"OSError: [Errno 122] Disk quota exceeded: 'out/intermediate.ntw'", "disk_full",
       "KennthShang/HostG#7"},
      {"RuntimeError: [enforce fail at inline_container.cc:778] . PytorchStreamWriter failed "
       "writing file data.pkl: file write failed",
       "disk_full", "SWivid/F5-TTS#458"},
  });
}

TEST(BaseVocabulary, SignalsInTheirLowerCaseNames) {
  expect_all({
      {"./launcher.sh: line 14: 191644 Aborted                 (core dumped) $@", "failed",
       "a Sirius (HPE PALS) job log found by the code index"},
      {"  traceback : Signal 6 (SIGABRT) received by PID 56213", "failed",
       "torch.distributed.elastic ProcessFailure, a torchrun log found by the code index"},
      {"W0616 00:37:22.830000 4015698 torch/distributed/elastic/agent/server/api.py:719] Received "
       "Signals.SIGTERM death signal, shutting down workers",
       "cancelled", "a torchrun log found by the code index"},
      {"Terminated", "cancelled", "cBio/cbio-cluster#403 (bash >= 5.0, a batch script's SIGTERM)"},
  });
}

}  // namespace
