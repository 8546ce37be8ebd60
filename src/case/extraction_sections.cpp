// The extraction sections of a case file: metrics, status and startup patterns (RE2).
#include <re2/re2.h>

#include <algorithm>

#include "aerun/util/log_time.hpp"
#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

// Compiles `pattern` (as the runner will) and, when `groups` >= 0, checks its capture groups.
void check_regex(const std::string& pattern, const Item& at, const std::string& what, int groups) {
  const RE2 re(pattern, RE2::Quiet);
  if (!re.ok()) throw InputError(at.loc, at.key, "invalid regex for " + what + ": " + re.error());
  if (groups >= 0 && re.NumberOfCapturingGroups() != groups)
    throw InputError(at.loc, at.key,
                     "the regex of " + what + " must have exactly " +
                         (groups == 1 ? std::string("one capture group")
                                      : std::to_string(groups) + " capture groups") +
                         " (it has " + std::to_string(re.NumberOfCapturingGroups()) +
                         "); write (?:...) for groups that only group");
}

// `key: regex` or `key: [regex, ...]`: the items, never none.
std::vector<Item> one_or_more(const YamlReader& r, const Item& e) {
  std::vector<Item> items;
  if (e.node.IsSequence())
    items = r.elements(e);
  else
    items.push_back(e);
  if (items.empty()) throw InputError(e.loc, e.key, "the list of regexes is empty");
  return items;
}

Reduction read_reduction(const YamlReader& r, const Item& e) {
  static const std::vector<std::pair<std::string, Reduction>> names{
      {"first", Reduction::First},   {"last", Reduction::Last}, {"mean", Reduction::Mean},
      {"median", Reduction::Median}, {"min", Reduction::Min},   {"max", Reduction::Max},
      {"count", Reduction::Count},   {"sum", Reduction::Sum}};
  const std::string s = r.text(e);
  std::vector<std::string> valid;
  for (const auto& [n, red] : names) {
    if (n == s) return red;
    valid.push_back(n);
  }
  throw InputError(e.loc, e.key,
                   "unknown reduction '" + s + "'" + did_you_mean(s, valid) +
                       "; use first, last, mean, median, min, max, count or sum");
}

MetricSpec read_metric(const YamlReader& r, const Item& m) {
  if (!is_identifier(m.name))
    throw InputError(m.key_loc, m.key,
                     "metric names are identifiers ([A-Za-z_][A-Za-z0-9_]*), not '" + m.name + "'");
  MetricSpec spec;
  spec.name = m.name;
  spec.loc = m.key_loc;
  const std::string what = "metric '" + m.name + "'";
  if (m.node.IsScalar()) {  // `name: regex`
    spec.pattern = r.text(m);
    check_regex(spec.pattern, m, what, 1);
    return spec;
  }
  if (!m.node.IsMap())
    throw InputError(m.loc, m.key,
                     "expected a regex or a map with 'regex', got " + describe(m.node));
  bool has_regex = false;
  for (const Item& e :
       r.entries(m, {"regex", "reduce", "skip", "unit", "scale", "series", "progress", "better"})) {
    if (e.name == "regex") {
      spec.pattern = r.text(e);
      check_regex(spec.pattern, e, what, 1);
      has_regex = true;
    } else if (e.name == "reduce") {
      spec.reduce = read_reduction(r, e);
    } else if (e.name == "skip") {
      const long long n = r.integer(e);
      if (n < 0 || n > 1000000000) throw InputError(e.loc, e.key, "must be 0 or more");
      spec.skip = static_cast<int>(n);
    } else if (e.name == "unit") {
      spec.unit = r.text(e);
    } else if (e.name == "scale") {
      spec.scale = r.number(e);
    } else if (e.name == "series") {
      spec.series = r.boolean(e);
    } else if (e.name == "progress") {
      spec.progress = r.boolean(e);
    } else if (e.name == "better") {
      spec.better = r.text(e);
      if (spec.better != "higher" && spec.better != "lower")
        throw InputError(e.loc, e.key,
                         "'" + spec.better + "': a metric is better `higher` or `lower`");
    }
  }
  if (!has_regex) throw InputError(m.loc, m.key, "missing required key 'regex'");
  return spec;
}

}  // namespace

void read_metrics(const YamlReader& r, const Item& it, CaseSpec& spec) {
  for (const Item& m : r.entries(it)) spec.metrics.push_back(read_metric(r, m));
}

void read_status(const YamlReader& r, const Item& it, CaseSpec& spec) {
  if (it.node.IsMap()) {  // status: regex | [regex, ...]
    for (const Item& e : r.entries(it)) {
      for (const Item& p : one_or_more(r, e)) {
        StatusPattern s{r.text(p), e.name, p.loc};
        check_regex(s.pattern, p, "status '" + e.name + "'", -1);
        spec.status.push_back(std::move(s));
      }
    }
    return;
  }
  if (!it.node.IsSequence())
    throw InputError(
        it.loc, it.key,
        "expected a list of {regex, status} or a map status: regex, got " + describe(it.node));
  for (const Item& g : r.elements(it)) {
    StatusPattern s;
    s.loc = g.loc;
    for (const Item& e : r.entries(g, {"regex", "status"})) {
      if (e.name == "regex") {
        s.pattern = r.text(e);
        check_regex(s.pattern, e, "a status pattern", -1);
      } else {
        s.status = r.text(e);
      }
    }
    if (s.pattern.empty()) throw InputError(g.loc, g.key, "missing required key 'regex'");
    if (s.status.empty()) throw InputError(g.loc, g.key, "missing required key 'status'");
    spec.status.push_back(std::move(s));
  }
}

void read_startup(const YamlReader& r, const Item& it, CaseSpec& spec) {
  spec.startup.loc = it.loc;
  if (it.node.IsScalar()) {
    spec.startup.first_step = r.text(it);
    check_regex(spec.startup.first_step, it, "startup", -1);
    return;
  }
  if (!it.node.IsMap())
    throw InputError(it.loc, it.key,
                     "expected a regex or a map with 'first_step', got " + describe(it.node));
  StartupSpec& st = spec.startup;
  for (const Item& e : r.entries(it, {"first_step", "job_start", "job_start_format", "step_time",
                                      "step_time_format", "tz"})) {
    if (e.name == "first_step") {
      st.first_step = r.text(e);
      st.loc = e.loc;
      check_regex(st.first_step, e, "startup", -1);
    } else if (e.name == "job_start" || e.name == "step_time") {
      (e.name == "job_start" ? st.job_start : st.step_time) = r.text(e);
      check_regex(r.text(e), e, "startup." + e.name, 1);
    } else if (e.name == "job_start_format" || e.name == "step_time_format") {
      (e.name == "job_start_format" ? st.job_start_format : st.step_time_format) = r.text(e);
    } else if (e.name == "tz") {
      st.tz = r.text(e);
      if (!parse_utc_offset(st.tz))
        throw InputError(e.loc, e.key,
                         "unknown time zone '" + st.tz +
                             "'; write UTC or a fixed offset such as +02:00 or -0500");
    }
  }
  if (st.first_step.empty() && st.job_start.empty())
    throw InputError(it.loc, it.key, "missing required key 'first_step' (or 'job_start')");
  if (st.job_start.empty() != st.step_time.empty())
    throw InputError(it.loc, it.key,
                     "'job_start' and 'step_time' go together: the startup is their difference");
  if (!st.job_start.empty() && (st.job_start_format.empty() || st.step_time_format.empty()))
    throw InputError(it.loc, it.key,
                     "'job_start_format' and 'step_time_format' are required with 'job_start' "
                     "(e.g. '%Y-%m-%d-%H%M%S')");
}

// completion: {end: regex | [regex, ...], counter: regex | [regex, ...]}
void read_completion(const YamlReader& r, const Item& it, CaseSpec& spec) {
  if (!it.node.IsMap())
    throw InputError(it.loc, it.key,
                     "expected a map with 'end' and/or 'counter', got " + describe(it.node));
  spec.completion.loc = it.loc;
  for (const Item& e : r.entries(it, {"end", "counter"})) {
    for (const Item& p : one_or_more(r, e)) {
      const std::string re = r.text(p);
      if (e.name == "end") {
        check_regex(re, p, "completion.end", -1);
        spec.completion.end.push_back(re);
      } else {
        check_regex(re, p, "completion.counter (done, then planned)", 2);
        spec.completion.counter.push_back(re);
      }
    }
  }
}

}  // namespace aerun::detail
