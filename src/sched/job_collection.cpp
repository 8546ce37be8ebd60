#include "aerun/sched/job_collection.hpp"
#include "aerun/case/case_loader.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <memory>
#include <ostream>
#include <set>

#include "aerun/case/poll_interval.hpp"
#include "aerun/judge/run_status.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/store/store.hpp"

namespace aerun {

namespace {

// Case files loaded once each; a case file that no longer loads gives no metrics.
class CaseCache {
 public:
  explicit CaseCache(std::ostream& out) : out_(out) {}
  const CaseSpec* get(const std::string& file) {
    auto it = specs_.find(file);
    if (it != specs_.end()) return it->second.get();
    std::unique_ptr<CaseSpec> spec;
    try {
      spec = std::make_unique<CaseSpec>(load_case(file));
    } catch (const std::exception& e) {
      out_ << fmt::format("cannot load case file {} ({}): collecting without its metrics\n", file,
                          e.what());
    }
    return specs_.emplace(file, std::move(spec)).first->second.get();
  }

 private:
  std::ostream& out_;
  std::map<std::string, std::unique_ptr<CaseSpec>> specs_;
};

std::string case_name_of(const std::string& ref) {
  if (ref.empty()) return "";
  std::error_code ec;
  if (std::filesystem::is_regular_file(ref, ec)) return load_case(ref).name;
  return ref;
}

// Runs of the case (or all) whose batch job has not been seen to end, by scheduler; a case's
// runs come with those of its setup steps (cases "<case>.<step>").
std::map<Scheduler, std::vector<RunRecord>> open_jobs(Store& store, const std::string& case_name) {
  std::map<Scheduler, std::vector<RunRecord>> by;
  std::vector<std::string> names = {case_name};
  if (!case_name.empty())
    for (const auto& n : store.case_names())
      if (n.size() > case_name.size() + 1 &&
          n.compare(0, case_name.size() + 1, case_name + ".") == 0)
        names.push_back(n);
  for (const auto& name : names) {
    RunFilter f;
    f.case_name = name;
    for (auto& r : store.list(f))
      if (!r.job_id.empty() && (r.status == run_status::pending || r.status == run_status::running))
        by[parse_scheduler(r.scheduler)].push_back(std::move(r));
  }
  return by;
}

}  // namespace

CollectSummary collect_jobs(Store& store, const CollectOptions& opts, std::ostream& out) {
  CollectSummary sum;
  CaseCache cases(out);
  for (auto& [sched, runs] : open_jobs(store, case_name_of(opts.case_ref))) {
    auto client = make_scheduler_client(sched);
    JobFollower follower(store, *client, out, opts.follow);
    for (const auto& r : runs) follower.add(r, cases.get(r.case_file));
    sum.followed += static_cast<int>(runs.size());
    if (opts.wait)
      sum.stop_signal = follower.follow([&] {
        if (opts.progress)
          opts.progress(sum.ok + sum.failed + follower.summary().ok + follower.summary().failed,
                        sum.followed);
      });
    else if (!follower.poll_once())
      out << fmt::format("{} query failed ({}): nothing collected; try again later\n",
                         to_string(sched), follower.summary().last_error);
    sum.ok += follower.summary().ok;
    sum.failed += follower.summary().failed;
    sum.outstanding += static_cast<int>(follower.outstanding());
    sum.query_failures += follower.summary().query_failures;
    if (!follower.summary().last_error.empty()) sum.last_error = follower.summary().last_error;
    if (sum.stop_signal) break;
  }
  out << fmt::format("collected {} of {} run(s): {} ok, {} failed; {} still queued or running\n",
                     sum.ok + sum.failed, sum.followed, sum.ok, sum.failed, sum.outstanding);
  return sum;
}

CancelSummary cancel_jobs(Store& store, const std::string& case_ref, std::ostream& out,
                          double wait_s) {
  CancelSummary sum;
  CaseCache cases(out);
  const std::string name = case_name_of(case_ref);
  if (name.empty()) throw InputError(SourceLoc{}, "cancel", "name the case whose jobs to cancel");
  for (auto& [sched, runs] : open_jobs(store, name)) {
    auto client = make_scheduler_client(sched);
    std::vector<std::string> ids;
    std::set<std::string> seen;
    for (const auto& r : runs)
      if (seen.insert(client->base_id(r.job_id)).second) ids.push_back(client->base_id(r.job_id));
    try {
      client->cancel(ids);
    } catch (const SchedulerError& e) {
      sum.error = e.what();
      out << e.what() << "\n";
      continue;
    }
    sum.jobs += static_cast<int>(ids.size());
    out << fmt::format("[{}] cancelled {} job(s) of {} run(s)\n", name, ids.size(), runs.size());
    FollowOptions fo;  // until the scheduler confirms: briskly, but never under a site's floor
    const PollInterval p = resolve_poll_interval(PollInterval{0.5, 2}, std::nullopt, nullptr);
    fo.poll_s = p.min_s;
    fo.max_poll_s = p.max_s;
    fo.max_wait_s = wait_s;
    JobFollower follower(store, *client, out, fo);
    for (const auto& r : runs) follower.add(r, cases.get(r.case_file));
    follower.follow();
    for (RunRecord r : follower.outstanding_runs()) {
      collect_run(r, {run_status::cancelled, true}, nullptr, cases.get(r.case_file));
      r.reason = "cancelled by aerun cancel; the scheduler had not confirmed it yet";
      store.finish_run(r);
    }
    sum.runs += static_cast<int>(runs.size());
  }
  return sum;
}

}  // namespace aerun
