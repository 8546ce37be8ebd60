// The generic reader on whole real logs of the corpus (tests/fixtures/logs/generic/README.md):
// which lines are progress, which numbers are metrics, when training ended, and its bounds.
#include "aerun/logread/generic_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "../line_values.hpp"
#include "logread/closing_report.hpp"

namespace aerun {
namespace {

std::vector<std::string> corpus_lines(const std::string& file) {
  return testing::lines_of(std::string(AERUN_FIXTURES) + "/logs/generic/" + file);
}

// The corpus log `file` read whole, or only its first `first` lines (a log cut there).
GenericReader read_log(const std::string& file, size_t first = SIZE_MAX) {
  GenericReader r;
  const auto lines = corpus_lines(file);
  for (size_t i = 0; i < lines.size() && i < first; ++i)
    r.line(lines[i], static_cast<long long>(i + 1));
  return r;
}

// The log read in two parts cut before line cut + 1, the second appended to the first.
GenericFindings read_in_two_parts(const std::string& file, size_t cut) {
  const auto lines = corpus_lines(file);
  GenericReader a, b;
  for (size_t i = 0; i < cut; ++i) a.line(lines[i], static_cast<long long>(i + 1));
  for (size_t i = cut; i < lines.size(); ++i) b.line(lines[i], static_cast<long long>(i - cut + 1));
  a.append(std::move(b), static_cast<long long>(cut));
  return a.findings();
}

const MetricValue* metric(const GenericFindings& f, const std::string& name) {
  const auto it = std::find_if(f.metrics.begin(), f.metrics.end(),
                               [&](const MetricValue& m) { return m.name == name; });
  return it == f.metrics.end() ? nullptr : &*it;
}

TEST(GenericReader, ARepeatedLineWhoseCounterGrowsIsProgressAndItsKeyedNumbersMetrics) {
  const GenericFindings f = read_log("detectron2/d2-balloon-maskrcnn-ok.log").findings();
  EXPECT_EQ(f.progress_lines, 15);
  EXPECT_EQ(f.last_progress_line, 38);
  const MetricValue* step = metric(f, "step");
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->value, 299);
  EXPECT_EQ(step->source_line, 38);
  const MetricValue* loss = metric(f, "loss");  // printed as total_loss
  ASSERT_NE(loss, nullptr);
  EXPECT_DOUBLE_EQ(loss->value, 0.3553);
  EXPECT_NE(metric(f, "loss_cls"), nullptr);        // a key the vocabulary does not know: kept
  const MetricValue* mem = metric(f, "memory_gb");  // max_mem: 2940M
  ASSERT_NE(mem, nullptr);
  EXPECT_EQ(mem->unit, "GB");
  EXPECT_EQ(f.end_line, 40);  // detectron2's "Total training time: ..."
}

TEST(GenericReader, ANumberPrintedOnceBeforeTrainingIsNotAMetric) {
  // Its configuration lines ("Removed 0 images ...", the augmentations' max_size=1333) come first.
  const GenericFindings f = read_log("detectron2/d2-balloon-maskrcnn-ok.log").findings();
  EXPECT_EQ(metric(f, "max_size"), nullptr);
  EXPECT_EQ(metric(f, "removed"), nullptr);
}

TEST(GenericReader, EvaluationLinesGiveEvalMetricsBesideTheTrainingOnes) {
  // "train Loss: ... Top-1 Acc: ..." and "test Loss: ... Top-1 Acc: ..." every epoch.
  const GenericFindings f = read_log("pytorch-tutorial-script/resnet18-epoch100-ok.log").findings();
  ASSERT_NE(metric(f, "loss"), nullptr);
  ASSERT_NE(metric(f, "eval_loss"), nullptr);
  ASSERT_NE(metric(f, "accuracy"), nullptr);
  ASSERT_NE(metric(f, "eval_accuracy"), nullptr);
  EXPECT_DOUBLE_EQ(metric(f, "accuracy")->value, 91.8459);
  EXPECT_DOUBLE_EQ(metric(f, "eval_accuracy")->value, 89.8614);
  EXPECT_NE(f.end_line, 0);  // "Training resnet-18 complete in 7m 4s"
}

TEST(GenericReader, ACounterAtItsPrintedTotalEndsTraining) {
  const GenericFindings f = read_log("diffusers/diffusers-t2i-pokemon-8gpu.log").findings();
  ASSERT_TRUE(f.counter_planned.has_value());
  EXPECT_EQ(*f.counter_done, *f.counter_planned);
}

TEST(GenericReader, ARecordOfKeyedValuesWithATrainingCounterIsProgress) {
  // RLlib's result, printed as YAML once per training iteration.
  const GenericFindings f = read_log("rllib/ray-pr3498-ddpg-pendulum.log").findings();
  EXPECT_GT(f.progress_lines, 0);
  const MetricValue* reward = metric(f, "episode_reward_mean");
  ASSERT_NE(reward, nullptr);
  EXPECT_DOUBLE_EQ(reward->value, -955.6174202410659);
  EXPECT_EQ(reward->source_line, 20);
}

TEST(GenericReader, ALossThatBecomesNanAndStaysSoIsADivergence) {
  const GenericFindings f = read_log("caffe/caffe-issue399-imagenet-nan.log").findings();
  EXPECT_EQ(f.diverged_line, 12);
  // A validation loss that is nan while the training loss is not is the evaluation's.
  EXPECT_EQ(read_log("keras/keras2-cifar100-gumbel-transient-nan-ok.log").findings().diverged_line,
            0);
}

TEST(GenericReader, ATestPrintedOnceAfterTrainingIsTheTestNotAnEvaluation) {
  // Transformer-XL: "| end of epoch ... | valid loss 3.56 |" during training, then
  // "| End of training | test loss  3.62 |".
  const GenericFindings f = read_log("transformer-xl/txl-wt103-ctrl-c.log").findings();
  ASSERT_NE(metric(f, "eval_loss"), nullptr);
  EXPECT_DOUBLE_EQ(metric(f, "eval_loss")->value, 3.56);
  ASSERT_NE(metric(f, "test_loss"), nullptr);
  EXPECT_EQ(metric(f, "test_loss")->source_line, 54);
}

TEST(GenericReader, ATimeThatOnlyGrowsIsTheTimeElapsedNotAStepsTime) {
  // flair: "time (sec): 1.10" ... "time (sec): 3.95", counted from the epoch's start.
  const GenericFindings f = read_log("flair/upos-docs.log").findings();
  ASSERT_NE(metric(f, "time_s"), nullptr);
  EXPECT_DOUBLE_EQ(metric(f, "time_s")->value, 3.95);
  EXPECT_EQ(metric(f, "iter_ms"), nullptr);
}

TEST(GenericReader, ABareMemoryOfAThousandOrMoreIsMegabytes) {
  // xtuner (mmengine): "memory: 9793", torch.cuda.max_memory_allocated() in MiB.
  const GenericFindings f =
      read_log("xtuner/xtuner-llama3-8b-qlora-assistant-start.log").findings();
  ASSERT_NE(metric(f, "memory_gb"), nullptr);
  EXPECT_EQ(metric(f, "memory_gb")->unit, "GB");
  EXPECT_LT(metric(f, "memory_gb")->value, 100);
}

TEST(GenericReader, ATotalPrintedOnTheCommandLineEndsTheEpochCounter) {
  // horovod's pytorch_mnist.py --epochs 4: every epoch's batches end at 20000 of 30000 (printed
  // every 10000), then "Test set: ..."; the last epoch, 4, got as far as the others did.
  const GenericFindings f = read_log("horovod/horovod-pytorch-mnist-2node-ok.log").findings();
  ASSERT_TRUE(f.counter_planned.has_value());
  EXPECT_EQ(*f.counter_planned, 4);
  EXPECT_EQ(*f.counter_done, 4);
  ASSERT_NE(metric(f, "total_epochs"), nullptr);
  EXPECT_EQ(metric(f, "total_epochs")->source_line, 1);
}

TEST(GenericReader, ACountersHeadingStartsARecordOfItsKeyedLines) {
  // OLMo: "... olmo.train:908  INFO    [step=3/739328,epoch=0]" and under it one `key=value` a line
  // (train/CrossEntropyLoss, throughput/total_tokens, ...): every line of the record is read.
  const GenericFindings f = read_log("olmo/olmo-issue692-loss-zero.log").findings();
  ASSERT_NE(metric(f, "total_tokens"), nullptr);
  EXPECT_EQ(metric(f, "total_tokens")->value, 3145728);
  EXPECT_EQ(metric(f, "total_tokens")->source_line, 24);
}

TEST(GenericReader, ALastEpochCutBeforeItsUsualLastBatchHasNotEnded) {
  // The same log cut after "Train Epoch: 4 [10000/30000 (33%)]": epoch 4 of 4 did not run through.
  const GenericFindings f = read_log("horovod/horovod-pytorch-mnist-2node-ok.log", 44).findings();
  ASSERT_TRUE(f.counter_planned.has_value());
  EXPECT_LT(*f.counter_done, *f.counter_planned);
}

TEST(GenericReader, APhraseBeforeTrainingGivesTheTotal) {
  // verl's SFT trainer: "Number of steps/epoch 62, number of epochs 6, total number of steps 372".
  const GenericFindings f = read_log("verl/verl-fsdp-sft-qwen0.5b-retool.log").findings();
  ASSERT_NE(metric(f, "total_steps"), nullptr);
  EXPECT_EQ(metric(f, "total_steps")->value, 372);
  EXPECT_EQ(metric(f, "total_steps")->source_line, 24);
}

TEST(GenericReader, TheCountersOwnNameInAConfigurationIsATotalOnlyWhereTheCounterEndsThere) {
  // chainer's train_mnist.py prints "# epoch: 20" before its table; the table ends at epoch 20.
  const GenericFindings f = read_log("chainer/chainer-mnist-blog.log").findings();
  ASSERT_NE(metric(f, "total_epochs"), nullptr);
  EXPECT_EQ(metric(f, "total_epochs")->value, 20);
  ASSERT_TRUE(f.counter_planned.has_value());
  EXPECT_EQ(*f.counter_done, 20);
  // Cut at epoch 12, the same line is no total: nothing says training was to stop there.
  const GenericFindings cut = read_log("chainer/chainer-mnist-blog.log", 19).findings();
  EXPECT_EQ(metric(cut, "total_epochs"), nullptr);
  EXPECT_FALSE(cut.counter_planned.has_value());
}

TEST(GenericReader, OneLineThatCountsAndTrainsIsProgressInAShortLog) {
  // Orbit's README excerpt: "train | step:  22785 | steps/sec:    0.4 | output:" and the result
  // dict under it, printed once.
  const GenericFindings f = read_log("orbit/orbit-yt8m-readme.log").findings();
  EXPECT_GT(f.progress_lines, 0);
  ASSERT_NE(metric(f, "lr"), nullptr);
  EXPECT_DOUBLE_EQ(metric(f, "lr")->value, 0.0049961056);
  ASSERT_NE(metric(f, "steps_per_s"), nullptr);
}

TEST(GenericReader, ACountThenItsPercentageIsThePercentage) {
  // pytorch/examples' MNIST test line, "Test set: Average loss: 0.0001, Accuracy: 9741/10000
  // (97%)": the accuracy is 97 (%), not the 9741 right answers.
  const GenericFindings f = read_log("pytorch-examples/mnist-custom-net-3ep.log").findings();
  const MetricValue* acc = metric(f, "eval_accuracy");
  ASSERT_NE(acc, nullptr);
  EXPECT_EQ(acc->value, 97);
  EXPECT_EQ(acc->source_line, 38);
  EXPECT_EQ(metric(f, "total_eval_accuracy"), nullptr);
}

TEST(GenericReader, AReductionBeforeALossNameIsTheLoss) {
  // kohya sd-scripts' bar: "steps: 100%|...| 2000/2000 [19:04<00:00,  1.75it/s, avr_loss=0.0702]".
  const GenericFindings f = read_log("kohya-sd-scripts/kohya-lora-sd15-kaggle.log").findings();
  ASSERT_NE(metric(f, "loss"), nullptr);
  EXPECT_DOUBLE_EQ(metric(f, "loss")->value, 0.0702);
}

TEST(GenericReader, ATableWithABarAfterItsHeaderAndALabelBeforeItsRow) {
  // YOLOv5's validation: "Class  Images  Labels  P  R  mAP@.5 mAP@.5:.95: 100%|███| 4/4 [...]"
  // (its last two names apart by one blank) and under it "all  677  2449  0.87  0.535 ...".
  const GenericFindings f = read_log("yolov5/yolov5-cots-earlystop-ok.log").findings();
  for (const auto& [name, value] : std::vector<std::pair<std::string, double>>{
           {"p", 0.87}, {"r", 0.535}, {"map_5", 0.658}, {"map_5_95", 0.339}}) {
    const MetricValue* m = metric(f, name);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_DOUBLE_EQ(m->value, value) << name;
    EXPECT_EQ(m->source_line, 51) << name;
  }
  EXPECT_EQ(metric(f, "all"), nullptr);  // the row's label is no key
}

// A metric's value and line, or fails.
void expect_metric(const GenericFindings& f, const std::string& name, double value,
                   long long line) {
  const MetricValue* m = metric(f, name);
  ASSERT_NE(m, nullptr) << name;
  EXPECT_DOUBLE_EQ(m->value, value) << name;
  EXPECT_EQ(m->source_line, line) << name;
}

TEST(GenericReader, ATestBeforeTrainingEndedIsAnEvaluation) {
  // torchvision: the last epoch's "Test:  Acc@1 70.300 Acc@5 89.820", then "Training time";
  // Caffe: "Test net output #0: accuracy = 0.9909" at iteration 10000, then "Optimization Done."
  const GenericFindings tv =
      read_log("torchvision/classification-resnet-imagenet100-epoch89-end.log").findings();
  expect_metric(tv, "eval_acc_5", 89.82, 5);
  EXPECT_EQ(metric(tv, "test_acc_5"), nullptr);
  const GenericFindings caffe = read_log("caffe/caffe-lenet-mnist-blog.log").findings();
  expect_metric(caffe, "eval_accuracy", 0.9909, 11);
  expect_metric(caffe, "eval_loss", 0.0281938, 12);
}

TEST(GenericReader, AProgressLineWithMoreWordsAmongOrAfterItsOwnIsStillProgress) {
  // llama2-accessory: "grad_norm: 5.2397 (5.2397)" printed from step 40 on, among the keys of the
  // steps before; a tqdm frame with Slurm's "slurmstepd: error: *** JOB 42221 ON clr1247
  // CANCELLED ..." glued after it.
  const GenericFindings a =
      read_log("llama2-accessory/accessory-issue48-llava-finetune.log").findings();
  expect_metric(a, "step", 40, 14);
  EXPECT_EQ(a.last_progress_line, 14);
  const GenericFindings t = read_log("tqdm-script/polymergnn-soap42-slurm-timeout.log").findings();
  expect_metric(t, "step", 11, 36);
  EXPECT_EQ(t.last_progress_line, 36);
}

TEST(GenericReader, LinesWhoseTrainingValuesChangeUpToTheFirstProgressLineAreNoConfiguration) {
  // darknet: "Region 106 Avg IOU: 0.854799, Class: 0.999842, ..." printed before each iteration's
  // "10090: 1.262299, 1.207728 avg loss, ..." (the excerpt starts with them).
  const GenericFindings f = read_log("darknet/darknet-yolov3-resize-oom-issue491.log").findings();
  expect_metric(f, "avg_iou", 0.854799, 4);
  expect_metric(f, "no_obj", 0.000877, 4);
}

TEST(GenericReader, TheLinesUnderAnEvaluationsHeadingAreAnEvaluations) {
  // DL4J: "=====Evaluation Metrics=====" then " Accuracy:        0.9856"; dlrm's "Defined test
  // indices..." before training is no heading (its progress lines stay progress).
  const GenericFindings f = read_log("dl4j/lenet-mnist-cpu-example-finished.log").findings();
  expect_metric(f, "eval_accuracy", 0.9856, 119);
  expect_metric(f, "eval_f1_score", 0.9855, 122);
  EXPECT_EQ(metric(f, "accuracy"), nullptr);
  const GenericFindings d = read_log("dlrm/dlrm-jax-kaggle-gpu.log").findings();
  expect_metric(d, "step", 10240, 21);
  // Knover: "Evaluation:" then `step 100:lm_loss: 4.1322, ppl: 62.3161, ...` per batch: the
  // evaluation's, not training's (whose last ppl is 72.3931 at line 33).
  const GenericFindings k =
      read_log("knover/plato-12l-luge-dialogue-keyboardinterrupt-in-eval.log").findings();
  expect_metric(k, "eval_ppl", 66.8995, 61);
  expect_metric(k, "ppl", 72.3931, 33);
}

TEST(GenericReader, OneFrameOfATrainingBarIsProgress) {
  // 3D Gaussian Splatting: "Training progress:   0%|   | 0/30000 [00:00<?, ?it/s]", then the
  // CUDA out-of-memory traceback of its first step.
  const GenericFindings f =
      read_log("gaussian-splatting/truck-densification-stats-oom-at-start.log").findings();
  EXPECT_EQ(f.progress_lines, 1);
  expect_metric(f, "step", 0, 8);
  expect_metric(f, "total_steps", 30000, 8);
}

TEST(GenericReader, ANumberInTheReprOfItsTypeIsThatNumber) {
  // nnU-Net under NumPy 2: "Pseudo dice [np.float32(0.4852)]".
  expect_metric(read_log("nnunet/nnunetv2-2d-wsl-rtx2060-epoch1.log").findings(), "pseudo_dice",
                0.4852, 44);
}

TEST(GenericReader, AnUnnamedCountFirstOnTheLineIsTheStep) {
  // CatBoost's "999:\tlearn: 0.9942610\ttest: ..." and a notebook's "10000 train loss: ...".
  expect_metric(read_log("catboost/gpu-5fold-cv-1000-iters-kaggle.log").findings(), "step", 999,
                48);
  expect_metric(read_log("sonnet/vqvae-cifar10-notebook-10k-updates.log").findings(), "step", 10000,
                100);
}

TEST(GenericReader, LinesOfOneTemplateInOtherUnitsAreOneTemplate) {
  // CatBoost's "total: 182ms" on one line of a fold, "total: 48s" and "remaining: 3m 1s" on others:
  // one template, whose counter grows and whose values change, so progress.
  EXPECT_EQ(read_log("catboost/gpu-5fold-cv-1000-iters-kaggle.log").findings().progress_lines, 25);
}

TEST(GenericReader, EarlyStoppingEndsTraining) {
  // scikit-learn's "... for two consecutive epochs. Stopping.", XGBoost's "Stopping. Best
  // iteration:".
  EXPECT_EQ(read_log("sklearn/mlpclassifier-verbose-early-stop.log").findings().end_line, 40);
  EXPECT_EQ(read_log("xgboost/auc-early-stopping-round5.log").findings().end_line, 8);
}

TEST(GenericReader, WhatThePlatformWritesAtTheEndIsAnEnd) {
  // An IDE's "Process finished with exit code 0" (a DL4J example run in IntelliJ), DLLogger's run
  // summary with its empty step "DLL ... - () run_time : 442.85" (NVIDIA DeepLearningExamples).
  EXPECT_EQ(read_log("dl4j/lenet-mnist-cpu-example-finished.log").findings().end_line, 145);
  EXPECT_EQ(read_log("nvidia-dle/dle-tacotron2-finetune-last-epoch.log").findings().end_line, 14);
}

TEST(GenericReader, ALossLastPrintedNanIsADivergenceThoughTheNextEpochBegan) {
  // U-Mamba (nnU-Net): "train_loss nan" at epoch 631, its validation and time, "Epoch 632".
  const GenericFindings f = read_log("mamba/umamba-nnunet-train-loss-nan-epoch631.log").findings();
  EXPECT_EQ(f.diverged_line, 15);
}

TEST(GenericReader, ACountGluedToItsNameCountsAndALoggersSourceLineIsNoValue) {
  // ESPnet: "(trainer:636) INFO: 2epoch:train:12009-12640batch: ... loss=65.129"; YOLOX's loguru
  // "yolox.core.trainer:after_iter:246 - epoch: 10/300".
  const GenericFindings f = read_log("espnet/asr-conformer-grad-norm-nan-warnings.log").findings();
  expect_metric(f, "epoch", 2, 8);
  expect_metric(f, "step", 12640, 8);
  expect_metric(f, "loss", 65.129, 8);
  EXPECT_EQ(metric(f, "trainer"), nullptr);
  EXPECT_EQ(
      metric(read_log("yolox/yolox-voc-s-indexerror-at-epoch10-eval.log").findings(), "after_iter"),
      nullptr);
}

TEST(GenericReader, ThePhaseThenACounterOfBatchesCountsEpochs) {
  // timm's "Train: 2 [ 150/5004 (  3%)]", Swin's "Train: [0/300][170/195]"; timm's "Test: [
  // 195/195]" is the evaluation's own count, no metric.
  const GenericFindings timm =
      read_log("timm/tf-efficientnet-b1-epoch1-eval-then-epoch2.log").findings();
  expect_metric(timm, "epoch", 2, 20);
  expect_metric(timm, "step", 150, 20);
  EXPECT_EQ(metric(timm, "test"), nullptr);
  const GenericFindings swin =
      read_log("swin-transformer/swin-tiny-epoch0-cut-while-running.log").findings();
  expect_metric(swin, "epoch", 0, 22);
  expect_metric(swin, "total_epochs", 300, 22);
}

TEST(GenericReader, ACostInATimeUnitIsATime) {
  // PaddleOCR: "reader_cost: 4.05514 s, batch_cost: 4.17194 s".
  const GenericFindings f =
      read_log("paddleocr/ppocr-v2-rec-carplate-epoch42-of-500.log").findings();
  ASSERT_NE(metric(f, "iter_ms"), nullptr);
  ASSERT_NE(metric(f, "data_ms"), nullptr);
  EXPECT_EQ(metric(f, "iter_ms")->unit, "ms");
  expect_metric(f, "loss", 0.258727, 97);
}

TEST(GenericReader, ABatchsOrAReadersCostPrintedBareIsATimeInSeconds) {
  // PaddleSeg: "batch_cost: 1.1262, reader_cost: 0.00013" (seconds, as its train.py prints them).
  const GenericFindings f =
      read_log("paddleseg/encnet-cityscapes-80k-iters-finished.log").findings();
  ASSERT_NE(metric(f, "iter_ms"), nullptr);
  EXPECT_EQ(metric(f, "iter_ms")->unit, "ms");
  EXPECT_EQ(metric(f, "iter_ms")->source_line, 188);
  ASSERT_NE(metric(f, "data_ms"), nullptr);
  EXPECT_EQ(metric(f, "batch_cost"), nullptr);
}

TEST(GenericReader, PythonsTimedeltaOfDaysIsADuration) {
  // PaddleDetection: "eta: 2 days, 17:44:45" (str(datetime.timedelta)).
  expect_metric(read_log("paddledetection/blazeface-widerface-ctrl-c-at-first-iter.log").findings(),
                "eta_s", 2 * 86400 + 17 * 3600 + 44 * 60 + 45, 6);
}

TEST(GenericReader, AKeyOfAListIsThePhraseBackToItsComma) {
  // hsd3: "Sample 100000, up 4550, avg cur reward -0.021, pi loss -3.413, q loss +0.286"; and
  // guided-diffusion's sentence "Found NaN, decreased lg_loss_scale to -16203.354" is no key.
  const GenericFindings f = read_log("hsd3/pretrain-sacmt-bmm-runtimeerror.log").findings();
  expect_metric(f, "avg_cur_reward", -0.021, 107);
  expect_metric(f, "pi_loss", -3.413, 107);
  expect_metric(f, "q_loss", 0.286, 107);
  expect_metric(f, "r_loss", 0.006, 107);
  const GenericFindings g =
      read_log("guided-diffusion/guided-diffusion-imagenet128-fp16-nan.log").findings();
  EXPECT_EQ(metric(g, "decreased_lg_loss_scale_to"), nullptr);
}

TEST(GenericReader, ACountNamedByItsWordsThatGrowsWithValuesBesideItIsProgress) {
  // Sample Factory: "Fps is (...). Total num frames: 438272. Throughput: ... Samples: 113450."
  const GenericFindings f = read_log("sample-factory/appo-doom-basic-fps-lines.log").findings();
  EXPECT_EQ(f.progress_lines, 3);
  expect_metric(f, "samples", 113450, 5);
  expect_metric(f, "total_num_frames", 438272, 5);
}

TEST(GenericReader, ABareFractionalMemoryBelow1024IsGigabytes) {
  // StyleGAN3: "gpumem 14.76" (max_memory_allocated / 2**30).
  const GenericFindings f = read_log("stylegan/stylegan3-tick4-traceback.log").findings();
  ASSERT_NE(metric(f, "memory_gb"), nullptr);
  EXPECT_EQ(metric(f, "memory_gb")->unit, "GB");
  EXPECT_DOUBLE_EQ(metric(f, "memory_gb")->value, 14.76);
}

TEST(GenericReader, IPythonsWallTimeAfterACellEndsIt) {
  // A notebook's %%time cell: "CPU times: ..." then "Wall time: 4min 29s" after the last update.
  EXPECT_EQ(read_log("sonnet/vqvae-cifar10-notebook-10k-updates.log").findings().end_line, 102);
}

// A trainer that says nothing like "training finished" still closes with a report of the whole
// run: how long it took, or its final result, printed once after the progress ended.
TEST(GenericReader, TheRunsClosingReportOnceAfterItsProgressIsWhereItEnded) {
  // ColossalAI's Gemini example: three steps, then "Time: 2.997 s" and the memory used.
  GenericFindings f = read_log("colossalai/gemini-gpt2-cpu-placement-3-steps.log").findings();
  EXPECT_EQ(f.end_line, 0);
  EXPECT_EQ(f.closing_line, 8);
  // tf-agents' DQN example: `run() total_time=1311.481` after its last checkpoint; the log cut
  // before it has no closing report.
  EXPECT_EQ(read_log("tf-agents/dqn-cartpole-10k-steps.log").findings().closing_line, 200);
  EXPECT_EQ(read_log("tf-agents/dqn-cartpole-10k-steps.log", 199).findings().closing_line, 0);
  // minGPT: the final score of the train set, then of the test set (one kind of line twice,
  // both after the progress): the last is the end, whether the log is read whole or in parts.
  EXPECT_EQ(read_log("mingpt/mingpt-sort-assignment.log").findings().closing_line, 52);
  EXPECT_EQ(read_in_two_parts("mingpt/mingpt-sort-assignment.log", 51).closing_line, 52);
  // CatBoost's cross-validation: "Time taken for Modeling: 0 hours 21 minutes and 57.79 seconds."
  // after the folds' scores; cut before its last fold's iterations, no report follows them.
  EXPECT_EQ(read_log("catboost/gpu-5fold-cv-1000-iters-kaggle.log").findings().closing_line, 58);
  EXPECT_EQ(read_log("catboost/gpu-5fold-cv-1000-iters-kaggle.log", 50).findings().closing_line, 0);
}

TEST(ClosingReport, TheWholeRunsTimeOrFinalResultNotAPeriodsNorAFailures) {
  using logread::reports_run_totals;
  // Lines of the corpus's logs (tests/fixtures/logs/generic/README.md).
  EXPECT_TRUE(reports_run_totals("Time: 2.997 s"));
  EXPECT_TRUE(reports_run_totals("2025-01-25 13:37:37,348 - INFO - run() total_time=1311.481"));
  EXPECT_TRUE(reports_run_totals("Time taken for Modeling: 0 hours 21 minutes and 57.79 seconds."));
  EXPECT_TRUE(
      reports_run_totals("10/21/2024 18:23:53 - INFO - src.trainer -   final score: "
                         "5000/5000 = 100.00% correct"));
  EXPECT_FALSE(reports_run_totals("Mem usage: 5592.227 MB"));
  EXPECT_FALSE(reports_run_totals(
      "2024-11-17 09:27:18,811 - INFO - train_step=9840 loss=10.475 time=9.744"));
  EXPECT_FALSE(reports_run_totals(
      "RuntimeError: CUDA out of memory. Tried to allocate 576.00 MiB (GPU 0; 22.17 GiB total "
      "capacity; 3.47 GiB already allocated; 153.81 MiB free; 4.20 GiB reserved in total by "
      "PyTorch)"));
  EXPECT_FALSE(
      reports_run_totals("2024-11-17 09:27:33,986 - INFO - train_step=10000 "
                         "avg_return=-10.400"));
}

TEST(GenericReader, AMeanIsOverTheProgressLinesThatPrintIt) {
  // LitGPT: "iter time: 603.03 ms" on ten progress lines ("val: n/a" names a value not there yet,
  // no evaluation), then "Training time: 11.20s" once: the end, not a step's time.
  const GenericFindings f = read_log("litgpt/finetune-lora-phi2-max-steps-5.log").findings();
  EXPECT_EQ(f.progress_lines, 10);
  ASSERT_NE(metric(f, "iter_ms"), nullptr);
  EXPECT_NEAR(metric(f, "iter_ms")->value, 514.58, 1e-9);
  EXPECT_EQ(f.end_line, 28);
}

TEST(GenericReader, ACounterWithBlanksAroundItsSlash) {
  // pix2pix: "End of epoch 200 / 200 	 Time Taken: 20 sec".
  const GenericFindings f = read_log("pix2pix/pix2pix-facades-unet256-200-epochs.log").findings();
  expect_metric(f, "total_epochs", 200, 196);
  ASSERT_TRUE(f.counter_done && f.counter_planned);
  EXPECT_EQ(*f.counter_done, *f.counter_planned);
}

TEST(GenericReader, ABorderedTableWithAHeaderOfTwoLines) {
  // MATLAB trainNetwork: "|  Epoch  |  Iteration  | ... |  Mini-batch  |  Validation  |" over
  // "|         |             | ... |   Accuracy   |   Accuracy   |"; a row whose validation cells
  // are empty keeps the last validation.
  const GenericFindings m =
      read_log("matlab/trainnetwork-heart-sounds-bilstm-readme.log").findings();
  expect_metric(m, "epoch", 5, 26);
  expect_metric(m, "step", 1010, 26);
  expect_metric(m, "accuracy", 94.45, 26);
  expect_metric(m, "eval_accuracy", 93.79, 25);
  expect_metric(m, "loss", 0.1483, 26);
  expect_metric(m, "lr", 0.001, 26);
  // FluxTraining.jl's box tables: a "ValidationPhase" row is the evaluation's.
  const GenericFindings f = read_log("flux/fluxtraining-mnist-10-epochs-notebook.log").findings();
  expect_metric(f, "loss", 0.60669, 113);
  expect_metric(f, "eval_loss", 0.59359, 119);
}

TEST(GenericReader, AKeyValueTablesFirstCellIsTheKeyWhateverItHolds) {
  // OpenAI baselines' logger: "| % time spent exploring  | 2        |", "| mean 100 episode reward
  // | 198      |".
  const GenericFindings f = read_log("baselines/deepq-cartpole-100k-terminal.log").findings();
  expect_metric(f, "time_spent_exploring", 2, 194);
  expect_metric(f, "mean_100_episode_reward", 198, 196);
  EXPECT_EQ(metric(f, "mean"), nullptr);
}

TEST(GenericReader, APhaseThenOneWordEndingInAQuantitysName) {
  // Trax: "Step   2000: train WeightedCategoryCrossEntropy |  0.38129005", "eval
  // WeightedCategoryAccuracy |  0.85312500".
  const GenericFindings f = read_log("trax/trax-readme-imdb-2000steps.log").findings();
  expect_metric(f, "loss", 0.38129005, 22);
  expect_metric(f, "eval_loss", 0.33760912, 23);
  expect_metric(f, "eval_accuracy", 0.853125, 24);
}

TEST(GenericReader, AMetricColumnAfterTheValidationLossIsTheValidationSets) {
  // fastai: "epoch  train_loss  valid_loss  accuracy  time" (its metrics are computed on the
  // validation set); Chainer's "main/accuracy" between two validation columns stays training's.
  expect_metric(read_log("fastai/fastai-quickstart-rocm.log").findings(), "eval_accuracy", 0.9192,
                17);
  const GenericFindings chainer = read_log("chainer/chainer-mnist-blog.log").findings();
  ASSERT_NE(metric(chainer, "accuracy"), nullptr);
  ASSERT_NE(metric(chainer, "eval_accuracy"), nullptr);
}

TEST(GenericReader, AStepKeyThatNeverPrintedANumberLeavesTheStepToTheCounter) {
  // MotionSeg3D: "Update: nan mean,nan std | Epoch: [4][1040/1047]".
  const GenericFindings f = read_log("motionseg3d/epoch4-loss-nan-acc-iou-zero.log").findings();
  expect_metric(f, "step", 1040, 6);
  expect_metric(f, "total_steps", 1047, 6);
}

TEST(GenericReader, ADayBeforeAMonthsNameIsADateNotACount) {
  // RecBole: "08 Jun 17:18    INFO  epoch 0 training [time: 6.26s, train loss: 337.9507]".
  const GenericFindings f =
      read_log("recbole/recbole-gnn-srgnn-epoch0-traceback-in-eval.log").findings();
  expect_metric(f, "step", 48, 2);
  EXPECT_EQ(metric(f, "jun"), nullptr);
}

TEST(GenericReader, FlowersRunFinishedEndsTraining) {
  // Flower's server: "Run finished 151 round(s) in ...".
  EXPECT_NE(read_log("flower/cifar10-fl-151-rounds-finished.log").findings().end_line, 0);
}

TEST(GenericReader, ACounterThatNeverStartsAgainWhileEpochsGoOnCountsTheWholeRun) {
  // PaddleSeg: "[TRAIN] epoch: 216, iter: 80000/80000, loss: 0.1656": the iterations of the whole
  // run, not of an epoch's batches; at its total, training ended.
  const GenericFindings f =
      read_log("paddleseg/encnet-cityscapes-80k-iters-finished.log").findings();
  ASSERT_TRUE(f.counter_done && f.counter_planned);
  EXPECT_EQ(*f.counter_done, 80000);
  EXPECT_EQ(*f.counter_planned, 80000);
  // Horovod's MNIST example counts each epoch's samples beside the epoch: no end there.
  const GenericFindings h =
      read_log("horovod/horovod-pytorch-mnist-3proc-timestamped.log").findings();
  EXPECT_FALSE(h.counter_done && h.counter_planned && *h.counter_done == *h.counter_planned);
}

TEST(GenericReader, ALogReadInTwoPartsGivesWhatOneReadGives) {
  const std::string file = "keras3/keras3-lstm-stock-100ep-ok.log";
  const GenericFindings whole = read_log(file).findings();
  const GenericFindings parts = read_in_two_parts(file, corpus_lines(file).size() / 2);
  ASSERT_EQ(parts.metrics.size(), whole.metrics.size());
  for (size_t i = 0; i < whole.metrics.size(); ++i) {
    EXPECT_EQ(parts.metrics[i].name, whole.metrics[i].name);
    EXPECT_EQ(parts.metrics[i].source_line, whole.metrics[i].source_line) << whole.metrics[i].name;
  }
  EXPECT_EQ(parts.last_progress_line, whole.last_progress_line);
}

TEST(GenericReader, APartWhoseLossIsOnlyNanKeepsTheLastValueBeforeIt) {
  // caffe issue 399: "loss = 6.99261" at line 6, then nan to the end.
  const GenericFindings whole = read_log("caffe/caffe-issue399-imagenet-nan.log").findings();
  const GenericFindings parts = read_in_two_parts("caffe/caffe-issue399-imagenet-nan.log", 6);
  ASSERT_NE(metric(parts, "loss"), nullptr);
  EXPECT_EQ(metric(parts, "loss")->value, metric(whole, "loss")->value);
  EXPECT_EQ(parts.diverged_line, whole.diverged_line);
}

TEST(GenericReader, AProgressLineOfAPartTooShortToKnowItIsStillTheLast) {
  // The cut leaves few of the last epoch's lines to the second part.
  const std::string file = "pytorch-tutorial-script/resnet18-epoch100-ok.log";
  const GenericFindings whole = read_log(file).findings();
  const GenericFindings parts = read_in_two_parts(file, 49);
  EXPECT_EQ(parts.last_progress_line, whole.last_progress_line);
  EXPECT_EQ(parts.last_progress_text, whole.last_progress_text);
}

TEST(GenericReader, AMillionDistinctLinesKeepTheTemplateTableBounded) {
  GenericReader r;
  std::string line;
  for (long long i = 1; i <= 1000000; ++i) {
    line.clear();  // every line its own template: a word of its own, then a keyed number
    for (long long k = i; k > 0; k /= 26) line += static_cast<char>('a' + k % 26);
    line += " key: " + std::to_string(i) + " other: " + std::to_string(i % 7);
    r.line(line, i);
  }
  EXPECT_LE(r.explain(1000000).size(), GenericReader::kMaxTemplates);
  EXPECT_EQ(r.findings().progress_lines, 0);
}

}  // namespace
}  // namespace aerun
