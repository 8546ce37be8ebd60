// RunListing: the lines of `aerun runs` (run_listing.hpp).
#include "aerun/report/run_listing.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

#include "aerun/case/case_loader.hpp"
#include "aerun/logread/presets.hpp"
#include "aerun/judge/run_status.hpp"
#include "aerun/report/session_pick.hpp"
#include "aerun/report/table.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/secret_text.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

void add_unique(std::vector<std::string>& names, const std::string& n) {
  if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
}

// At most 60 characters of a reason, cut at a UTF-8 character boundary, "…" when cut.
std::string short_reason(const std::string& reason) {
  constexpr size_t kMax = 60;
  if (reason.size() <= kMax) return reason;
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(reason[cut]) & 0xC0) == 0x80) --cut;
  return reason.substr(0, cut) + "…";
}

// As tables print numbers: 4 significant digits, no exponent below 10^15 (12000.5 -> 12000).
std::string opt_num(const std::optional<double>& v) {
  return v ? format_cell_number(*v) : "";
}

std::string param_text(const RunRecord& r, const std::string& n) {
  const Value* v = find_param(r.params, n);
  return v ? shown_param(n, v->text()) : std::string();
}

std::optional<double> metric_value(const RunRecord& r, const std::string& n) {
  const MetricValue* m = r.metric(n);
  return m ? std::optional<double>(m->value) : std::nullopt;
}

}  // namespace

std::vector<std::string> headline_metrics(const Store::Outline& o) {
  std::vector<std::string> wanted;
  for (const auto& [name, have] : o.case_metrics) {
    const auto spec = case_of(o.file_stubs(name));
    if (!spec) {
      // No case file (ingested with --preset, or gone): the headline metrics of the presets
      // whose metrics the runs have, and every metric no preset defines (the case's own).
      for (const auto& m : have) {
        bool of_preset = false;
        for (const auto& p : builtin_presets())
          for (const auto& pm : p.metrics)
            if (pm.name == m) {
              of_preset = true;
              for (const auto& h : p.headline) add_unique(wanted, h);
            }
        if (!of_preset) add_unique(wanted, m);
      }
      continue;
    }
    std::vector<std::string> of_presets;
    for (const auto& ref : spec->presets)
      if (const Preset* p = find_preset(ref)) {
        for (const auto& m : p->headline) add_unique(wanted, m);
        for (const auto& m : p->metrics) add_unique(of_presets, m.name);
      }
    for (const auto& m : spec->metrics)  // the case's own
      if (std::find(of_presets.begin(), of_presets.end(), m.name) == of_presets.end())
        add_unique(wanted, m.name);
    for (const auto& t : spec->tables)
      for (const auto& c : t.columns) add_unique(wanted, c.source);
  }
  std::vector<std::string> out;
  for (const auto& m : o.metrics)
    if (std::find(wanted.begin(), wanted.end(), m) != wanted.end()) out.push_back(m);
  return out;
}

RunListing::RunListing(const Store::Outline& outline, RunListingOptions opts)
    : opts_(std::move(opts)), md_(opts_.format == "md") {
  const std::vector<std::string>& params = outline.params;
  const std::vector<std::string>& metrics = outline.metrics;
  // Every column, in the order of the full listing.
  all_.push_back({"key", [this] { return md_ ? run_->key.substr(0, 12) : run_->key; }});
  all_.push_back({"case", [this] { return run_->case_name; }});
  all_.push_back({"system", [this] { return run_->system; }});
  all_.push_back({"repeat", [this] { return std::to_string(run_->repeat_index); }});
  all_.push_back({"attempt", [this] { return std::to_string(run_->attempt); }});
  all_.push_back({"status", [this] {
                    // md: the class and a short reason; the whole reason stays in `aerun show`
                    // and the reason column.
                    if (md_ && !run_->reason.empty() && run_->status != run_status::ok)
                      return run_->status + " (" + short_reason(run_->reason) + ")";
                    return run_->status;
                  }});
  all_.push_back({"reason", [this] { return run_->reason; }});
  all_.push_back({"version", [this] {
                    const std::string d = run_->case_digest.substr(0, 8);
                    return now_ ? d : d + " (old)";
                  }});
  for (const auto& p : params) all_.push_back({p, [this, p] { return param_text(*run_, p); }});
  for (const auto& m : metrics)
    all_.push_back({m, [this, m] { return num(metric_value(*run_, m)); }});
  all_.push_back({"startup_s", [this] { return num(run_->startup_s); }});
  all_.push_back({"wall_s", [this] { return num(run_->wall_s); }});
  all_.push_back({"queue_wait_s", [this] { return num(run_->queue_wait_s); }});
  all_.push_back({"job_id", [this] { return run_->job_id; }});
  all_.push_back({"log", [this] { return without_param_secrets(run_->log_path, run_->params); }});
  all_.push_back({"case_digest", [this] { return run_->case_digest; }});
  all_.push_back({"current_version", [this] { return std::string(now_ ? "true" : "false"); }});
  if (!opts_.columns.empty()) {
    for (const auto& n : opts_.columns) {
      const Column* c = named(n);
      if (!c) {
        std::vector<std::string> names;
        for (const auto& x : all_) names.push_back(x.name);
        const std::string near = nearest_key(n, names);
        throw InputError(SourceLoc{}, "--columns",
                         fmt::format("no column '{}'{}; columns: {}", n,
                                     near.empty() ? "" : " (did you mean '" + near + "'?)",
                                     fmt::join(names, ", ")));
      }
      shown_.push_back(c);
    }
  } else if (!md_ || opts_.all_columns) {
    // md: the system column when a run has one (csv and json always have it).
    for (const auto& c : all_)
      if ((c.name != "version" || (md_ && opts_.all_versions)) &&
          (c.name != "system" || !md_ || !outline.systems.empty()))
        shown_.push_back(&c);
  } else {
    // The default listing: who, what, the parameters, the headline metrics, the times.
    for (const char* n : {"key", "case", "repeat", "status"}) shown_.push_back(named(n));
    // Runs on named systems (docs/systems.md): which machine each number is of.
    if (!outline.systems.empty()) shown_.insert(shown_.begin() + 2, named("system"));
    if (opts_.all_versions) shown_.push_back(named("version"));
    for (const auto& p : params) shown_.push_back(named(p));
    for (const auto& m : headline_metrics(outline)) shown_.push_back(named(m));
    shown_.push_back(named("startup_s"));
    shown_.push_back(named("wall_s"));
  }
  no_systems_ = outline.systems.empty();
}

bool RunListing::named_shown(const std::string& n) const {
  return std::any_of(shown_.begin(), shown_.end(), [&](const Column* c) { return c->name == n; });
}

const RunListing::Column* RunListing::named(const std::string& n) const {
  for (const auto& c : all_)
    if (c.name == n) return &c;
  return nullptr;
}

std::string RunListing::header() const {
  std::string out;
  if (md_) {
    out += "|";
    for (const Column* c : shown_) {
      out += ' ';
      out += md_cell(c->name == "repeat" ? "rep" : c->name);
      out += " |";
    }
    out += "\n|";
    for (size_t i = 0; i < shown_.size(); ++i) out += "---|";
    out += "\n";
  } else if (opts_.format == "csv") {
    for (size_t k = 0; k < shown_.size(); ++k) {
      if (k) out += ',';
      out += csv_field(shown_[k]->name);
    }
    out += "\n";
  } else {
    out += "[";
  }
  return out;
}

void RunListing::row(const RunRecord& r, bool current, std::string& o) {
  run_ = &r;
  now_ = current;
  if (md_) {
    o += "|";
    for (const Column* c : shown_) o += " " + md_cell(c->cell()) + " |";
    o += "\n";
  } else if (opts_.format == "csv") {
    for (size_t k = 0; k < shown_.size(); ++k) o += (k ? "," : "") + csv_field(shown_[k]->cell());
    o += "\n";
  } else {
    o += listed_ ? ",\n " : "\n ";
    o += json_row(r);
  }
  ++listed_;
}

std::string RunListing::json_row(const RunRecord& r) const {
  std::string o = fmt::format(
      "{{\"id\": {}, \"key\": {}, \"case\": {}, \"system\": {}, \"repeat\": {}, \"attempt\": {}, "
      "\"status\": "
      "{}, \"reason\": {}, \"startup_s\": {}, \"wall_s\": {}, \"queue_wait_s\": {}, "
      "\"job_id\": {}, \"log\": {}, \"case_digest\": {}, \"current_version\": {}, "
      "\"params\": {{",
      r.id, json_string(r.key), json_string(r.case_name), json_string(r.system), r.repeat_index,
      r.attempt, json_string(r.status), json_string(r.reason), json_number(r.startup_s),
      json_number(r.wall_s), json_number(r.queue_wait_s), json_string(r.job_id),
      json_string(without_param_secrets(r.log_path, r.params)), json_string(r.case_digest),
      now_ ? "true" : "false");
  for (size_t j = 0; j < r.params.size(); ++j) {
    const auto& [name, value] = r.params[j];
    const std::string text = value.text();
    const std::string shown = shown_param(name, text);  // a secret or URL credentials hidden
    o += fmt::format("{}{}: {}", j ? ", " : "", json_string(name),
                     shown == text && value.is_number() && value.kind() != Value::Kind::Bool
                         ? text
                         : json_string(shown));
  }
  o += "}, \"metrics\": {";
  for (size_t j = 0; j < r.metrics.size(); ++j)
    o += fmt::format("{}{}: {}", j ? ", " : "", json_string(r.metrics[j].name),
                     json_number(r.metrics[j].value));
  o += "}}";
  return o;
}

// md: as people read it, csv: exact.
std::string RunListing::num(const std::optional<double>& v) const {
  return !v ? std::string() : md_ ? opt_num(v) : fmt::format("{}", *v);
}

std::string RunListing::footer() const {
  std::string out;
  if (md_) {
    const size_t hidden = all_.size() - shown_.size() - (opts_.all_versions ? 0 : 1) -
                          (no_systems_ && !named_shown("system") ? 1 : 0);
    out += fmt::format("\n{} run{}", listed_, listed_ == 1 ? "" : "s");
    if (opts_.columns.empty() && !opts_.all_columns && hidden > 0)
      out += fmt::format(" ({} more columns: --all-columns, or --columns NAME,...)", hidden);
    out += "\n";
  } else if (opts_.format == "json") {
    out += listed_ == 0 ? "]\n" : "\n]\n";
  }
  return out;
}

}  // namespace aerun
