#include "aerun/report/run_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "aerun/report/env_record_diff.hpp"
#include "aerun/util/secret_text.hpp"
#include "aerun/util/shell_quote.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

constexpr size_t kColumn = 26;  // the width of the A and B columns

// One section of name, A, B lines: the different ones always, the same ones when `all`.
class Section {
 public:
  Section(std::string title, bool all) : title_(std::move(title)), all_(all) {}

  void row(const std::string& name, const std::string& a, const std::string& b,
           const std::string& note = "") {
    const bool same = a == b;
    same ? ++same_ : ++different_;
    if (!same || all_) {
      if (a.size() > kColumn || b.size() > kColumn) {  // too wide for columns: one line each
        lines_ += fmt::format("  {}{}\n    A  {}\n    B  {}\n", name,
                              note.empty() ? "" : "  " + note, a, b);
        return;
      }
      std::string line = fmt::format("  {:<20} {:<26} {:<26} {}", name, a, b, note);
      while (!line.empty() && line.back() == ' ') line.pop_back();
      lines_ += line + "\n";
    }
  }
  int different() const { return different_; }
  std::string text() const {
    if (same_ + different_ == 0) return "";
    std::string head = fmt::format("{} ({} differ{})\n", title_, different_,
                                   same_ ? fmt::format(", {} the same", same_) : "");
    return head + lines_;
  }

 private:
  std::string title_;
  bool all_;
  int same_ = 0, different_ = 0;
  std::string lines_;
};

std::string shown(std::string_view s) {
  return s.empty() ? "-" : printable(s);
}

std::string seconds(const std::optional<double>& s) {
  return s ? fmt::format("{:.3f} s", *s) : "-";
}

// B against A: "+12.5 %", "-3.0 %", "" when either is missing or A is 0.
std::string change(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *a == 0 || !std::isfinite(*a) || !std::isfinite(*b)) return "";
  const double pct = (*b / *a - 1) * 100;
  if (std::fabs(pct) < 0.05) return "(same)";
  return fmt::format("{:+.1f} %", pct);
}

const Value* param(const ParamList& ps, const std::string& name) {
  for (const auto& [n, v] : ps)
    if (n == name) return &v;
  return nullptr;
}

const MetricValue* metric(const RunRecord& r, const std::string& name) {
  for (const auto& m : r.metrics)
    if (m.name == name) return &m;
  return nullptr;
}

// Names of both lists: A's order, then B's own.
template <class List, class Name>
std::vector<std::string> names_of(const List& a, const List& b, Name name) {
  std::vector<std::string> out;
  for (const auto& x : a) out.push_back(name(x));
  for (const auto& x : b)
    if (std::find(out.begin(), out.end(), name(x)) == out.end()) out.push_back(name(x));
  return out;
}

}  // namespace

RunDiff diff_runs(const RunRecord& a, const RunRecord& b, bool all, const EnvRecord* env_a,
                  const EnvRecord* env_b) {
  RunDiff d;
  std::string& o = d.text;
  o += fmt::format("A  {}  {}  repeat {}  attempt {}  {}\n", a.key.substr(0, 12),
                   shown(a.case_name), a.repeat_index, a.attempt, shown(a.status));
  o += fmt::format("B  {}  {}  repeat {}  attempt {}  {}\n", b.key.substr(0, 12),
                   shown(b.case_name), b.repeat_index, b.attempt, shown(b.status));
  o += fmt::format("  {:<20} {:<26} B\n", "", "A");

  Section params("parameters", all);
  const auto pname = [](const auto& p) { return p.first; };
  for (const auto& n : names_of(a.params, b.params, pname)) {
    const Value* va = param(a.params, n);
    const Value* vb = param(b.params, n);
    params.row(n, va ? shown(shown_param(n, va->text())) : "(none)",
               vb ? shown(shown_param(n, vb->text())) : "(none)");
  }

  Section metrics("metrics", true);  // every metric: a reviewer compares the numbers
  const auto mname = [](const MetricValue& m) { return m.name; };
  for (const auto& n : names_of(a.metrics, b.metrics, mname)) {
    const MetricValue* ma = metric(a, n);
    const MetricValue* mb = metric(b, n);
    const auto text = [](const MetricValue* m) {
      return m ? format_number(m->value, ".6g") + (m->unit.empty() ? "" : " " + m->unit)
               : std::string("(none)");
    };
    metrics.row(n, text(ma), text(mb),
                change(ma ? std::optional(ma->value) : std::nullopt,
                       mb ? std::optional(mb->value) : std::nullopt));
  }

  Section times("times", true);
  times.row("startup", seconds(a.startup_s), seconds(b.startup_s),
            change(a.startup_s, b.startup_s));
  times.row("wall", seconds(a.wall_s), seconds(b.wall_s), change(a.wall_s, b.wall_s));
  if (a.queue_wait_s || b.queue_wait_s)
    times.row("queue wait", seconds(a.queue_wait_s), seconds(b.queue_wait_s));

  Section how("how it ran", all);
  how.row("case", shown(a.case_name), shown(b.case_name));
  how.row("case version", shown(a.case_version), shown(b.case_version));
  how.row("case file sha256", shown(a.case_digest.substr(0, 16)),
          shown(b.case_digest.substr(0, 16)));
  if (!a.container_image.empty() || !b.container_image.empty()) {
    how.row("image", shown(a.container_image), shown(b.container_image));
    how.row("image digest", shown(a.container_digest), shown(b.container_digest));
  }
  // As `show` prints it: a secret parameter's value found in the command too (issue 40's fourth
  // pass: `echo connecting {password}` was shown whole by diff alone).
  how.row("command", shown(without_param_secrets(redacted_command(a.command), a.params)),
          shown(without_param_secrets(redacted_command(b.command), b.params)));
  how.row("workdir", shown(a.workdir), shown(b.workdir));
  if (!a.system.empty() || !b.system.empty())
    how.row("system", shown(a.system.empty() ? "local" : a.system),
            shown(b.system.empty() ? "local" : b.system));
  how.row("host", shown(a.host), shown(b.host));
  how.row("nodes", shown(a.nodes), shown(b.nodes));
  how.row("aerun", shown(a.aerun_version), shown(b.aerun_version));
  how.row("git commit", shown(a.git_commit), shown(b.git_commit));
  how.row("scheduler", shown(a.scheduler), shown(b.scheduler));

  Section env("environment set by the case", all);
  for (const auto& n : names_of(a.env, b.env, pname)) {
    const Value* va = param(a.env, n);
    const Value* vb = param(b.env, n);
    env.row(n, va ? shown(shown_variable(n, va->text())) : "(unset)",
            vb ? shown(shown_variable(n, vb->text())) : "(unset)");
  }

  for (const Section* s : {&params, &metrics, &times, &how, &env}) o += s->text();
  const EnvRecordDiff record = diff_env_records(env_a, env_b, all);
  if (env_a && env_b && a.session_id != 0 && a.session_id == b.session_id)
    o += "environment record (the same: both runs are of one session)\n";
  else
    o += record.text;
  d.differs = params.different() + how.different() + env.different() + record.different > 0;
  return d;
}

}  // namespace aerun
