#include "aerun/extractor.hpp"

#include <fcntl.h>
#include <re2/re2.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>

#include "aerun/error.hpp"
#include "extract/required_literal.hpp"

namespace aerun {

namespace {

constexpr size_t kMaxLineBytes = 64u << 20;  // a longer unterminated line is truncated
constexpr size_t kStatusLineBytes = 500;

// One compiled pattern with the literal every matching line contains. When the pattern starts with
// that literal, every match starts at one of its occurrences, so the regex runs anchored there
// (cheap) instead of searching the whole line.
struct Matcher {
  static constexpr size_t npos = std::string_view::npos;
  std::unique_ptr<RE2> re;
  std::string literal;
  bool anchored = false;

  // Offset of the literal's first occurrence in the line (0 without a literal), npos when absent:
  // the line cannot match.
  size_t first_hit(std::string_view line) const {
    if (literal.empty()) return 0;
    const void* p = ::memmem(line.data(), line.size(), literal.data(), literal.size());
    return p ? static_cast<size_t>(static_cast<const char*>(p) - line.data()) : npos;
  }

  // Whether the line matches, given the literal's first occurrence at hit; fills cap with group 1.
  bool match(std::string_view line, size_t hit, re2::StringPiece* cap = nullptr) const {
    const re2::StringPiece text(line.data(), line.size());
    re2::StringPiece sub[2];
    const int n = cap ? 2 : 0;
    if (!anchored) {
      if (!re->Match(text, 0, line.size(), RE2::UNANCHORED, sub, n)) return false;
    } else {
      while (!re->Match(text, hit, line.size(), RE2::ANCHOR_START, sub, n)) {
        const size_t from = hit + 1;
        const void* p =
            ::memmem(line.data() + from, line.size() - from, literal.data(), literal.size());
        if (!p) return false;
        hit = static_cast<size_t>(static_cast<const char*>(p) - line.data());
      }
    }
    if (cap) *cap = sub[1];
    return true;
  }
};

Matcher compile(const std::string& pattern, const SourceLoc& loc, const std::string& key,
                int want_groups) {
  RE2::Options opts;
  opts.set_log_errors(false);
  Matcher m;
  m.re = std::make_unique<RE2>(pattern, opts);
  if (!m.re->ok()) throw InputError(loc, key, "invalid regex: " + m.re->error());
  if (want_groups >= 0 && m.re->NumberOfCapturingGroups() != want_groups)
    throw InputError(loc, key,
                     "pattern must have exactly one capture group, found " +
                         std::to_string(m.re->NumberOfCapturingGroups()) + ": " + pattern);
  constexpr size_t kMinPrefix = 4;  // shorter prefixes filter too little; prefer the longest run
  m.literal = prefix_literal(pattern);
  m.anchored = m.literal.size() >= kMinPrefix;
  if (!m.anchored) m.literal = required_literal(pattern);
  return m;
}

// Reads a captured number ("12.5", " +1E-3 "); nullopt when it is not a finite number.
std::optional<double> parse_number(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

// A line cut to at most n bytes without splitting a UTF-8 sequence.
std::string truncate_utf8(std::string_view line, size_t n) {
  if (line.size() <= n) return std::string(line);
  while (n > 0 && (static_cast<unsigned char>(line[n]) & 0xC0) == 0x80) --n;
  return std::string(line.substr(0, n));
}

// The running reduction of one metric.
struct MetricState {
  MetricSpec spec;
  Matcher matcher;
  long long seen = 0;   // matches, skipped ones included
  long long count = 0;  // matches used
  double first = 0, last = 0, min = 0, max = 0;
  long long first_line = 0, last_line = 0, min_line = 0, max_line = 0;
  long double sum = 0;
  std::vector<double> values;  // medians only
  std::vector<SeriesPoint> points;

  void on_line(std::string_view line, size_t hit, long long line_no) {
    re2::StringPiece cap;
    if (!matcher.match(line, hit, &cap)) return;
    const auto v = parse_number(std::string_view(cap.data(), cap.size()));
    if (spec.reduce == Reduction::Count) {
      if (++seen <= spec.skip) return;
      ++count;
      last_line = line_no;
      if (spec.series && v) points.push_back({count - 1, *v * spec.scale, line_no});
      return;
    }
    if (!v || ++seen <= spec.skip) return;
    add(*v * spec.scale, line_no);
  }

  void add(double v, long long line_no) {
    if (count == 0) {
      first = min = max = v;
      first_line = min_line = max_line = line_no;
    } else if (v < min) {
      min = v;
      min_line = line_no;
    } else if (v > max) {
      max = v;
      max_line = line_no;
    }
    last = v;
    last_line = line_no;
    sum += v;
    if (spec.reduce == Reduction::Median) values.push_back(v);
    if (spec.series) points.push_back({count, v, line_no});
    ++count;
  }

  MetricValue reduced() const {
    MetricValue m{spec.name, last, spec.unit, count, last_line};
    switch (spec.reduce) {
      case Reduction::First:
        m.value = first;
        m.source_line = first_line;
        break;
      case Reduction::Last:
        break;
      case Reduction::Min:
        m.value = min;
        m.source_line = min_line;
        break;
      case Reduction::Max:
        m.value = max;
        m.source_line = max_line;
        break;
      case Reduction::Mean:
        m.value = static_cast<double>(sum / count);
        break;
      case Reduction::Sum:
        m.value = static_cast<double>(sum);
        break;
      case Reduction::Count:
        m.value = static_cast<double>(count);
        break;
      case Reduction::Median: {
        std::vector<double> v = values;
        const size_t mid = v.size() / 2;
        std::nth_element(v.begin(), v.begin() + mid, v.end());
        m.value = v[mid];
        if (v.size() % 2 == 0)
          m.value = (*std::max_element(v.begin(), v.begin() + mid) + m.value) / 2;
        break;
      }
    }
    return m;
  }
};

struct StatusMatcher {
  std::string status;
  Matcher matcher;
};

}  // namespace

struct Extractor::Impl {
  std::vector<MetricState> metrics;
  std::vector<StatusMatcher> status_patterns;
  std::optional<Matcher> startup;
  long long startup_line = 0;
  std::optional<StatusHit> status;
  long long lines = 0;
  std::string partial;            // bytes of an unterminated line
  std::vector<size_t> line_ends;  // offsets of '\n' in the block being scanned

  void set_status(const StatusMatcher& sp, std::string_view line, long long line_no) {
    status = StatusHit{sp.status, truncate_utf8(line, kStatusLineBytes), line_no};
  }

  // One line on its own (a line split across chunks, or the last one).
  void process_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const long long no = ++lines;
    for (auto& m : metrics)
      if (const size_t hit = m.matcher.first_hit(line); hit != Matcher::npos)
        m.on_line(line, hit, no);
    if (startup && startup_line == 0)
      if (const size_t hit = startup->first_hit(line); hit != Matcher::npos)
        if (startup->match(line, hit)) startup_line = no;
    if (!status)
      for (const auto& sp : status_patterns)
        if (const size_t hit = sp.matcher.first_hit(line);
            hit != Matcher::npos && sp.matcher.match(line, hit)) {
          set_status(sp, line, no);
          break;
        }
  }

  size_t line_start(size_t k) const { return k == 0 ? 0 : line_ends[k - 1] + 1; }

  // Line k of the current block, without its '\n' and trailing '\r'.
  std::string_view block_line(const char* b, size_t k) const {
    const size_t start = line_start(k);
    size_t end = line_ends[k];
    if (end > start && b[end - 1] == '\r') --end;
    return {b + start, end - start};
  }

  // Calls fn(k, hit) for each line k < limit of the block that may match (in order), with the
  // offset of the literal's first occurrence in it, until fn returns false. With a literal, jumps
  // from occurrence to occurrence instead of visiting every line.
  template <class Fn>
  void scan(const Matcher& m, const char* b, size_t n, size_t limit, Fn&& fn) {
    if (m.literal.empty()) {
      for (size_t k = 0; k < limit; ++k)
        if (!fn(k, size_t{0})) return;
      return;
    }
    size_t pos = 0;
    auto from = line_ends.begin();
    while (pos < n) {
      const void* hit = ::memmem(b + pos, n - pos, m.literal.data(), m.literal.size());
      if (!hit) return;
      const size_t off = static_cast<size_t>(static_cast<const char*>(hit) - b);
      from = std::lower_bound(from, line_ends.end(), off);
      const auto k = static_cast<size_t>(from - line_ends.begin());
      if (k >= limit || !fn(k, off - line_start(k))) return;
      pos = *from + 1;
    }
  }

  // A run of complete lines: b[n-1] == '\n'.
  void process_block(const char* b, size_t n) {
    line_ends.clear();
    for (const char* p = b; p < b + n;) {
      const char* nl =
          static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(b + n - p)));
      line_ends.push_back(static_cast<size_t>(nl - b));
      p = nl + 1;
    }
    const size_t count = line_ends.size();
    const long long base = lines;
    for (auto& m : metrics)
      scan(m.matcher, b, n, count, [&](size_t k, size_t hit) {
        m.on_line(block_line(b, k), hit, base + static_cast<long long>(k) + 1);
        return true;
      });
    if (startup && startup_line == 0)
      scan(*startup, b, n, count, [&](size_t k, size_t hit) {
        if (!startup->match(block_line(b, k), hit)) return true;
        startup_line = base + static_cast<long long>(k) + 1;
        return false;
      });
    if (!status) {
      size_t best = count;  // the earliest line any pattern matched so far
      const StatusMatcher* best_sp = nullptr;
      for (const auto& sp : status_patterns)
        scan(sp.matcher, b, n, best, [&](size_t k, size_t hit) {
          if (!sp.matcher.match(block_line(b, k), hit)) return true;
          best = k;
          best_sp = &sp;
          return false;
        });
      if (best_sp)
        set_status(*best_sp, block_line(b, best), base + static_cast<long long>(best) + 1);
    }
    lines += static_cast<long long>(count);
  }

  void append_partial(const char* p, size_t n) {
    partial.append(p, std::min(n, kMaxLineBytes - std::min(kMaxLineBytes, partial.size())));
  }
};

Extractor::Extractor(const std::vector<MetricSpec>& metrics,
                     const std::vector<StatusPattern>& status, const StartupSpec& startup)
    : impl_(std::make_unique<Impl>()) {
  for (const auto& spec : metrics) {
    MetricState st;
    st.matcher = compile(spec.pattern, spec.loc, "metrics." + spec.name, 1);
    st.spec = spec;
    impl_->metrics.push_back(std::move(st));
  }
  for (const auto& sp : status)
    impl_->status_patterns.push_back(
        {sp.status, compile(sp.pattern, sp.loc, "status." + sp.status, -1)});
  if (!startup.first_step.empty())
    impl_->startup = compile(startup.first_step, startup.loc, "startup.first_step", -1);
}

Extractor::~Extractor() = default;
Extractor::Extractor(Extractor&&) noexcept = default;
Extractor& Extractor::operator=(Extractor&&) noexcept = default;

void Extractor::feed(std::string_view chunk) {
  Impl& s = *impl_;
  const char* p = chunk.data();
  const char* end = p + chunk.size();
  if (p == end) return;
  if (!s.partial.empty()) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', chunk.size()));
    if (!nl) {
      s.append_partial(p, chunk.size());
      return;
    }
    s.append_partial(p, static_cast<size_t>(nl - p));
    s.process_line(s.partial);
    s.partial.clear();
    p = nl + 1;
  }
  if (p == end) return;
  const char* last_nl = static_cast<const char*>(::memrchr(p, '\n', static_cast<size_t>(end - p)));
  if (last_nl) {
    s.process_block(p, static_cast<size_t>(last_nl + 1 - p));
    p = last_nl + 1;
  }
  s.append_partial(p, static_cast<size_t>(end - p));
}

void Extractor::finish() {
  Impl& s = *impl_;
  if (s.partial.empty()) return;
  s.process_line(s.partial);
  s.partial.clear();
}

bool Extractor::startup_seen() const {
  return impl_->startup_line != 0;
}
long long Extractor::startup_line() const {
  return impl_->startup_line;
}
const std::optional<Extractor::StatusHit>& Extractor::status() const {
  return impl_->status;
}
long long Extractor::lines() const {
  return impl_->lines;
}

std::vector<MetricValue> Extractor::metrics() const {
  std::vector<MetricValue> out;
  for (const auto& m : impl_->metrics)
    if (m.count > 0 || m.spec.reduce == Reduction::Count) out.push_back(m.reduced());
  return out;
}

std::vector<MetricSeries> Extractor::series() const {
  std::vector<MetricSeries> out;
  for (const auto& m : impl_->metrics)
    if (m.spec.series) out.push_back({m.spec.name, m.points});
  return out;
}

namespace {
// Owns a file descriptor.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};

// The read buffer: 2 MiB-aligned and backed by a transparent huge page when the kernel allows,
// which makes copying from the page cache and scanning it up to 4x faster than on 4 KiB pages.
std::unique_ptr<char, FreeDeleter> chunk_buffer() {
  constexpr size_t kAlign = 2u << 20;
  std::unique_ptr<char, FreeDeleter> p(static_cast<char*>(std::aligned_alloc(kAlign, kAlign)));
  if (!p) throw std::bad_alloc();
  ::madvise(p.get(), kAlign, MADV_HUGEPAGE);
  return p;
}
}  // namespace

Extractor extract_file(const std::string& path, const std::vector<MetricSpec>& metrics,
                       const std::vector<StatusPattern>& status, const StartupSpec& startup) {
  Extractor ex(metrics, status, startup);
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw SystemError("cannot read " + path + ": " + std::strerror(errno));
  ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
  constexpr size_t kChunk = 1u << 20;
  const auto buf = chunk_buffer();
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf.get(), kChunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw SystemError("error reading " + path + ": " + std::strerror(errno));
    }
    if (n == 0) break;
    ex.feed(std::string_view(buf.get(), static_cast<size_t>(n)));
  }
  ex.finish();
  return ex;
}

}  // namespace aerun
