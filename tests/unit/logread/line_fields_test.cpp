// The key/value grammars of the generic reader, class by class, each on a line copied from a real
// log of the corpus (tests/fixtures/logs/generic/README.md says where each log is from).
#include "logread/line_fields.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <memory>
#include <string>

#include "../line_values.hpp"
#include "logread/vocabulary.hpp"

namespace aerun::logread {
namespace {

// Line `no` of a corpus log (numbered as aerun numbers lines).
std::string corpus_line(const std::string& file, size_t no) {
  const auto lines =
      aerun::testing::lines_of(std::string(AERUN_FIXTURES) + "/logs/generic/" + file);
  return no <= lines.size() ? lines[no - 1] : std::string();
}

struct Read {
  std::string line;  // the fields' units may point into it
  LineFields lf;
  const Field* field(const std::string& key) const {
    for (const Field& f : lf.fields)
      if (f.key == key && !f.average) return &f;
    return nullptr;
  }
};

// (Returned through a pointer: a Read's fields point into its own line.)
std::unique_ptr<Read> read(const std::string& line, TableHeader header = {}) {
  auto r = std::make_unique<Read>();
  r->line = line;
  std::vector<Token> tokens;
  read_fields(r->line, tokens, r->lf, true, header);
  return r;
}

TEST(LineFields, KeyColonValueAndKeyValueWithTwoBlanksBetweenFields) {
  // detectron2: "eta: 0:05:22  iter: 19  total_loss: 1.986  ...  max_mem: 2940M"
  const auto r = read(corpus_line("detectron2/d2-balloon-maskrcnn-ok.log", 24));
  ASSERT_NE(r->field("iter"), nullptr);
  EXPECT_EQ(r->field("iter")->value, 19);
  ASSERT_NE(r->field("total_loss"), nullptr);
  EXPECT_DOUBLE_EQ(r->field("total_loss")->value, 1.986);
  ASSERT_NE(r->field("eta"), nullptr);
  EXPECT_EQ(r->field("eta")->value, 5 * 60 + 22);  // a duration, in seconds
  ASSERT_NE(r->field("max_mem"), nullptr);
  EXPECT_EQ(r->field("max_mem")->unit, "M");  // an SI suffix: the vocabulary reads it as MB
  // The timestamp "[09/02 02:37:24" is no counter.
  for (const Field& f : r->lf.fields) EXPECT_FALSE(f.counter) << f.key;
}

TEST(LineFields, KeyEqualsValueAndAPhraseKeyWithItsUnitInBrackets) {
  // InternEvo: "... tflops=126.55 step=4 loss=7.50 tgs (tokens/gpu/second)=1020.9 ..."
  const auto r = read(corpus_line("internevo/internevo-20b-demo-rst.log", 23));
  ASSERT_NE(r->field("step"), nullptr);
  EXPECT_EQ(r->field("step")->value, 4);
  ASSERT_NE(r->field("loss"), nullptr);
  EXPECT_DOUBLE_EQ(r->field("loss")->value, 7.509810924530029);
  ASSERT_NE(r->field("tgs (tokens/gpu/second)"), nullptr);
  EXPECT_DOUBLE_EQ(r->field("tgs (tokens/gpu/second)")->value, 1020.9);
}

TEST(LineFields, KerasBarCounterUnitNamedValuesAndDashSeparatedKeys) {
  // Keras 3: "469/469 ━━━━ 2s 5ms/step - accuracy: 0.98 - loss: 0.05 - val_accuracy: ..."
  const auto r = read(corpus_line("keras3/keras3-mnist-cnn-10ep-ok.log", 24));
  const Field* counter = nullptr;
  for (const Field& f : r->lf.fields)
    if (f.counter) counter = &f;
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->value, counter->total);
  ASSERT_NE(r->field("ms/step"), nullptr);  // named by its unit
  EXPECT_TRUE(r->field("ms/step")->from_unit);
  EXPECT_NE(r->field("val_accuracy"), nullptr);
  EXPECT_NE(r->field("loss"), nullptr);
}

TEST(LineFields, TqdmBarDescriptionNamesItsCounterAndTheRemainingTimeIsTheEta) {
  // diffusers: "Steps: 100%|██████████| 101/101 [...<00:00, ..., lr=1e-05, step_loss=0.0456]"
  const auto r = read(corpus_line("diffusers/diffusers-t2i-pokemon-8gpu.log", 60));
  ASSERT_NE(r->field("Steps"), nullptr);
  EXPECT_TRUE(r->field("Steps")->counter);
  EXPECT_EQ(r->field("Steps")->total, 101);
  ASSERT_NE(r->field("eta"), nullptr);
  ASSERT_NE(r->field("step_loss"), nullptr);
  EXPECT_DOUBLE_EQ(r->field("step_loss")->value, 0.0456);
}

TEST(LineFields, AValueThenItsRunningAverageInParentheses) {
  // the PyTorch ImageNet example: "Epoch: [0][ 30/296]\tTime  0.860 ( 1.617)\t..."
  const auto r = read(corpus_line("pytorch-examples/imagenet-resnet18-imagenette-grouped.log", 34));
  ASSERT_NE(r->field("Loss"), nullptr);
  bool average = false;
  for (const Field& f : r->lf.fields) average |= f.average && f.key == "Loss";
  EXPECT_TRUE(average);
}

TEST(LineFields, TableRowsTakeTheirKeysFromTheHeaderAbove) {
  // fastai: "epoch     train_loss  valid_loss  accuracy  time" then rows of values
  TableHeader h;
  Read header_line, row;
  header_line.line = corpus_line("fastai/fastai-quickstart-rocm.log", 15);
  row.line = corpus_line("fastai/fastai-quickstart-rocm.log", 17);
  std::vector<Token> tokens;
  read_fields(header_line.line, tokens, header_line.lf, false, h);
  ASSERT_EQ(h.cells.size(), 5u);
  read_fields(row.line, tokens, row.lf, false, h);
  ASSERT_NE(row.field("valid_loss"), nullptr);
  EXPECT_DOUBLE_EQ(row.field("valid_loss")->value, 0.203753);
  ASSERT_NE(row.field("time"), nullptr);
  EXPECT_EQ(row.field("time")->value, 2 * 60 + 50);
}

TEST(LineFields, TemplatesMaskNumbersAndBarsSoFramesOfOneBarShareOne) {
  const std::string a = corpus_line("diffusers/diffusers-t2i-pokemon-8gpu.log", 31);
  const std::string b = corpus_line("diffusers/diffusers-t2i-pokemon-8gpu.log", 60);
  EXPECT_EQ(read(a)->lf.shape, read(b)->lf.shape) << read(a)->lf.template_text << "\n"
                                                  << read(b)->lf.template_text;
}

TEST(LineFields, ANumberNoCounterCanHoldIsReadAsAValueNeverCastToOne) {
  // The CI's UBSan run (float-cast-overflow) found `1e999` (inf) cast to a long long by the "is
  // it a whole number" test of the unnamed leading counter; the same test guards five rules.
  EXPECT_TRUE(is_whole(19));
  EXPECT_TRUE(is_whole(-3));
  EXPECT_FALSE(is_whole(2.5));
  EXPECT_FALSE(is_whole(1e300));
  EXPECT_FALSE(is_whole(std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(is_whole(std::numeric_limits<double>::quiet_NaN()));
  // A number too big for a double is inf and too small is 0, as strtod reads them (from_chars
  // left both 0: a huge value was stored as nought).
  const auto huge = read("grad_norm 1e999 scale 1e-999");
  ASSERT_NE(huge->field("grad_norm"), nullptr);
  EXPECT_EQ(huge->field("grad_norm")->value, std::numeric_limits<double>::infinity());
  ASSERT_NE(huge->field("scale"), nullptr);
  EXPECT_EQ(huge->field("scale")->value, 0);
  for (const char* line : {"1e999: loss 0.5", "1e300 train loss: 0.5", "[1e999]\ttrain-auc:0.5",
                           "End of epoch 1e999 / 200", "train 1e999 loss 0.5"}) {
    const auto r = read(line);
    for (const Field& f : r->lf.fields) EXPECT_NE(f.key, "step") << line;
  }
}

TEST(Vocabulary, SpellingsUnitsAndQualifiersGiveTheCanonicalNames) {
  EXPECT_EQ(canonical("tgs (tokens/gpu/second)", "", false, false, 1).name, "tokens_per_gpu_s");
  EXPECT_EQ(canonical("Tokens per second", "", false, false, 1).name, "tokens_per_s");
  const Canonical t = canonical("elapsed time per iteration", "ms", false, false, 120);
  EXPECT_EQ(t.name, "iter_ms");
  EXPECT_EQ(t.scale, 1);
  const Canonical s = canonical("time", "", false, false, 1.2);  // bare: seconds
  EXPECT_EQ(s.name, "iter_ms");
  EXPECT_EQ(s.scale, 1000);
  EXPECT_EQ(canonical("val_loss", "", false, false, 1).name, "eval_loss");
  EXPECT_EQ(canonical("loss", "", true, false, 1).name, "eval_loss");  // on an eval line
  EXPECT_EQ(canonical("train/loss", "", false, false, 1).name, "loss");
  const Canonical m = canonical("MFU", "%", false, false, 39.31);
  EXPECT_EQ(m.name, "mfu");
  EXPECT_EQ(m.scale, 1);
  EXPECT_EQ(canonical("mfu", "", false, false, 0.39).scale, 100);  // a fraction, as %
  const Canonical mem = canonical("max_mem", "M", false, false, 2940);
  EXPECT_EQ(mem.name, "memory_gb");
  EXPECT_DOUBLE_EQ(mem.scale, 1.0 / 1024);
  EXPECT_EQ(canonical("entropy_loss", "", false, false, 1).name, "entropy_loss");  // not loss
  EXPECT_EQ(canonical("loss_cls", "", false, false, 1).name, "loss_cls");          // its own name
  EXPECT_EQ(canonical("rank", "", false, false, 1).role, Role::Ignored);
}

TEST(Vocabulary, ARateUnitNamesItsQuantityWhateverTheKey) {
  // GPT-NeoX: "approx flops per GPU: 193.1TFLOPS".
  const Canonical f = canonical("approx flops per GPU", "TFLOP/s", false, false, 193.1);
  EXPECT_EQ(f.name, "tflops_per_gpu");
  EXPECT_EQ(f.unit, "TFLOP/s");
  EXPECT_EQ(canonical("Speed", "samples/s", false, false, 363.2).name, "samples_per_s");
}

TEST(LineFields, AnEvaluationsHeadingIsARuleOrATitleWithAnEvaluationWord) {
  // DL4J's banner, its EvaluativeListener's title; mingpt's "Evaluating on test set..."; not
  // dlrm's "Defined test indices..." nor a rule with no evaluation word.
  EXPECT_TRUE(
      heads_evaluation("========================Evaluation Metrics========================"));
  EXPECT_TRUE(heads_evaluation("o.d.o.l.EvaluativeListener - Evaluation:"));
  EXPECT_TRUE(
      heads_evaluation("10/21/2024 18:23:52 - INFO - __main__ -   Evaluating on test set..."));
  EXPECT_FALSE(heads_evaluation("Defined test indices..."));
  EXPECT_FALSE(
      heads_evaluation("=========================Confusion Matrix========================="));
  EXPECT_FALSE(heads_evaluation("time/loss/accuracy (if enabled):"));
}

}  // namespace
}  // namespace aerun::logread
