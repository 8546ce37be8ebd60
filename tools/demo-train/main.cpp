// aerun-demo-train: a small, real training workload for aerun's demo case.
//
// Trains an MLP (--layers hidden layers of --hidden units, ReLU) with plain SGD on a synthetic
// regression data set: inputs drawn from a fixed seed, targets produced by a fixed random
// "teacher" network. It logs like Megatron-LM / DeepSpeed launch scripts do, so aerun's metric,
// status and startup patterns apply to it unchanged:
//   Job started at: 2026-11-22-183323 on <host>
//   [2026-11-22 18:33:24,512] [INFO] [logging.py:96:log_dist] [Rank 0] step=0, skipped=0, ...
//    iteration       10/      60 | elapsed time per iteration (ms): 41.3 | ... | lm loss: ... |
//   NumWorkers: 1; SamplesPerStep: 32; IterationTime: 0.0413;  SamplesPerSecond: 774.8
// With --oom-above N it fails like PyTorch running out of GPU memory when --hidden > N.
// Standard library only.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <numbers>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

constexpr int kInputDim = 1024;   // features per sample
constexpr int kTeacherDim = 256;  // hidden units of the teacher that makes the targets
constexpr int kOutputDim = 16;    // regression targets per sample
constexpr int kSamples = 8192;    // size of the synthetic data set

struct Options {
  long hidden = 128;
  long layers = 2;
  long batch = 32;
  long iters = 60;
  long seed = 1234;
  long log_interval = 10;
  long oom_above = -1;  // < 0: never
  double lr = 0.01;
  double slowdown = 1;  // each step takes this many times as long (a regression, on purpose)
};

void print_help() {
  std::printf(
      "usage: aerun-demo-train [options]\n"
      "Trains a small MLP on a synthetic regression task and logs like Megatron-LM.\n\n"
      "  --hidden N        hidden units per layer (default 128)\n"
      "  --layers N        hidden layers (default 2)\n"
      "  --batch N         samples per step (default 32)\n"
      "  --iters N         optimizer steps (default 60)\n"
      "  --seed N          seed of the data set and the initial weights (default 1234)\n"
      "  --log-interval N  steps between iteration lines (default 10)\n"
      "  --lr X            SGD learning rate (default 0.01)\n"
      "  --oom-above N     fail like a CUDA out-of-memory error when hidden > N\n"
      "  --slowdown X      make each step take X times as long (>= 1; a regression on purpose)\n"
      "  --help            this text\n");
}

// Parses the command line; exits 2 on anything it does not understand.
Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      print_help();
      std::exit(0);
    }
    std::string value;
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      std::fprintf(stderr, "aerun-demo-train: %s needs a value (see --help)\n", arg.c_str());
      std::exit(2);
    }
    auto as_long = [&](long min) {
      char* end = nullptr;
      const long v = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || v < min) {
        std::fprintf(stderr, "aerun-demo-train: %s: '%s' is not an integer >= %ld\n", arg.c_str(),
                     value.c_str(), min);
        std::exit(2);
      }
      return v;
    };
    if (arg == "--hidden")
      o.hidden = as_long(1);
    else if (arg == "--layers")
      o.layers = as_long(1);
    else if (arg == "--batch")
      o.batch = as_long(1);
    else if (arg == "--iters")
      o.iters = as_long(1);
    else if (arg == "--seed")
      o.seed = as_long(0);
    else if (arg == "--log-interval")
      o.log_interval = as_long(1);
    else if (arg == "--oom-above")
      o.oom_above = as_long(0);
    else if (arg == "--lr") {
      char* end = nullptr;
      o.lr = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(o.lr > 0)) {
        std::fprintf(stderr, "aerun-demo-train: --lr: '%s' is not a positive number\n",
                     value.c_str());
        std::exit(2);
      }
    } else if (arg == "--slowdown") {
      char* end = nullptr;
      o.slowdown = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(o.slowdown >= 1)) {
        std::fprintf(stderr, "aerun-demo-train: --slowdown: '%s' is not a number >= 1\n",
                     value.c_str());
        std::exit(2);
      }
    } else {
      std::fprintf(stderr, "aerun-demo-train: unknown option '%s' (see --help)\n", arg.c_str());
      std::exit(2);
    }
  }
  return o;
}

std::string hostname() {
  std::ifstream f("/proc/sys/kernel/hostname");
  std::string h;
  if (f && std::getline(f, h) && !h.empty()) return h;
  if (const char* env = std::getenv("HOSTNAME")) return env;
  return "localhost";
}

std::tm local_time(std::time_t t) {
  std::tm tm{};
  localtime_r(&t, &tm);
  return tm;
}

// "2026-11-22-183323", as the ALCF launch scripts stamp job starts.
std::string job_stamp() {
  const std::tm tm = local_time(std::time(nullptr));
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d-%H%M%S", &tm);
  return buf;
}

// "2026-11-22 18:33:24,512", as Python's logging module stamps lines.
std::string log_stamp() {
  const auto now = std::chrono::system_clock::now();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  const std::tm tm = local_time(std::chrono::system_clock::to_time_t(now));
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s,%03d", buf, static_cast<int>(ms));
  return out;
}

// Normal deviates from a fully specified engine (Box-Muller), so data sets are identical across
// standard libraries.
class Gaussian {
 public:
  explicit Gaussian(std::uint64_t seed) : engine_(seed) {}
  float operator()() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
    const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = static_cast<float>(r * std::sin(2 * std::numbers::pi * u2));
    has_spare_ = true;
    return static_cast<float>(r * std::cos(2 * std::numbers::pi * u2));
  }

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  float spare_ = 0;
};

// y[rows x out] = x[rows x in] * w[in x out] + b. The weight row is the outer loop so that each
// weight is read once per batch (the batch's outputs stay in cache), as BLAS kernels do.
void affine(const float* x, const std::vector<float>& w, const std::vector<float>& b, float* y,
            int rows, int in, int out) {
  for (int r = 0; r < rows; ++r) std::copy(b.begin(), b.end(), y + static_cast<size_t>(r) * out);
  for (int i = 0; i < in; ++i) {
    const float* wi = w.data() + static_cast<size_t>(i) * out;
    for (int r = 0; r < rows; ++r) {
      const float xi = x[static_cast<size_t>(r) * in + i];
      float* yr = y + static_cast<size_t>(r) * out;
      for (int j = 0; j < out; ++j) yr[j] += xi * wi[j];
    }
  }
}

// A fully connected layer with its gradients.
struct Linear {
  int in, out;
  std::vector<float> w, b, gw, gb;

  Linear(int in_, int out_, Gaussian& g)
      : in(in_), out(out_), w(in_ * out_), b(out_, 0.0f), gw(in_ * out_), gb(out_) {
    const float scale = std::sqrt(2.0f / static_cast<float>(in));  // He initialisation
    for (float& v : w) v = g() * scale;
  }

  void forward(const float* x, float* y, int rows) const { affine(x, w, b, y, rows, in, out); }

  // Computes gw/gb from the layer input x and output gradient dy; writes dx when asked.
  void backward(const float* x, const float* dy, float* dx, int rows) {
    std::fill(gb.begin(), gb.end(), 0.0f);
    for (int r = 0; r < rows; ++r)
      for (int j = 0; j < out; ++j) gb[j] += dy[static_cast<size_t>(r) * out + j];
    for (int i = 0; i < in; ++i) {
      float* gwi = gw.data() + static_cast<size_t>(i) * out;
      const float* wi = w.data() + static_cast<size_t>(i) * out;
      std::fill(gwi, gwi + out, 0.0f);
      for (int r = 0; r < rows; ++r) {
        const float* dyr = dy + static_cast<size_t>(r) * out;
        const float xi = x[static_cast<size_t>(r) * in + i];
        for (int j = 0; j < out; ++j) gwi[j] += xi * dyr[j];
        if (!dx) continue;
        float s = 0;
        for (int j = 0; j < out; ++j) s += wi[j] * dyr[j];
        dx[static_cast<size_t>(r) * in + i] = s;
      }
    }
  }

  void sgd_step(float lr) {
    for (size_t k = 0; k < w.size(); ++k) w[k] -= lr * gw[k];
    for (size_t k = 0; k < b.size(); ++k) b[k] -= lr * gb[k];
  }
};

// The synthetic data set: x ~ N(0, 1), y = teacher(x) with a fixed random tanh teacher.
struct DataSet {
  std::vector<float> x, y;
};

DataSet make_data(Gaussian& g) {
  DataSet d;
  d.x.resize(static_cast<size_t>(kSamples) * kInputDim);
  for (float& v : d.x) v = g();
  Linear t1(kInputDim, kTeacherDim, g), t2(kTeacherDim, kOutputDim, g);
  for (float& v : t1.w) v *= 0.5f;  // keep the teacher's tanh out of saturation
  std::vector<float> h(static_cast<size_t>(kSamples) * kTeacherDim);
  t1.forward(d.x.data(), h.data(), kSamples);
  for (float& v : h) v = std::tanh(v);
  d.y.resize(static_cast<size_t>(kSamples) * kOutputDim);
  t2.forward(h.data(), d.y.data(), kSamples);
  return d;
}

// The student: Linear+ReLU hidden layers, then a linear read-out, trained on mean squared error.
class Mlp {
 public:
  Mlp(const Options& o, Gaussian& g) : batch_(static_cast<int>(o.batch)) {
    int in = kInputDim;
    for (long l = 0; l < o.layers; ++l) {
      layers_.emplace_back(in, static_cast<int>(o.hidden), g);
      in = static_cast<int>(o.hidden);
    }
    layers_.emplace_back(in, kOutputDim, g);
    acts_.resize(layers_.size() + 1);
    grads_.resize(layers_.size() + 1);
    acts_[0].resize(static_cast<size_t>(batch_) * kInputDim);
    for (size_t l = 0; l < layers_.size(); ++l) {
      acts_[l + 1].resize(static_cast<size_t>(batch_) * layers_[l].out);
      grads_[l + 1].resize(acts_[l + 1].size());
    }
    grads_[0].resize(acts_[0].size());
  }

  // One SGD step on samples [first, first + batch) (wrapping around); returns the batch loss.
  double step(const DataSet& d, size_t first, float lr) {
    std::vector<float> target(static_cast<size_t>(batch_) * kOutputDim);
    for (int r = 0; r < batch_; ++r) {
      const size_t s = (first + r) % kSamples;
      std::copy_n(d.x.begin() + s * kInputDim, kInputDim, acts_[0].begin() + r * kInputDim);
      std::copy_n(d.y.begin() + s * kOutputDim, kOutputDim, target.begin() + r * kOutputDim);
    }
    const size_t n = layers_.size();
    for (size_t l = 0; l < n; ++l) {
      layers_[l].forward(acts_[l].data(), acts_[l + 1].data(), batch_);
      if (l + 1 < n)
        for (float& v : acts_[l + 1]) v = std::max(v, 0.0f);
    }
    double loss = 0;
    const float norm = 2.0f / static_cast<float>(target.size());
    for (size_t k = 0; k < target.size(); ++k) {
      const float diff = acts_[n][k] - target[k];
      loss += static_cast<double>(diff) * diff;
      grads_[n][k] = norm * diff;
    }
    for (size_t l = n; l-- > 0;) {
      layers_[l].backward(acts_[l].data(), grads_[l + 1].data(), l > 0 ? grads_[l].data() : nullptr,
                          batch_);
      if (l > 0)
        for (size_t k = 0; k < grads_[l].size(); ++k)
          if (acts_[l][k] <= 0) grads_[l][k] = 0;  // ReLU
    }
    for (auto& layer : layers_) layer.sgd_step(lr);
    return loss / static_cast<double>(target.size());
  }

 private:
  int batch_;
  std::vector<Linear> layers_;
  std::vector<std::vector<float>> acts_, grads_;  // per layer boundary
};

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const Options o = parse_args(argc, argv);

  std::printf("Job started at: %s on %s\n", job_stamp().c_str(), hostname().c_str());
  std::printf("building MLP: hidden=%ld layers=%ld batch=%ld iters=%ld seed=%ld lr=%g\n", o.hidden,
              o.layers, o.batch, o.iters, o.seed, o.lr);
  if (o.oom_above >= 0 && o.hidden > o.oom_above) {
    std::fprintf(stderr,
                 "Traceback (most recent call last):\n"
                 "  File \"pretrain_gpt.py\", line 149, in <module>\n"
                 "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 31.75 GiB "
                 "total capacity; 29.12 GiB already allocated; 1.20 GiB free; 29.50 GiB reserved "
                 "in total by PyTorch)\n");
    return 1;
  }

  Gaussian g(static_cast<std::uint64_t>(o.seed));
  std::printf("> building synthetic regression data set: %d samples, %d features -> %d targets\n",
              kSamples, kInputDim, kOutputDim);
  const DataSet data = make_data(g);
  Mlp model(o, g);
  const float lr = static_cast<float>(o.lr);

  double interval_ms = 0, interval_loss = 0;
  long interval_steps = 0;
  for (long it = 0; it < o.iters; ++it) {
    const auto t0 = std::chrono::steady_clock::now();
    const double loss = model.step(data, static_cast<size_t>(it) * o.batch, lr);
    if (o.slowdown > 1)  // the step's own time again, (slowdown - 1) times over
      std::this_thread::sleep_for((std::chrono::steady_clock::now() - t0) * (o.slowdown - 1));
    const auto t1 = std::chrono::steady_clock::now();
    interval_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
    interval_loss += loss;
    ++interval_steps;
    if (it == 0)
      std::printf(
          "[%s] [INFO] [logging.py:96:log_dist] [Rank 0] step=0, skipped=0, lr=[%g], "
          "mom=[0.0]\n",
          log_stamp().c_str(), o.lr);
    if ((it + 1) % o.log_interval == 0 || it + 1 == o.iters) {
      const double ms = interval_ms / static_cast<double>(interval_steps);
      std::printf(
          " iteration %8ld/%8ld | elapsed time per iteration (ms): %.1f | global batch "
          "size: %5ld | lm loss: %E | number of skipped iterations: %3d |\n",
          it + 1, o.iters, ms, o.batch, interval_loss / interval_steps, 0);
      std::printf(
          "NumWorkers: 1; SamplesPerStep: %ld; IterationTime: %.6g;  SamplesPerSecond: "
          "%.6g\n",
          o.batch, ms / 1000.0, static_cast<double>(o.batch) / (ms / 1000.0));
      interval_ms = interval_loss = 0;
      interval_steps = 0;
    }
  }
  char done[32];
  const std::tm tm = local_time(std::time(nullptr));
  std::strftime(done, sizeof done, "%Y-%m-%d %H:%M:%S", &tm);
  std::printf("[exiting program at iteration %ld] datetime: %s\n", o.iters, done);
  return 0;
}
