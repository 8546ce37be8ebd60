#include "logread/vocabulary.hpp"

#include "logread/line_tokens.hpp"

#include <array>
#include <unordered_map>
#include <vector>

#include "aerun/util/secret_text.hpp"

namespace aerun::logread {

namespace {

// A quantity of the vocabulary and the unit family its values may be written in.
enum class Family : unsigned char { None, Time, Memory, Percent, Rate };

struct Entry {
  const char* name;
  Role role;
  Reduce reduce;
  Family family;
  const char* unit;  // canonical unit
};

// The spellings (normalised, qualifiers removed) of each canonical quantity.
struct Synonyms {
  Entry entry;
  std::vector<const char*> spellings;
};

const std::vector<Synonyms>& table() {
  static const std::vector<Synonyms> t = {
      {{"step", Role::Counter, Reduce::Last, Family::None, ""},
       {"step",        "steps",        "global_step", "globalstep",
        "gstep",       "iter",         "iters",       "iteration",
        "iterations",  "it",           "update",      "updates",
        "num_updates", "step_num",     "train_step",  "trainer_global_step",
        "batch",       "batches",      "batch_idx",   "batch_id",
        "up",          "global_steps", "iter_train"}},
      {{"epoch", Role::Counter, Reduce::Last, Family::None, ""},
       {"epoch", "epochs", "ep", "epoch_num", "cur_epoch", "current_epoch", "epoch_train"}},
      {{"loss", Role::Training, Reduce::Last, Family::None, ""},
       {"loss", "losses", "total_loss", "loss_total", "objective", "cost", "ce_loss",
        "cross_entropy", "crossentropyloss", "cross_entropy_loss", "lm_loss", "avg_loss",
        "average_loss", "mean_loss", "loss_avg", "loss_mean", "xent"}},
      {{"accuracy", Role::Training, Reduce::Last, Family::None, ""},
       {"acc", "accuracy", "avg_acc", "mean_acc", "acc_1", "acc1", "top1", "top_1", "top1_acc",
        "top_1_acc", "prec_1", "top_1_accuracy", "top1_accuracy", "accu"}},
      {{"lr", Role::Training, Reduce::Last, Family::None, ""},
       {"lr", "learning_rate", "learningrate", "lr_0", "lr_group0", "lr_pg0", "cur_lr",
        "current_lr", "lr_rate"}},
      {{"grad_norm", Role::Training, Reduce::Last, Family::None, ""},
       {"grad_norm", "gradnorm", "gnorm", "gradient_norm", "grad_norm_total", "grads_norm",
        "global_grad_norm", "total_grad_norm", "norm"}},
      {{"loss_scale", Role::Training, Reduce::Last, Family::None, ""},
       {"loss_scale", "lossscale", "loss_scaler", "scaler", "amp_scaler", "grad_scaler",
        "dynamic_loss_scale", "loss_scalar", "fp16_loss_scalar"}},
      {{"iter_ms", Role::Training, Reduce::Mean, Family::Time, "ms"},
       {"step_time",
        "iter_time",
        "iteration_time",
        "time_per_step",
        "time_per_iteration",
        "time_per_iter",
        "elapsed_time_per_iteration",
        "batch_time",
        "time_per_batch",
        "dt",
        "step_duration",
        "it_time",
        "time_step",
        "time_iter",
        "ms/step",
        "s/step",
        "us/step",
        "s/it",
        "ms/it",
        "time"}},
      {{"data_ms", Role::Training, Reduce::Mean, Family::Time, "ms"},
       {"data_time", "data", "data_load_time", "dataload_time", "data_loading_time", "time_data",
        "data_t"}},
      {{"samples_per_s", Role::Training, Reduce::Mean, Family::Rate, "samples/s"},
       {"samples_per_s", "samples_per_sec", "samples_per_second", "samples_s", "sps",
        "samplespersec", "samplespersecond", "images_per_sec", "images_per_second", "img_s",
        "imgs_s", "ips", "examples_per_sec", "examples_per_second", "samples/s",
        "throughput_samples_per_sec", "exps"}},
      {{"tokens_per_s", Role::Training, Reduce::Mean, Family::Rate, "tokens/s"},
       {"tokens_per_s", "tokens_per_sec", "tokens_per_second", "tok_s", "tokens_s", "tps", "toks_s",
        "tokens/s", "throughput_tokens_per_sec", "wps", "words_per_sec", "words_per_second",
        "words/s", "words_s"}},
      {{"tokens_per_gpu_s", Role::Training, Reduce::Mean, Family::Rate, "tokens/s/GPU"},
       {"tgs", "tokens_per_gpu_per_second", "tokens_per_gpu_s", "tokens_per_sec_per_gpu",
        "tokens_per_second_per_gpu", "tok_s_gpu"}},
      {{"steps_per_s", Role::Training, Reduce::Mean, Family::Rate, "steps/s"},
       {"steps_per_s", "steps_per_sec", "steps_per_second", "it/s", "steps/s", "global_step_sec",
        "iters_per_sec", "it_s", "ups", "updates_per_sec", "updates_sec", "updates_per_second"}},
      {{"tflops_per_gpu", Role::Training, Reduce::Mean, Family::Rate, "TFLOP/s"},
       {"tflops", "tflops_per_gpu", "tflop_s", "model_tflops", "tflops_gpu", "tflop_s_gpu",
        "tflops_per_device", "tflop/s", "throughput_per_gpu"}},
      {{"mfu", Role::Training, Reduce::Mean, Family::Percent, "%"},
       {"mfu", "model_flops_utilization", "mfu_pct"}},
      {{"memory_gb", Role::Training, Reduce::Max, Family::Memory, "GB"},
       {"memory", "mem", "max_mem", "gpu_mem", "memory_allocated", "max_memory_allocated",
        "peak_memory", "max_memory", "gpu_memory", "max_reserved", "memory_reserved", "peak_mem",
        "mem_allocated", "max_mem_allocated", "cuda_mem", "gpu_mem_usage", "max_memory_reserved",
        "gpumem"}},
      {{"eta_s", Role::Training, Reduce::Last, Family::Time, "s"},
       {"eta", "remaining", "time_left"}},
  };
  return t;
}

struct Index {
  std::unordered_map<std::string, const Entry*> by_spelling;
  Index() {
    for (const auto& s : table())
      for (const char* w : s.spellings) by_spelling.emplace(w, &s.entry);
  }
};

const Entry* lookup(const std::string& n) {
  static const Index index;
  const auto it = index.by_spelling.find(n);
  return it == index.by_spelling.end() ? nullptr : it->second;
}

bool one_of(std::string_view w, std::initializer_list<std::string_view> words) {
  for (auto x : words)
    if (w == x) return true;
  return false;
}

bool eval_qualifier(std::string_view w) {
  return one_of(w, {"eval", "evaluation", "val", "valid", "validation", "test", "dev", "testing"});
}
bool train_qualifier(std::string_view w) {
  return one_of(w, {"train", "training", "trn", "tr"});
}

// A unit word at the end of a key ("time_ms", "time in s", "memory_gb").
std::string_view key_unit_word(std::string_view w) {
  if (one_of(w, {"ms", "msec"})) return "ms";
  if (one_of(w, {"s", "sec", "secs", "seconds"})) return "s";
  if (w == "us") return "us";
  if (one_of(w, {"min", "mins", "minutes"})) return "min";
  if (w == "gb") return "GB";
  if (w == "gib") return "GiB";
  if (w == "mb") return "MB";
  if (w == "mib") return "MiB";
  if (one_of(w, {"pct", "percent"})) return "%";
  return {};
}

// The factor from unit u to the family's canonical unit; 0 when u is not of the family.
double factor(Family f, std::string_view u) {
  switch (f) {
    case Family::Time:  // to ms (eta: to s, divided by the caller)
      if (u == "ms" || u == "ms/step" || u == "ms/it") return 1;
      if (u == "s" || u == "s/step" || u == "s/it") return 1000;
      if (u == "us" || u == "us/step") return 1e-3;
      if (u == "min") return 60000;
      if (u == "h") return 3600000;
      return 0;
    case Family::Memory:  // to GB as the presets use it (GiB-based: torch's bytes / 2**30)
      if (u == "GB" || u == "GiB") return 1;
      if (u == "MB" || u == "MiB") return 1.0 / 1024;
      if (u == "KB" || u == "KiB") return 1.0 / (1024 * 1024);
      if (u == "TB" || u == "TiB") return 1024;
      return 0;
    case Family::Percent:
      return u == "%" ? 1 : 0;
    case Family::Rate:
    case Family::None:
      return 0;
  }
  return 0;
}

bool has(const std::vector<std::string>& words, std::initializer_list<std::string_view> any) {
  for (const auto& w : words)
    for (auto a : any)
      if (w == a) return true;
  return false;
}

// Quantities recognised by the words of their key in any order: "per step time",
// "time_this_iter_s", "train_items_per_sec", "examples/sec", "tokens per second per gpu".
const Entry* by_words(const std::vector<std::string>& w, std::string_view unit) {
  static const Entry iter_ms{"iter_ms", Role::Training, Reduce::Mean, Family::Time, "ms"};
  static const Entry data_ms{"data_ms", Role::Training, Reduce::Mean, Family::Time, "ms"};
  static const Entry samples{"samples_per_s", Role::Training, Reduce::Mean, Family::Rate,
                             "samples/s"};
  static const Entry tokens{"tokens_per_s", Role::Training, Reduce::Mean, Family::Rate, "tokens/s"};
  static const Entry tokens_gpu{"tokens_per_gpu_s", Role::Training, Reduce::Mean, Family::Rate,
                                "tokens/s/GPU"};
  static const Entry steps{"steps_per_s", Role::Training, Reduce::Mean, Family::Rate, "steps/s"};
  if (w.empty() || w.size() > 5) return nullptr;
  const bool per_second = has(w, {"sec", "s", "second", "seconds"}) &&
                          (has(w, {"per"}) || w.size() == 2 || w.back() == "sec" ||
                           w.back() == "s" || w.back() == "second");
  // A cost printed in a time unit is a time (PaddlePaddle's "batch_cost: 4.17194 s,
  // reader_cost: 4.05514 s"), and so is a batch's, a reader's or a data loader's cost printed
  // bare: PaddlePaddle's toolkits print `batch_cost: {:.4f}, reader_cost: {:.5f}` in seconds
  // (PaddleSeg paddleseg/core/train.py, the averages of time.time() differences; index ids
  // 36887362687, 12251162791). A cost with no unit and no such word stays a loss.
  const bool time =
      has(w, {"time", "dt", "duration", "elapsed"}) ||
      (has(w, {"cost"}) && ((!unit.empty() && factor(Family::Time, unit) != 0) ||
                            (unit.empty() && w.size() == 2 &&
                             has(w, {"batch", "reader", "data", "loader", "dataloader"}))));
  if (time && has(w, {"data", "dataload", "dataloader", "load", "loading", "loader", "reader"}))
    return &data_ms;
  if (time && has(w, {"step", "iter", "iteration", "it", "batch"}) &&
      !has(w, {"epoch", "total", "eval", "run"}))
    return &iter_ms;
  static const Entry memory{"memory_gb", Role::Training, Reduce::Max, Family::Memory, "GB"};
  if (has(w, {"memory", "mem"}) && !unit.empty() && factor(Family::Memory, unit) != 0 &&
      !has(w, {"cpu", "host", "ram", "rss", "system_ram"}))
    return &memory;
  if (per_second || unit == "samples/s" || unit == "tokens/s") {
    if (has(w, {"tokens", "token", "tok", "toks"}))
      return has(w, {"gpu", "device", "gpus"}) ? &tokens_gpu : &tokens;
    if (has(w, {"samples", "sample", "images", "image", "imgs", "img", "examples", "example",
                "items", "sequences", "seqs", "instances", "sentences"}))
      return &samples;
    if (has(w, {"steps", "step", "iters", "it", "its", "batches", "updates"})) return &steps;
  }
  return nullptr;
}

// A key whose words say it counts what training goes through (timesteps, n_updates, episodes).
bool counter_word(const std::vector<std::string>& w) {
  return has(w, {"timesteps", "timestep", "updates", "n_updates", "iterations", "episodes",
                 "frames", "steps", "step", "iter", "iters", "iteration", "epoch", "epochs"});
}

bool training_word(const std::string& n) {
  static constexpr std::array<std::string_view, 26> parts{
      "loss", "acc",  "reward", "return", "ppl", "perplex", "bleu",      "wer",    "cer",
      "map",  "f1",   "score",  "error",  "kl",  "entropy", "precision", "recall", "auc",
      "iou",  "dice", "psnr",   "ssim",   "fid", "rew",     "metric",    "top"};
  for (auto p : parts)
    if (n.find(p) != std::string::npos) return true;
  return false;
}

bool ignored_name(const std::string& n) {
  return one_of(
      n, {"rank",   "local_rank", "global_rank", "world_size", "pid",     "tid",   "seed",
          "port",   "gpu",        "gpus",        "device",     "node",    "nodes", "v_num",
          "worker", "workers",    "id",          "thread",     "process", "proc",  "host",
          "line",   "version",    "cuda",        "tp",         "pp",      "dp",    "num_workers",
          "job",    "job_id",     "jobid",       "task",       "pid_",    "rank_"});
}

}  // namespace

std::string normalise_key(std::string_view key) {
  std::string out;
  bool sep = false;
  for (char c : key) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
    if (alnum) {
      if (sep && !out.empty()) out += '_';
      sep = false;
      out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    } else if (c == '%') {
      if (!out.empty()) out += "_pct";
      sep = false;
    } else {
      sep = true;
    }
  }
  return out;
}

Canonical canonical(std::string_view key, std::string_view unit, bool eval, bool counter,
                    double value) {
  Canonical c;
  const std::string n = normalise_key(key);
  c.name = n;
  // Units written in the key, and a unit key ("ms/step") itself.
  std::vector<std::string> words;
  for (size_t s = 0; s <= n.size();) {
    const size_t e = std::min(n.find('_', s), n.size());
    if (e > s) words.emplace_back(n.substr(s, e - s));
    s = e + 1;
  }
  std::string_view u = unit;
  // An SI suffix glued to the value (85.8G, 2940M): a multiplier, or a memory's unit.
  double si = 1;
  char si_letter = 0;
  if (u.size() == 1 && std::string_view("kKMGBT").find(u[0]) != std::string_view::npos) {
    si_letter = u[0];
    si = u[0] == 'k' || u[0] == 'K' ? 1e3 : u[0] == 'M' ? 1e6 : u[0] == 'T' ? 1e12 : 1e9;
    u = {};
  }
  // A rate written as a key ("samples/sec", "tokens_per_s"): its last word is no unit of it.
  std::vector<std::string> rate_words;
  for (const auto& w : words)
    if (!eval_qualifier(w) && !train_qualifier(w)) rate_words.push_back(w);
  const bool rate_key = [&] {
    const Entry* r = by_words(rate_words, unit);
    return r && r->family == Family::Rate;
  }();
  if (!words.empty() && u.empty() && !rate_key) {
    if (const auto ku = key_unit_word(words.back()); !ku.empty() && words.size() > 1) {
      u = ku;
      words.pop_back();
      if (words.size() > 1 && words.back() == "in") words.pop_back();
    }
  }
  // Qualifiers: eval words make an eval metric, train words are dropped.
  bool eval_key = false;
  std::vector<std::string> core;
  for (const auto& w : words) {
    if (eval_qualifier(w)) {
      eval_key = true;
      c.test |= w == "test" || w == "testing";
    } else if (!train_qualifier(w))
      core.push_back(w);
  }
  std::string joined;
  for (const auto& w : core) joined += (joined.empty() ? "" : "_") + w;
  const bool is_eval = eval || eval_key;
  // A path whose first parts are only groups (`losses/q1_loss`, `throughput/total_tokens`,
  // `charts/episodic_return`): read as its last part; a part that says whose it is
  // (`actor/pg_loss`, `critic/score/mean`) stays.
  if (key.find('/') != std::string_view::npos && key.find(' ') == std::string_view::npos &&
      key != unit) {
    const size_t last_slash = key.rfind('/');
    bool groups = last_slash + 1 < key.size();
    for (size_t a = 0; a < last_slash;) {
      const size_t b = std::min(key.find('/', a), last_slash);
      groups &= one_of(normalise_key(key.substr(a, b - a)),
                       {"losses",   "loss",   "charts", "metrics",   "throughput", "perf", "timing",
                        "rollout",  "system", "optim",  "optimizer", "stats",      "info", "train",
                        "training", "eval",   "val",    "valid",     "validation", "test"});
      a = b + 1;
    }
    if (groups && !unit_word(key).size()) {
      Canonical inner = canonical(
          key.substr(last_slash + 1), unit,
          eval ||
              [&] {
                for (const auto& w : words)
                  if (eval_qualifier(w)) return true;
                return false;
              }(),
          counter, value);
      inner.why = "'" + std::string(key) + "' read as its last part: " + inner.why;
      return inner;
    }
  }
  const Entry* e = lookup(joined);
  // A counter done/total that a bar's description calls progress ("Training progress:   0%|
  // | 0/30000", "Progress on: 12.9kit/200kit"): the steps.
  if (!e && counter && (joined == "progress" || joined == "progress_on")) e = lookup("step");
  // A unit as the key (`| ms/batch 11.43 |`, `sec/step:`): the quantity the unit measures.
  if (!e && u.empty()) {
    if (const auto uw = unit_word(key); !uw.empty()) {
      u = uw;
      e = lookup(std::string(uw));
    }
  }
  // CamelCase keys (CurSamplesPerSec, MaxMemAllocated): their words, for the vocabulary only.
  if (!e && core.size() == 1 && key.find_first_of(" _/-.") == std::string_view::npos) {
    std::vector<std::string> camel;
    std::string w;
    for (char ch : key) {
      const bool upper = ch >= 'A' && ch <= 'Z';
      if (upper && !w.empty() && !(w.back() >= 'A' && w.back() <= 'Z')) {
        camel.push_back(normalise_key(w));
        w.clear();
      }
      w += ch;
    }
    if (!w.empty()) camel.push_back(normalise_key(w));
    if (camel.size() > 1) {
      std::string cj;
      for (const auto& x : camel) cj += (cj.empty() ? "" : "_") + x;
      e = lookup(cj);
      if (!e) e = by_words(camel, u);
    }
  }
  // `tgs (tokens/gpu/second)`: the key before its bracketed gloss.
  if (!e && key.find(" (") != std::string_view::npos)
    return canonical(key.substr(0, key.find(" (")), unit, eval, counter, value);
  // A path of names (`train/loss`, `actor/grad_norm`, `perf/mfu/actor`): its last part, else a
  // part that is a vocabulary word of its own.
  if (!e && key.find('/') != std::string_view::npos && key != unit &&
      key.find(' ') == std::string_view::npos) {
    std::vector<std::string> parts;
    for (size_t s0 = 0; s0 <= key.size();) {
      const size_t e0 = std::min(key.find('/', s0), key.size());
      parts.push_back(normalise_key(key.substr(s0, e0 - s0)));
      s0 = e0 + 1;
    }
    bool qualifier_eval = false;
    for (const auto& p : parts) qualifier_eval |= eval_qualifier(p);
    const Entry* pe = lookup(parts.back());
    if (!pe || pe->role == Role::Counter)
      for (const auto& p : parts)
        if (const Entry* q = lookup(p);
            q && q->role != Role::Counter &&
            one_of(q->name, {"mfu", "tflops_per_gpu", "lr", "grad_norm", "loss_scale"}))
          pe = q;
    if (pe && pe->role != Role::Counter) {
      Canonical c2 =
          canonical(pe->name == std::string_view("loss") ? parts.back() : std::string(parts.back()),
                    unit, eval || qualifier_eval, counter, value);
      if (c2.name.find(pe->name) != std::string::npos ||
          c2.name == std::string("eval_") + pe->name) {
        c2.why = "'" + std::string(key) + "': its part '" +
                 (lookup(parts.back()) == pe ? parts.back() : std::string(pe->name)) +
                 "' is a spelling of " + pe->name;
        return c2;
      }
      Canonical c3 = canonical(pe->name, unit, eval || qualifier_eval, counter, value);
      c3.why = "'" + std::string(key) + "': a part of it is a spelling of " + pe->name;
      return c3;
    }
  }
  // One word ending in a quantity's name: CrossEntropyLoss, WeightedCategoryAccuracy, closs;
  // after a phase too (Trax's "train WeightedCategoryCrossEntropy").
  if (!e && core.size() == 1 &&
      (words.size() == 1 ? key.find_first_of(" _/-.") == std::string_view::npos
                         : key.find_first_of("_/-.") == std::string_view::npos)) {
    const std::string& w = core.front();
    auto ends = [&](std::string_view x) { return w.size() > x.size() && w.ends_with(x); };
    if (ends("crossentropy") || ends("loss"))
      e = lookup("loss");
    else if (ends("accuracy"))
      e = lookup("accuracy");
  }
  if (!e && key == unit) e = lookup(std::string(unit));  // a value named by its unit
  // Longer phrases: their last two words, then their last word ("average train loss").
  if (!e && core.size() > 2) e = lookup(core[core.size() - 2] + "_" + core.back());
  if (e && core.size() > 2 && e->family != Family::None) e = nullptr;
  // A quantity named with a modifier ("avg loss", "running mean loss"): the quantity.
  if (!e && core.size() > 1) {
    bool modifiers = true;
    for (size_t k = 0; k + 1 < core.size(); ++k)
      modifiers &= one_of(
          core[k], {"avg",      "avr",     "average", "mean",  "running", "current",  "cur",
                    "smoothed", "overall", "global",  "batch", "step",    "iter",     "total",
                    "final",    "last",    "moving",  "ema",   "mini",    "minibatch"});
    const Entry* last = lookup(core.back());
    // A time is no loss: PaddlePaddle's "batch_cost: 4.17194 s" is the batch's time (by_words).
    const Entry* worded = by_words(core, u);
    const bool timed =
        (!u.empty() && factor(Family::Time, u) != 0) || (worded && worded->family == Family::Time);
    if (modifiers && last && last->role != Role::Counter && !timed &&
        (last->family == Family::None ||
         one_of(core.front(), {"avg", "avr", "average", "mean", "running", "moving", "ema"})))
      e = last;
  }
  if (!e) e = by_words(core, u);
  // A rate's unit names it whatever the key ("Speed: 363.20 samples/sec").
  if (!e && (u == "samples/s" || u == "tokens/s" || u == "steps/s" || u == "it/s"))
    e = lookup(u == "it/s" ? "it/s" : std::string(u));
  // ... and so does TFLOP/s, a device's rate ("approx flops per GPU: 193.1TFLOPS", GPT-NeoX).
  if (!e && u == "TFLOP/s") e = lookup("tflop/s");
  if (!e) {
    c.name = n.empty() ? std::string(unit) : n;
    if (c.name.empty()) c.name = "value";
    if (ignored_name(n)) {
      c.role = Role::Ignored;
      c.why = "an identifier, not a metric";
      return c;
    }
    // `password 424242`, `api_key 987654` in a log: a secret's value, never stored and shown as
    // a metric (issue 40).
    if (secret_word_name(n)) {
      c.role = Role::Ignored;
      c.why = "a secret's name: never kept";
      return c;
    }
    c.role = (counter || counter_word(core)) && !training_word(n) ? Role::Counter
             : training_word(n)                                   ? Role::Training
                                                                  : Role::Other;
    c.unit = std::string(u);
    c.scale = si;
    c.why = "key not in the vocabulary: its own name";
    if (is_eval && !eval_key && c.role != Role::Counter) {
      c.name = "eval_" + c.name;
      c.why += ", on an evaluation line";
    }
    return c;
  }
  c.name = e->name;
  c.role = e->role;
  c.reduce = e->reduce;
  c.why = "'" + std::string(key) + "' is a spelling of " + e->name;
  if (e->family == Family::Time && u.empty() && !counter) c.why += "; no unit printed: seconds";
  if (si_letter && e->family == Family::Memory) {
    u = si_letter == 'K' || si_letter == 'k' ? "KB"
        : si_letter == 'M'                   ? "MB"
        : si_letter == 'T'                   ? "TB"
                                             : "GB";
    si = 1;
  }
  if (e->family == Family::Time && u.empty() && !counter) {
    u = "s";  // a step time printed bare is in seconds in every trainer that prints one
  }
  if (e->family == Family::Time || e->family == Family::Memory || e->family == Family::Percent) {
    double f = factor(e->family, u);
    if (std::string_view(e->name) == "eta_s" && f != 0) f /= 1000;
    if (f == 0 && e->family == Family::Percent && u.empty() && value >= 0 && value <= 1) {
      f = 100;  // MFU printed as a fraction (composer, torchtitan's older lines)
      c.why += "; a fraction at most 1, as %";
    } else if (f == 0 && e->family == Family::Memory && u.empty() && value >= 1024) {
      f = 1.0 / 1024;  // no accelerator has a TB of memory: a bare memory of 1024 or more is MB
      c.why += "; no unit printed, 1024 or more: MB";
    } else if (f == 0 && e->family == Family::Memory && u.empty() && value > 0 &&
               !is_whole(value)) {
      // A fraction below 1024 is GB: MiB are printed whole (`torch.cuda.max_memory_allocated()
      // // 2**20`, mmengine's `memory: 9801`), GiB with decimals (NVlabs' StyleGAN3 and EDM
      // training_loop.py: f"gpumem {...max_memory_allocated(device) / 2**30:<6.2f}").
      f = 1;
      c.why += "; no unit printed, a fraction below 1024: GB";
    } else if (f == 0) {
      // The unit is not printed: the value is kept as it is, under the key's own name.
      c.name = n;
      c.role = Role::Training;
      c.reduce = e->reduce;
      c.unit = std::string(u);
      c.why =
          "'" + std::string(key) + "' means " + e->name + " but no unit is printed: its own name";
      if (is_eval && !eval_key) c.name = "eval_" + c.name;
      return c;
    } else if (f != 1) {
      c.why += "; " + std::string(u) + " to " + e->unit;
    }
    c.scale = f * si;
    c.unit = e->unit;
  } else if (e->family == Family::Rate) {
    c.unit = e->unit;
    c.scale = si;
  } else {
    c.scale = si;
  }
  if (is_eval && c.role != Role::Counter) {
    c.name = "eval_" + c.name;
    if (c.name == "eval_accuracy") c.why += " (evaluation)";
  }
  return c;
}

}  // namespace aerun::logread
