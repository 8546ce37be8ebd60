// `retries:` and `rerun:`: which failures are tried again, within one invocation and by the next.
#include "aerun/case/case_loader.hpp"
#include "aerun/judge/failure_policy.hpp"
#include "aerun/judge/run_status.hpp"
#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

// The statuses a run of this case can end with: the judge's and the case's `status:` names.
std::vector<std::string> known_statuses(const CaseSpec& spec) {
  std::vector<std::string> all = judge_statuses();
  for (const auto& s : spec.status)
    if (!contains(all, s.status)) all.push_back(s.status);
  return all;
}

std::vector<std::string> statuses(const YamlReader& r, const Item& it, const CaseSpec& spec) {
  const std::vector<Item> items = it.node.IsSequence() ? r.elements(it) : std::vector<Item>{it};
  const std::vector<std::string> known = known_statuses(spec);
  std::vector<std::string> out;
  for (const Item& e : items) {
    const std::string s = r.text(e);
    if (s == run_status::ok)
      throw InputError(e.loc, e.key, "'ok' is not a failure: list failure statuses");
    if (!contains(known, s)) {
      const std::string near = nearest_key(s, known);
      throw InputError(e.loc, e.key,
                       "unknown status '" + s + "'" +
                           (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                           "; statuses: " + joined(known));
    }
    out.push_back(s);
  }
  return out;
}

int retry_count(const YamlReader& r, const Item& e) {
  const long long n = r.integer(e);
  if (n < 0) throw InputError(e.loc, e.key, "must be 0 or more");
  if (n > 1000000) throw InputError(e.loc, e.key, "at most 1000000 retries");
  return static_cast<int>(n);
}

}  // namespace

void read_failure_policy(const YamlReader& r, const Item& it, CaseSpec& spec) {
  if (it.name == "rerun") {
    if (it.node.IsScalar() && r.text(it) == "all") {
      for (const auto& s : known_statuses(spec))
        if (s != run_status::ok) spec.rerun.push_back(s);
      return;
    }
    spec.rerun = statuses(r, it, spec);
    return;
  }
  if (!it.node.IsMap()) {  // retries: N
    spec.retries = retry_count(r, it);
    return;
  }
  bool has_count = false;
  for (const Item& e : r.entries(it, {"count", "on"})) {
    if (e.name == "count") {
      spec.retries = retry_count(r, e);
      has_count = true;
    } else {
      spec.retry_on = statuses(r, e, spec);
    }
  }
  if (!has_count) throw InputError(it.loc, it.key, "missing required key 'count'");
}

}  // namespace aerun::detail
