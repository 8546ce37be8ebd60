#include "aerun/extract/extractor.hpp"

#include <fmt/format.h>
#include <re2/re2.h>
#include <string.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "aerun/judge/run_status.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/file_chunks.hpp"
#include "aerun/util/log_time.hpp"
#include "aerun/util/shell_quote.hpp"
#include "extract/clean_lines.hpp"
#include "extract/count_newlines.hpp"
#include "extract/exact_sum.hpp"
#include "extract/linear_pattern.hpp"
#include "extract/matcher.hpp"
#include "extract/metric_state.hpp"
#include "extract/multi_literal.hpp"
#include "extract/parse_number.hpp"
#include "extract/required_literal.hpp"

namespace aerun {

namespace {

constexpr size_t kMaxLineBytes = 64u << 20;  // a longer unterminated line is truncated
constexpr size_t kStatusLineBytes = 500;
constexpr size_t kMaxBlockBytes = 1u << 30;  // blocks are scanned with 32-bit offsets

using extract_detail::compile;
using extract_detail::Matcher;
using extract_detail::MetricState;
using extract_detail::truncate_utf8;

// One compiled pattern and what a match of it feeds.
struct Probe {
  enum class Kind { Metric, Status, Startup, JobStart, StepTime, End, Counter, Restart, Signature };
  Matcher matcher;
  Kind kind = Kind::Metric;
  size_t target = 0;  // index of the metric or status name
  double scale = 1;   // metrics: applied to the captured value
};

// A timestamp read from the log (job start or first step).
struct Stamp {
  std::optional<double> epoch;
  long long line = 0;
};

// The status lines of one status name the judge may need: the first, then the first after each
// of the last three progress lines (progress_after holds the progress count at the line until
// the lines are reported).
// Kept twice: with the presets' progress count, and with the generic reader's (which stands when
// the generic reader reads the log), each track choosing its lines by its own count.
struct StatusTrack {
  std::vector<LogHit> kept;

  void add(LogHit h) {
    if (!kept.empty() && kept.back().progress_after == h.progress_after) return;
    kept.push_back(std::move(h));
    if (kept.size() > 4) kept.erase(kept.begin() + 1);
  }
};

constexpr size_t kLastLineBytes = 300;
// Attempts and the status lines of earlier attempts kept (a log restarted more often keeps its
// first ones: the judge names only the last few anyway).
constexpr size_t kMaxAttempts = 4096;
constexpr size_t kMaxEarlierHits = 1024;

// The last non-blank line of b[0, n), without its leading blanks (cut to kLastLineBytes), or empty
// when all are blank.
std::string last_nonblank_line(const char* b, size_t n) {
  size_t end = n;
  for (int tries = 0; end > 0 && tries < 256; ++tries) {
    while (end > 0 &&
           (b[end - 1] == '\n' || b[end - 1] == '\r' || b[end - 1] == ' ' || b[end - 1] == '\t'))
      --end;
    if (end == 0) break;
    const void* nl = ::memrchr(b, '\n', end);
    size_t start = nl ? static_cast<size_t>(static_cast<const char*>(nl) - b) + 1 : 0;
    while (start < end && (b[start] == ' ' || b[start] == '\t')) ++start;
    const std::string_view line(b + start, end - start);
    if (line.size() <= kLastLineBytes) return std::string(line);
    return truncate_utf8(line, kLastLineBytes) + "...";
  }
  return "";
}

// Literals shorter than this are searched pattern by pattern instead of in the shared pass.
constexpr size_t kSharedLiteralMin = 4;

}  // namespace

// What an Extractor's patterns compile to: never changed once made, so one is shared by every
// Extractor made from it (fresh()), on any thread — the parts of a big log and the many logs of
// one case compile their patterns once.
struct Extractor::Patterns {
  std::vector<MetricSpec> metrics;
  std::vector<std::string> status_names;
  std::vector<Probe> probes;  // in priority order: metrics (patterns in order), status, startup
  std::vector<size_t> status_track;  // per status pattern: its status name's track
  size_t tracks = 0;
  bool has_progress_metrics = false;
  bool completion_configured = false;
  bool has_signatures = false;
  bool shape_required = false;
  bool generic_reader = true;
  std::string formats;
  long offset_s = 0;
  std::string job_start_format, step_time_format;

  // The shared literal pass: every distinct literal of at least kSharedLiteralMin bytes, and for
  // each the probes that need it; the other probes are scanned one by one.
  MultiLiteral shared;
  std::vector<std::vector<uint16_t>> literal_probes;
  // By literal: whether its one probe is a status pattern that starts with it and runs without
  // RE2. Such a probe is matched at each occurrence the pass reports, and its line gets an event
  // only at one where it matches.
  std::vector<uint8_t> matched_at_occurrence;
  std::vector<uint16_t> own_scan_probes;

  Patterns(const std::vector<MetricSpec>& metrics, const std::vector<StatusPattern>& status,
           const StartupSpec& startup, const CompletionSpec& completion);

  void build_scan_plan() {
    std::vector<std::string> lits;
    for (size_t p = 0; p < probes.size(); ++p) {
      const std::string& lit = probes[p].matcher.literal;
      if (lit.size() < kSharedLiteralMin) {
        own_scan_probes.push_back(static_cast<uint16_t>(p));
        continue;
      }
      const auto it = std::find(lits.begin(), lits.end(), lit);
      const size_t id = static_cast<size_t>(it - lits.begin());
      if (it == lits.end()) {
        lits.push_back(lit);
        literal_probes.emplace_back();
      }
      literal_probes[id].push_back(static_cast<uint16_t>(p));
    }
    for (const auto& ps : literal_probes) {
      const Probe& p = probes[ps.front()];
      matched_at_occurrence.push_back(ps.size() == 1 && p.kind == Probe::Kind::Status &&
                                      p.matcher.anchored && p.matcher.fast.has_value());
    }
    shared = MultiLiteral(std::move(lits));
  }
};

struct Extractor::Impl {
  std::shared_ptr<const Patterns> pat;
  // Parts of the patterns, under the names the code below reads them by.
  const std::vector<std::string>& status_names = pat->status_names;
  const std::vector<Probe>& probes = pat->probes;
  const std::vector<size_t>& status_track = pat->status_track;
  const MultiLiteral& shared = pat->shared;
  const std::vector<std::vector<uint16_t>>& literal_probes = pat->literal_probes;
  const std::vector<uint8_t>& matched_at_occurrence = pat->matched_at_occurrence;
  const std::vector<uint16_t>& own_scan_probes = pat->own_scan_probes;
  const long offset_s = pat->offset_s;
  const std::string& job_start_format = pat->job_start_format;
  const std::string& step_time_format = pat->step_time_format;

  std::vector<MetricState> metrics;
  long long startup_line = 0;
  std::optional<StatusHit> status;
  std::vector<StatusTrack> tracks;
  long long status_line = 0;  // the last line a status pattern matched (one status a line)
  long long progress_lines = 0, last_progress_line = 0;
  std::string last_progress_text;
  long long end_line = 0;
  std::optional<double> counter_done, counter_planned;
  long long counter_line = 0;
  std::string last_line;
  Stamp job_start, step_time;
  bool signature_seen = false;
  // Where later attempts start (progress_after holding the progress count at the line until they
  // are reported), and the status lines of the attempts before the current one.
  std::vector<AttemptStart> attempts;
  std::vector<LogHit> earlier_hits;
  // The generic reader, fed every line while no metric of the case has matched; and its progress
  // count at each attempt start and earlier hit.
  GenericReader generic;
  bool generic_on = true;
  std::vector<long long> attempts_generic;
  std::vector<StatusTrack> generic_tracks;  // as tracks, by the generic reader's count
  std::vector<LogHit> earlier_generic_hits;
  long long lines = 0;
  std::string partial;       // bytes of an unterminated line
  bool partial_cut = false;  // it reached kMaxLineBytes
  long long cut_lines = 0;   // lines cut at kMaxLineBytes
  long long first_cut_line = 0;

  std::vector<size_t> literal_last_line;  // per block: the last line a literal was reported on
  // Candidate (line in block << 16 | probe; the line's start and length in the block; the
  // literal's offset in the line), sorted before handling.
  struct Event {
    uint64_t key;
    uint32_t start, len, hit;
    bool operator<(const Event& o) const { return key < o.key; }
  };
  std::vector<Event> events, own_events, merged;
  std::string cleaned;           // a block without its escape sequences and lone '\r's
  size_t event_line = SIZE_MAX;  // the line whose bounds event_bounds holds
  std::pair<uint32_t, uint32_t> event_bounds;  // [start, end) of that line in the block

  explicit Impl(std::shared_ptr<const Patterns> p)
      : pat(std::move(p)),
        tracks(pat->tracks),
        generic_on(pat->generic_reader),
        generic_tracks(pat->tracks),
        literal_last_line(pat->literal_probes.size(), 0) {
    metrics.reserve(pat->metrics.size());
    for (const MetricSpec& spec : pat->metrics) {
      MetricState st;
      st.spec = spec;
      metrics.push_back(std::move(st));
    }
  }

  void set_status(size_t which, std::string_view line, long long line_no) {
    status = StatusHit{status_names[which], truncate_utf8(line, kStatusLineBytes), line_no};
  }

  void take_stamp(const Probe& p, Stamp& st, const std::string& format, std::string_view line,
                  size_t hit, long long no) {
    if (st.epoch) return;
    re2::StringPiece cap;
    if (!p.matcher.match(line, hit, &cap)) return;
    st.epoch = parse_log_time(std::string_view(cap.data(), cap.size()), format, offset_s);
    if (st.epoch) st.line = no;
  }

  // Probe p's literal occurs in the line at hit (0 without a literal): run the pattern.
  void handle(const Probe& p, std::string_view line, size_t hit, long long no) {
    switch (p.kind) {
      case Probe::Kind::Metric: {
        MetricState& m = metrics[p.target];
        if (m.taken_line == no) return;  // an earlier pattern of this metric matched the line
        re2::StringPiece cap;
        if (p.matcher.match(line, hit, &cap)) {
          m.on_match(std::string_view(cap.data(), cap.size()), p.scale, no);
          if (m.spec.progress && last_progress_line != no) {
            ++progress_lines;
            last_progress_line = no;
            last_progress_text = truncate_utf8(line, 300);
          }
        }
        return;
      }
      case Probe::Kind::Status:
        if (status_line == no || !p.matcher.match(line, hit)) return;
        status_line = no;
        if (!status) set_status(p.target, line, no);
        tracks[status_track[p.target]].add(LogHit{
            status_names[p.target], truncate_utf8(line, kStatusLineBytes), no, progress_lines});
        if (generic_on)
          generic_tracks[status_track[p.target]].add(LogHit{status_names[p.target],
                                                            truncate_utf8(line, kStatusLineBytes),
                                                            no, generic.progress_so_far()});
        return;
      case Probe::Kind::End:
        if (end_line != no && p.matcher.match(line, hit)) end_line = no;
        return;
      case Probe::Kind::Counter: {
        re2::StringPiece sub[3];
        if (!p.matcher.re2_match(line, hit, sub, 3)) return;
        const auto done = parse_number(std::string_view(sub[1].data(), sub[1].size()));
        const auto planned = parse_number(std::string_view(sub[2].data(), sub[2].size()));
        if (!done || !planned) return;
        counter_done = done;
        counter_planned = planned;
        counter_line = no;
        return;
      }
      case Probe::Kind::Startup:
        if (startup_line == 0 && p.matcher.match(line, hit)) startup_line = no;
        return;
      case Probe::Kind::JobStart:
        take_stamp(p, job_start, job_start_format, line, hit, no);
        return;
      case Probe::Kind::StepTime:
        take_stamp(p, step_time, step_time_format, line, hit, no);
        return;
      case Probe::Kind::Signature:
        if (!signature_seen && p.matcher.match(line, hit)) signature_seen = true;
        return;
      case Probe::Kind::Restart:
        if ((attempts.empty() || attempts.back().line_no != no) && p.matcher.match(line, hit))
          start_attempt(no);
        return;
    }
  }

  // A new attempt starts at line no: the status lines so far are the earlier attempts'.
  void start_attempt(long long no) {
    if (attempts.size() < kMaxAttempts) {
      attempts.push_back({no, progress_lines});
      attempts_generic.push_back(generic_count());
    }
    keep_as_earlier();
  }

  // The generic reader's progress lines so far (0 once it stopped: it no longer counts).
  long long generic_count() const { return generic_on ? generic.progress_so_far() : 0; }

  // Whether a metric of the case has matched a line: then the generic reader stops.
  bool case_metric_matched() const {
    for (const auto& m : metrics)
      if (m.matched > 0) return true;
    return false;
  }

  // Feeds the lines of b[0, n) (line `first` on; n at a line start or the end) to the generic
  // reader; returns the number of the line after them.
  long long feed_generic(const char* b, size_t n, long long first) {
    long long no = first;
    for (size_t at = 0; at < n;) {
      const char* nl = static_cast<const char*>(std::memchr(b + at, '\n', n - at));
      size_t end = nl ? static_cast<size_t>(nl - b) : n;
      size_t len = end - at;
      if (len > 0 && b[at + len - 1] == '\r') --len;
      generic.line(std::string_view(b + at, len), no++);
      at = end + 1;
    }
    return no;
  }

  // The status lines kept so far belong to attempts before the current one.
  void keep_as_earlier() {
    for (auto [from, to] :
         {std::pair{&tracks, &earlier_hits}, std::pair{&generic_tracks, &earlier_generic_hits}})
      for (StatusTrack& t : *from) {
        for (LogHit& h : t.kept)
          if (to->size() < kMaxEarlierHits) to->push_back(std::move(h));
        t.kept.clear();
      }
  }

  // One line on its own (a line split across chunks, or the last one): cleaned (clean_lines.hpp),
  // where a lone '\r' makes it several.
  void process_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (needs_cleaning(line.data(), line.size())) {
      std::string clean;
      clean_lines(line.data(), line.size(), clean);
      for (size_t start = 0;;) {
        const size_t end = std::min(clean.find('\n', start), clean.size());
        process_clean_line(std::string_view(clean).substr(start, end - start));
        if (end == clean.size()) break;
        start = end + 1;
      }
      return;
    }
    process_clean_line(line);
  }

  void process_clean_line(std::string_view line) {
    if (std::string last = last_nonblank_line(line.data(), line.size()); !last.empty())
      last_line = std::move(last);
    const long long no = ++lines;
    for (const auto& p : probes)
      if (const size_t hit = p.matcher.first_hit(line); hit != Matcher::npos)
        handle(p, line, hit, no);
    if (generic_on) {
      generic.line(line, no);
      if (case_metric_matched()) generic_on = false;
    }
  }

  // Calls fn(k, off) for each line k of the block (the number of '\n' before it) that may match,
  // with the offset off of the literal's first occurrence in it (the line's start without a
  // literal). With a literal, jumps from occurrence to occurrence.
  template <class Fn>
  void scan(const Matcher& m, const char* b, size_t n, Fn&& fn) {
    if (m.literal.empty()) {
      size_t k = 0;
      for (const char* p = b; p < b + n; ++k) {
        fn(k, static_cast<size_t>(p - b));
        p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(b + n - p))) + 1;
      }
      return;
    }
    size_t pos = 0, k = 0;  // k: newlines in b[0, pos)
    while (pos < n) {
      const void* hit = ::memmem(b + pos, n - pos, m.literal.data(), m.literal.size());
      if (!hit) return;
      const size_t off = static_cast<size_t>(static_cast<const char*>(hit) - b);
      k += count_newlines(b + pos, off - pos);
      fn(k, off);
      pos = static_cast<size_t>(static_cast<const char*>(std::memchr(b + off, '\n', n - off)) - b);
    }
  }

  // The line of the block around offset off: [start, end) without its '\n' and trailing '\r'.
  static std::pair<uint32_t, uint32_t> line_around(const char* b, size_t n, size_t off) {
    const void* prev = off ? ::memrchr(b, '\n', off) : nullptr;
    const size_t start = prev ? static_cast<size_t>(static_cast<const char*>(prev) - b) + 1 : 0;
    size_t end =
        static_cast<size_t>(static_cast<const char*>(std::memchr(b + off, '\n', n - off)) - b);
    if (end > start && b[end - 1] == '\r') --end;
    return {static_cast<uint32_t>(start), static_cast<uint32_t>(end)};
  }

  // Whether p (anchored at its literal, without RE2) matches at offset off of the block, within
  // its line as line_around() bounds it: what p.matcher.match would find at this occurrence.
  static bool matches_here(const Probe& p, const char* b, size_t n, size_t off) {
    size_t end =
        static_cast<size_t>(static_cast<const char*>(std::memchr(b + off, '\n', n - off)) - b);
    if (end > off && b[end - 1] == '\r') --end;
    return p.matcher.fast->match_at(std::string_view(b + off, end - off), 0, nullptr,
                                    p.matcher.known);
  }

  // The shared literal pass over b[0, n): the events of the probes whose literals occur, in line
  // order; returns the block's newlines (stopped: see MultiLiteral::scan).
  size_t scan_shared(const char* b, size_t n, bool* stopped) {
    events.clear();
    event_line = SIZE_MAX;
    std::fill(literal_last_line.begin(), literal_last_line.end(), SIZE_MAX);
    return shared.scan(
        b, n,
        [&](size_t lit, size_t off, size_t k) {
          if (literal_last_line[lit] == k) return;  // only its first occurrence in a line counts
          if (matched_at_occurrence[lit] &&
              !matches_here(probes[literal_probes[lit].front()], b, n, off))
            return;  // maybe at a later occurrence in the line
          literal_last_line[lit] = k;
          const auto& ps = literal_probes[lit];
          add_events(ps.data(), ps.data() + ps.size(), b, n, k, off);
        },
        stopped);
  }

  // Adds an event for each probe of the list on line k (at offset off of the block).
  void add_events(const uint16_t* probes_begin, const uint16_t* probes_end, const char* b, size_t n,
                  size_t k, size_t off) {
    if (k != event_line) {
      event_line = k;
      event_bounds = line_around(b, n, off);
    }
    for (const uint16_t* p = probes_begin; p != probes_end; ++p)
      events.push_back({static_cast<uint64_t>(k) << 16 | *p, event_bounds.first,
                        event_bounds.second - event_bounds.first,
                        static_cast<uint32_t>(off - event_bounds.first)});
  }

  // A run of complete lines: b[n-1] == '\n' (n < 4 GiB). Candidate lines come from one shared
  // pass over the literals, which also counts the lines (plus one pass per probe without a usable
  // literal), and are handled in line order, then probe order — exactly as process_line would,
  // line by line.
  void process_block(const char* b, size_t n) {
    // Escape sequences or a CR: read the cleaned lines. The SIMD literal pass looks for them in
    // the loads it makes anyway and stops at the first; elsewhere a pass of their own does.
    bool dirty = !shared.stops_at_escapes() && needs_cleaning(b, n);
    size_t newlines = dirty ? 0 : scan_shared(b, n, &dirty);
    if (dirty) {
      cleaned.clear();
      clean_lines(b, n, cleaned);
      b = cleaned.data();
      n = cleaned.size();
      newlines = scan_shared(b, n, nullptr);
    }
    // The shared events come in line order; sort each line's few by probe.
    for (size_t i = 1; i < events.size(); ++i)
      for (size_t j = i; j > 0 && events[j] < events[j - 1]; --j)
        std::swap(events[j], events[j - 1]);
    if (!own_scan_probes.empty()) {
      own_events.clear();
      std::swap(events, own_events);
      for (const uint16_t p : own_scan_probes) {
        event_line = SIZE_MAX;
        scan(probes[p].matcher, b, n,
             [&](size_t k, size_t off) { add_events(&p, &p + 1, b, n, k, off); });
      }
      std::sort(events.begin(), events.end());
      merged.clear();
      std::merge(own_events.begin(), own_events.end(), events.begin(), events.end(),
                 std::back_inserter(merged));
      std::swap(events, merged);
    }
    const long long base = lines;
    // The generic reader takes every line, while no metric of the case has matched one, in
    // step with the events: a status line sees the progress lines before it.
    const bool feed = generic_on;
    size_t fed = 0;
    long long fed_line = base + 1;
    for (const Event& e : events) {
      const size_t line = static_cast<size_t>(e.key >> 16);
      if (feed && e.start > fed) {
        fed_line = feed_generic(b + fed, e.start - fed, fed_line);
        fed = e.start;
      }
      handle(probes[e.key & 0xFFFF], std::string_view(b + e.start, e.len), e.hit,
             base + static_cast<long long>(line) + 1);
    }
    if (feed) {
      if (fed < n) feed_generic(b + fed, n - fed, fed_line);
      if (case_metric_matched()) generic_on = false;
    }
    lines += static_cast<long long>(newlines);
    if (std::string last = last_nonblank_line(b, n); !last.empty()) last_line = std::move(last);
  }

  // Appends to the line being assembled, cut at kMaxLineBytes (counted once per line).
  void append_partial(const char* p, size_t n) {
    const size_t room = kMaxLineBytes - std::min(kMaxLineBytes, partial.size());
    if (n > room && !partial_cut) {
      partial_cut = true;
      if (++cut_lines == 1) first_cut_line = lines + 1;
    }
    partial.append(p, std::min(n, room));
  }
  void end_partial() {
    process_line(partial);
    partial.clear();
    partial_cut = false;
  }

  // Extractor::append: b read the lines that follow this one's.
  void append(Impl&& b) {
    const long long off = lines;
    for (size_t i = 0; i < metrics.size(); ++i) metrics[i].append(std::move(b.metrics[i]), off);
    if (startup_line == 0 && b.startup_line != 0) startup_line = b.startup_line + off;
    if (!status && b.status) {
      status = std::move(b.status);
      status->line_no += off;
    }
    const long long goff = generic_count();
    if (!b.attempts.empty()) {  // b started attempts: what this part kept is theirs before
      keep_as_earlier();
      for (LogHit h : b.earlier_hits) {
        h.line_no += off;
        h.progress_after += progress_lines;
        if (earlier_hits.size() < kMaxEarlierHits) earlier_hits.push_back(std::move(h));
      }
      for (LogHit h : b.earlier_generic_hits) {
        h.line_no += off;
        h.progress_after += goff;
        if (earlier_generic_hits.size() < kMaxEarlierHits)
          earlier_generic_hits.push_back(std::move(h));
      }
      for (size_t i = 0; i < b.attempts.size(); ++i) {
        AttemptStart a = b.attempts[i];
        a.line_no += off;
        a.progress_after += progress_lines;
        if (attempts.size() < kMaxAttempts) {
          attempts.push_back(a);
          attempts_generic.push_back(b.attempts_generic[i] + goff);
        }
      }
    }
    for (size_t t = 0; t < tracks.size(); ++t) {
      for (LogHit h : b.tracks[t].kept) {
        h.line_no += off;
        h.progress_after += progress_lines;
        tracks[t].add(std::move(h));
      }
      for (LogHit h : b.generic_tracks[t].kept) {
        h.line_no += off;
        h.progress_after += goff;
        generic_tracks[t].add(std::move(h));
      }
    }
    // The generic reader's lines of b are already numbered in the whole log's lines (b's own
    // numbering starts at 1: renumbered here by reading b's lines' numbers as offsets).
    if (generic_on && b.generic_on) {
      generic.append(std::move(b.generic), off);
    } else {
      generic_on = false;
    }
    signature_seen = signature_seen || b.signature_seen;
    if (b.status_line != 0) status_line = b.status_line + off;
    if (b.progress_lines > 0) {
      last_progress_line = b.last_progress_line + off;
      last_progress_text = std::move(b.last_progress_text);
    }
    progress_lines += b.progress_lines;
    if (b.end_line != 0) end_line = b.end_line + off;
    if (b.counter_line != 0) {
      counter_done = b.counter_done;
      counter_planned = b.counter_planned;
      counter_line = b.counter_line + off;
    }
    if (!b.last_line.empty()) last_line = std::move(b.last_line);
    for (auto [mine, theirs] : {std::pair{&job_start, &b.job_start}, {&step_time, &b.step_time}})
      if (!mine->epoch && theirs->epoch) *mine = {theirs->epoch, theirs->line + off};
    if (cut_lines == 0 && b.cut_lines > 0) first_cut_line = b.first_cut_line + off;
    cut_lines += b.cut_lines;
    lines += b.lines;
    partial = std::move(b.partial);
    partial_cut = b.partial_cut;
  }
};

Extractor::Extractor(const CaseSpec& spec)
    : Extractor(spec.metrics, spec.status, spec.startup, spec.completion) {}

Extractor::Patterns::Patterns(const std::vector<MetricSpec>& metric_specs,
                              const std::vector<StatusPattern>& status, const StartupSpec& startup,
                              const CompletionSpec& completion) {
  Patterns& s = *this;
  for (const auto& spec : metric_specs) {
    const size_t index = s.metrics.size();
    const std::string key = "metrics." + spec.name;
    s.probes.push_back(
        {compile(spec.pattern, spec.loc, key, 1), Probe::Kind::Metric, index, spec.scale});
    for (const auto& alt : spec.alternatives)
      s.probes.push_back(
          {compile(alt.pattern, spec.loc, key, 1), Probe::Kind::Metric, index, alt.scale});
    s.metrics.push_back(spec);
    s.has_progress_metrics = s.has_progress_metrics || spec.progress;
  }
  for (const auto& sp : status) {
    s.probes.push_back({compile(sp.pattern, sp.loc, "status." + sp.status, -1), Probe::Kind::Status,
                        s.status_names.size(), 1});
    s.status_names.push_back(sp.status);
    const auto same = std::find(s.status_names.begin(), s.status_names.end(), sp.status);
    const size_t first = static_cast<size_t>(same - s.status_names.begin());
    if (first + 1 == s.status_names.size()) {
      s.status_track.push_back(s.tracks++);
    } else {
      s.status_track.push_back(s.status_track[first]);
    }
  }
  for (const auto& re : completion.end)
    s.probes.push_back({compile(re, completion.loc, "completion.end", -1), Probe::Kind::End, 0, 1});
  for (const auto& re : completion.counter)
    s.probes.push_back(
        {compile(re, completion.loc, "completion.counter", 2), Probe::Kind::Counter, 0, 1});
  for (const auto& re : completion.restart)
    s.probes.push_back(
        {compile(re, completion.loc, "completion.restart", -1), Probe::Kind::Restart, 0, 1});
  for (const auto& re : completion.signatures)
    s.probes.push_back(
        {compile(re, completion.loc, "signatures", -1), Probe::Kind::Signature, 0, 1});
  // AERUN_GENERIC_READER=off: no generic reader (bench/run.sh generic compares the two).
  if (const char* g = std::getenv("AERUN_GENERIC_READER"); g && std::string_view(g) == "off")
    s.generic_reader = false;
  s.has_signatures = !completion.signatures.empty();
  s.shape_required = completion.shape_required;
  s.formats = completion.formats;
  s.completion_configured = !completion.end.empty() || !completion.counter.empty();
  if (!startup.first_step.empty())
    s.probes.push_back({compile(startup.first_step, startup.loc, "startup.first_step", -1),
                        Probe::Kind::Startup, 0, 1});
  if (!startup.job_start.empty() || !startup.step_time.empty()) {
    const auto offset = parse_utc_offset(startup.tz);
    if (!offset)
      throw InputError(
          startup.loc, "startup.tz",
          "unknown time zone '" + startup.tz + "'; write UTC or an offset like +02:00");
    s.offset_s = *offset;
  }
  if (!startup.job_start.empty()) {
    s.probes.push_back({compile(startup.job_start, startup.loc, "startup.job_start", 1),
                        Probe::Kind::JobStart, 0, 1});
    s.job_start_format = startup.job_start_format;
  }
  if (!startup.step_time.empty()) {
    s.probes.push_back({compile(startup.step_time, startup.loc, "startup.step_time", 1),
                        Probe::Kind::StepTime, 0, 1});
    s.step_time_format = startup.step_time_format;
  }
  if (s.probes.size() > 0xFFFF)
    throw InputError(startup.loc, "metrics", "too many patterns (at most 65535)");
  s.build_scan_plan();
}

Extractor::Extractor(const std::vector<MetricSpec>& metrics,
                     const std::vector<StatusPattern>& status, const StartupSpec& startup,
                     const CompletionSpec& completion)
    : impl_(std::make_unique<Impl>(
          std::make_shared<const Patterns>(metrics, status, startup, completion))) {}

Extractor::Extractor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Extractor Extractor::fresh() const {
  return Extractor(std::make_unique<Impl>(impl_->pat));
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
    s.end_partial();
    p = nl + 1;
  }
  if (p == end) return;
  const char* last_nl = static_cast<const char*>(::memrchr(p, '\n', static_cast<size_t>(end - p)));
  const char* const stop = last_nl ? last_nl + 1 : p;
  while (p < stop) {  // in blocks of at most kMaxBlockBytes, cut at line ends
    size_t len = static_cast<size_t>(stop - p);
    if (len > kMaxBlockBytes) {
      const auto* cut = static_cast<const char*>(::memrchr(p, '\n', kMaxBlockBytes));
      if (!cut) {  // a line longer than a block, on its own
        cut = static_cast<const char*>(
            std::memchr(p + kMaxBlockBytes, '\n', static_cast<size_t>(stop - p) - kMaxBlockBytes));
        s.process_line(std::string_view(p, static_cast<size_t>(cut - p)));
        p = cut + 1;
        continue;
      }
      len = static_cast<size_t>(cut + 1 - p);
    }
    s.process_block(p, len);
    p += len;
  }
  s.append_partial(p, static_cast<size_t>(end - p));
}

void Extractor::follows_earlier_part() {
  for (auto& m : impl_->metrics) m.defer_skip = true;
}

void Extractor::append(Extractor&& next) {
  if (!impl_->partial.empty())
    throw std::logic_error("Extractor::append: this part does not end at a line end");
  for (const auto& m : impl_->metrics)
    if (m.defer_skip) throw std::logic_error("Extractor::append: this part follows another");
  if (next.impl_->metrics.size() != impl_->metrics.size() ||
      next.impl_->tracks.size() != impl_->tracks.size())
    throw std::logic_error("Extractor::append: not the same patterns");
  impl_->append(std::move(*next.impl_));
}

void Extractor::finish() {
  Impl& s = *impl_;
  if (s.partial.empty()) return;
  s.end_partial();
}

std::optional<std::pair<double, double>> Extractor::counter() const {
  if (!impl_->counter_done || !impl_->counter_planned) return std::nullopt;
  return std::make_pair(*impl_->counter_done, *impl_->counter_planned);
}

long long Extractor::progress_lines() const {
  return impl_->progress_lines;
}
const std::string& Extractor::last_progress_text() const {
  return impl_->last_progress_text;
}
long long Extractor::last_progress_line() const {
  return impl_->last_progress_line;
}

bool Extractor::progress_seen() const {
  if (!impl_->pat->has_progress_metrics) return true;
  for (const auto& m : impl_->metrics)
    if (m.spec.progress && m.matched > 0) return true;
  return false;
}

std::optional<double> Extractor::job_start_time() const {
  return impl_->job_start.epoch;
}
std::optional<double> Extractor::step_time() const {
  return impl_->step_time.epoch;
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
void Extractor::describe(RunEvidence& e) const {
  const Impl& s = *impl_;
  // When the generic reader reads the log, its progress stands: its count beside each line.
  const bool use_generic = generic_used();
  const GenericFindings g = use_generic ? s.generic.findings() : GenericFindings{};
  const long long progress = use_generic ? g.progress_lines : s.progress_lines;
  e.hits.clear();
  // Kept with the progress count at the line: the judge wants the progress lines after it.
  const auto report = [&](LogHit h) {
    h.progress_after = progress - h.progress_after;
    e.hits.push_back(std::move(h));
  };
  for (const LogHit& h : use_generic ? s.earlier_generic_hits : s.earlier_hits) report(h);
  for (const auto& t : use_generic ? s.generic_tracks : s.tracks)
    for (const LogHit& h : t.kept) report(h);
  // A loss the generic reader saw become nan or inf and stay so, when no line of the case's
  // patterns already says the run diverged.
  if (use_generic && g.diverged_line != 0 &&
      std::none_of(e.hits.begin(), e.hits.end(),
                   [](const LogHit& h) { return h.status == run_status::diverged; }))
    e.hits.push_back(LogHit{
        run_status::diverged,
        "the loss is " + std::string("nan or inf from here to its last line: ") + g.diverged_text,
        g.diverged_line, 0});
  e.attempts.clear();
  for (size_t i = 0; i < s.attempts.size(); ++i) {
    AttemptStart a = s.attempts[i];
    a.progress_after = progress - (use_generic ? s.attempts_generic[i] : a.progress_after);
    e.attempts.push_back(a);
  }
  long long end_line = s.end_line, counter_line = s.counter_line;
  std::optional<double> done = s.counter_done, planned = s.counter_planned;
  if (use_generic) {
    if (end_line == 0) end_line = g.end_line;
    if (counter_line == 0 && g.counter_line != 0) {
      done = g.counter_done;
      planned = g.counter_planned;
      counter_line = g.counter_line;
    }
  }
  std::sort(e.hits.begin(), e.hits.end(),
            [](const LogHit& a, const LogHit& b) { return a.line_no < b.line_no; });
  // No end line, but the run's closing report after its progress: the end, unless a status line
  // after it says otherwise (a crash after the summary is no teardown to forgive).
  if (use_generic && end_line == 0 && g.closing_line != 0 &&
      (e.hits.empty() || e.hits.back().line_no < g.closing_line))
    end_line = g.closing_line;
  e.format_unknown = (s.pat->has_signatures || s.pat->shape_required) && !s.signature_seen &&
                     progress == 0 && end_line == 0 && counter_line == 0;
  e.formats = s.pat->formats;
  e.progress_expected = s.pat->has_progress_metrics;
  e.progress_lines = progress;
  e.last_progress_line = use_generic ? g.last_progress_line : s.last_progress_line;
  e.end_line = end_line;
  e.counter_done = done;
  e.counter_planned = planned;
  e.counter_line = counter_line;
  e.completion_configured = s.pat->completion_configured;
  e.last_line = s.last_line;
}

long long Extractor::lines() const {
  return impl_->lines;
}

bool Extractor::generic_used() const {
  return impl_->generic_on && !impl_->case_metric_matched();
}

std::vector<TemplateExplained> Extractor::explain_generic(size_t limit) const {
  return impl_->generic.explain(limit);
}

std::vector<MetricValue> Extractor::metrics() const {
  std::vector<MetricValue> out;
  for (const auto& m : impl_->metrics)
    if (m.count > 0 || m.spec.reduce == Reduction::Count) out.push_back(m.reduced());
  const Impl& s = *impl_;
  // The generic reader's metrics, but never under a name of the case's (one without a value
  // included: the name is the case's).
  if (generic_used())
    for (MetricValue& m : s.generic.findings().metrics)
      if (std::none_of(s.metrics.begin(), s.metrics.end(),
                       [&](const MetricState& c) { return c.spec.name == m.name; }) &&
          std::none_of(out.begin(), out.end(),
                       [&](const MetricValue& o) { return o.name == m.name; }))
        out.push_back(std::move(m));
  if (s.job_start.epoch && s.step_time.epoch)
    out.push_back({std::string(kLogStartupMetric), *s.step_time.epoch - *s.job_start.epoch, "s", 1,
                   s.step_time.line});
  return out;
}

std::vector<std::string> Extractor::warnings() const {
  const Impl& s = *impl_;
  std::vector<std::string> out;
  if (s.cut_lines > 0)
    out.push_back(fmt::format(
        "{} line{} longer than {} MiB: only the first {} MiB of each matched (first: line {})",
        s.cut_lines, s.cut_lines == 1 ? " was" : "s were", kMaxLineBytes >> 20, kMaxLineBytes >> 20,
        s.first_cut_line));
  for (const auto& m : s.metrics)
    if (m.not_numbers > 0)
      out.push_back(fmt::format(
          "metric {}: {} capture{} not a finite decimal number and not used (first: line {}, "
          "\"{}\")",
          m.spec.name, m.not_numbers, m.not_numbers == 1 ? " was" : "s were",
          m.first_not_number_line, printable(m.first_not_number)));
  return out;
}

std::vector<MetricSeries> Extractor::series() const {
  std::vector<MetricSeries> out;
  for (const auto& m : impl_->metrics)
    if (m.spec.series) out.push_back({m.spec.name, m.points});
  return out;
}

std::optional<Extractor> try_extractor(const CaseSpec& spec) {
  try {
    return Extractor(spec);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

Extractor extract_file(const std::string& path, const std::vector<MetricSpec>& metrics,
                       const std::vector<StatusPattern>& status, const StartupSpec& startup,
                       const CompletionSpec& completion) {
  Extractor ex(metrics, status, startup, completion);
  for_each_chunk(path, [&](std::string_view chunk) { ex.feed(chunk); });
  ex.finish();
  return ex;
}

}  // namespace aerun
