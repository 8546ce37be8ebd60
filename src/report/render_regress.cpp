// `aerun regress` outputs: Markdown for people, JUnit XML for CI pages, JSON for scripts.
#include <fmt/format.h>

#include <map>

#include "aerun/report/regress.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

std::string num(std::optional<double> v) {
  return v ? format_number(*v, ".4g") : "—";
}

std::string side(std::optional<double> median, int n, const std::string& unit) {
  if (!median) return "—";
  return fmt::format("{}{} (n={})", num(median), unit.empty() ? "" : " " + unit, n);
}

std::string change_text(const RegressRow& r) {
  return r.change ? fmt::format("{:+.1f} %", *r.change * 100) : "";
}

std::string what(const RegressRow& r) {
  return r.metric.empty() ? r.point : r.point + " :: " + r.metric;
}

std::string xml(std::string_view s) {
  return html_escape(s);
}

std::string values_text(const std::vector<double>& v) {
  std::string out;
  for (double x : v) out += (out.empty() ? "" : ", ") + format_number(x, ".6g");
  return out;
}

// "iter_ms regressed: 25 ms (n=5) against 20 ms (n=5), +25.0 %, p = 0.004".
std::string message(const RegressRow& r) {
  if (r.metric.empty()) return fmt::format("{} {}: {}", r.point, to_string(r.verdict), r.note);
  std::string m =
      fmt::format("{} {}: {} against {}", r.metric, to_string(r.verdict),
                  side(r.cur_median, r.cur_n, r.unit), side(r.base_median, r.base_n, r.unit));
  if (r.change) m += ", " + change_text(r);
  if (r.p_value) m += fmt::format(", p = {:.3g}", *r.p_value);
  if (!r.note.empty()) m += " (" + r.note + ")";
  return m;
}

}  // namespace

std::string render_regress_markdown(const RegressReport& rep) {
  std::string out = fmt::format("### aerun regress: {} against {}\n\n", rep.current, rep.baseline);
  std::vector<std::string> counts;
  for (const auto& v : regress_verdicts())
    if (int n = rep.count(v)) counts.push_back(fmt::format("{} {}", n, to_string(v)));
  out += fmt::format(
      "{} ({} compared).\n\n",
      counts.empty() ? "nothing to compare" : fmt::format("{}", fmt::join(counts, ", ")),
      rep.rows.size());
  bool any = false;
  for (const auto& r : rep.rows) {
    if (r.verdict == RegressVerdict::Unchanged) continue;
    if (!any)
      out +=
          "| case | point | metric | baseline | current | change | p | verdict | note |\n"
          "|:---|:---|:---|---:|---:|---:|---:|:---|:---|\n";
    any = true;
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | **{}** | {} |\n", md_cell(r.case_name),
                       md_cell(r.point), md_cell(r.metric.empty() ? "(status)" : r.metric),
                       md_cell(side(r.base_median, r.base_n, r.unit)),
                       md_cell(side(r.cur_median, r.cur_n, r.unit)), change_text(r),
                       r.p_value ? fmt::format("{:.3g}", *r.p_value) : "", to_string(r.verdict),
                       md_cell(r.note));
  }
  out += fmt::format(
      "\nA change within ±{:g} % of the baseline's median is unchanged; beyond it, a verdict needs "
      "{} ok runs on each side and a one-sided Mann-Whitney p ≤ {:g}, else it is noisy.\n",
      rep.options.tolerance * 100, rep.options.min_repeats, rep.options.alpha);
  return out;
}

std::string render_regress_junit(const RegressReport& rep) {
  std::map<std::string, std::vector<const RegressRow*>> by_case;
  for (const auto& r : rep.rows) by_case[r.case_name].push_back(&r);
  auto failing = [](const RegressRow& r) { return is_failure(r.verdict); };
  auto skipped = [](const RegressRow& r) {
    using V = RegressVerdict;
    return r.verdict == V::Noisy || r.verdict == V::Missing || r.verdict == V::New ||
           r.verdict == V::Failing || r.verdict == V::Changed;
  };
  int failures = 0, skips = 0;
  for (const auto& r : rep.rows) {
    failures += failing(r);
    skips += skipped(r);
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuites name=\"aerun regress {} against {}\" tests=\"{}\" failures=\"{}\" "
      "skipped=\"{}\">\n",
      xml(rep.current), xml(rep.baseline), rep.rows.size(), failures, skips);
  for (const auto& [name, rows] : by_case) {
    int f = 0, s = 0;
    for (const RegressRow* r : rows) {
      f += failing(*r);
      s += skipped(*r);
    }
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
                       xml(name), rows.size(), f, s);
    for (const RegressRow* r : rows) {
      out += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"0\"", xml(name),
                         xml(what(*r)));
      if (failing(*r)) {
        out += fmt::format(
            ">\n      <failure type=\"{}\" message=\"{}\">baseline {}: {}\ncurrent {}: "
            "{}</failure>\n    </testcase>\n",
            to_string(r->verdict), xml(message(*r)), xml(r->base_session),
            xml(values_text(r->base_values)), xml(r->cur_session), xml(values_text(r->cur_values)));
      } else if (skipped(*r)) {
        out +=
            fmt::format(">\n      <skipped message=\"{}\"/>\n    </testcase>\n", xml(message(*r)));
      } else {
        out += "/>\n";
      }
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

std::string render_regress_json(const RegressReport& rep) {
  std::string out = "{\n";
  out += fmt::format("  \"baseline\": {},\n  \"current\": {},\n", json_string(rep.baseline),
                     json_string(rep.current));
  out += fmt::format("  \"tolerance\": {},\n  \"min_repeats\": {},\n  \"alpha\": {},\n",
                     json_number(rep.options.tolerance), rep.options.min_repeats,
                     json_number(rep.options.alpha));
  std::vector<std::string> counts;
  for (const auto& v : regress_verdicts())
    counts.push_back(fmt::format("{}: {}", json_string(to_string(v)), rep.count(v)));
  out += fmt::format("  \"counts\": {{{}}},\n", fmt::join(counts, ", "));
  out += fmt::format("  \"failed\": {},\n  \"rows\": [", rep.failed() ? "true" : "false");
  auto array = [](const std::vector<double>& v) {
    std::vector<std::string> s;
    for (double x : v) s.push_back(json_number(x));
    return fmt::format("[{}]", fmt::join(s, ", "));
  };
  for (size_t i = 0; i < rep.rows.size(); ++i) {
    const RegressRow& r = rep.rows[i];
    out += i ? ",\n    " : "\n    ";
    out += fmt::format(
        "{{\"case\": {}, \"point\": {}, \"metric\": {}, \"unit\": {}, \"better\": {}, "
        "\"verdict\": {}, \"baseline_median\": {}, \"current_median\": {}, \"change\": {}, "
        "\"p\": {}, \"baseline_values\": {}, \"current_values\": {}, \"baseline_session\": {}, "
        "\"current_session\": {}, \"note\": {}}}",
        json_string(r.case_name), json_string(r.point),
        r.metric.empty() ? "null" : json_string(r.metric), json_string(r.unit),
        r.better == Better::Unknown ? "null" : json_string(to_string(r.better)),
        json_string(to_string(r.verdict)), json_number(r.base_median), json_number(r.cur_median),
        json_number(r.change), json_number(r.p_value), array(r.base_values), array(r.cur_values),
        json_string(r.base_session), json_string(r.cur_session), json_string(r.note));
  }
  out += rep.rows.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

}  // namespace aerun
