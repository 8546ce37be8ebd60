// The one canonical vocabulary of the generic reader: a printed key (any spelling, with its unit)
// to the name and unit the presets use (step, epoch, loss, iter_ms, samples_per_s, tflops_per_gpu,
// mfu, lr, grad_norm, memory_gb, ...). A key the vocabulary does not know keeps its own name,
// normalised (lowercase, each run of other characters one `_`): nothing read is lost.
#pragma once

#include <string>
#include <string_view>

namespace aerun::logread {

// What a metric is, for the reader's rules.
enum class Role : unsigned char {
  Counter,   // step, epoch, batch: grows while training runs
  Training,  // loss, accuracy, lr, rates, ...: a line that has one is a training line
  Other,     // a keyed number the vocabulary does not know
  Ignored,   // rank, pid, seed, port, ...: never a metric
};

enum class Reduce : unsigned char { Last, Mean, Max };

struct Canonical {
  std::string name;
  std::string unit;  // the canonical unit ("ms", "samples/s", "%", "GB") or "" (a pure number)
  double scale = 1;  // the printed value times scale is in `unit`
  Role role = Role::Other;
  Reduce reduce = Reduce::Last;
  std::string why;    // how the name was found, for --explain ("synonym of step", "key unit ms")
  bool test = false;  // an evaluation named `test` in its key ("test loss"): eval_ during training,
                      // test_ when printed once after it (generic_reader.cpp)
};

// The canonical form of a key printed with unit (as written or from the key) on a line that is
// (eval) or is not an evaluation's. counter: the value was printed as done/total.
Canonical canonical(std::string_view key, std::string_view unit, bool eval, bool counter,
                    double value);

// The normalised form of a key: lowercase ASCII, each run of other characters one '_', trimmed.
std::string normalise_key(std::string_view key);

}  // namespace aerun::logread
