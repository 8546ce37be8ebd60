// The follower asks the scheduler once per interval, whatever else wakes it (issue 12 §1: every
// child that exited woke it and the next squeue followed at once, ~100 queries a second).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <sstream>
#include <thread>

#include "aerun/sched/job_follower.hpp"
#include "aerun/sched/scheduler_client.hpp"
#include "aerun/store/store.hpp"

namespace aerun {
namespace {

// A scheduler whose one job is always running; it counts the questions.
class CountingScheduler : public SchedulerClient {
 public:
  std::atomic<int> queries{0};
  Scheduler kind() const override { return Scheduler::Slurm; }
  using SchedulerClient::submit;
  std::string submit(const std::string&, const std::string&, const JobDeps&) override {
    return "1";
  }
  QueryResult query(const std::vector<std::string>& ids) override {
    ++queries;
    QueryResult q;
    q.ok = true;
    for (const auto& id : ids) {
      JobReport j;
      j.job_id = id;
      j.state = "RUNNING";
      j.run_state = {"running", false};
      q.jobs.push_back(j);
    }
    return q;
  }
  void cancel(const std::vector<std::string>&) override {}
  std::string task_id(const std::string& base, int) const override { return base; }
  std::string base_id(const std::string& id) const override { return id; }
};

TEST(JobFollower, AsksOncePerIntervalWhileChildrenKeepExiting) {
  Store store(":memory:");
  RunRecord r;
  r.key = "k";
  r.case_name = "c";
  r.status = "pending";
  r.scheduler = "slurm";
  r.job_id = "42";
  store.begin_run(r);
  CountingScheduler sched;
  FollowOptions o;
  o.poll_s = 0.25;
  o.max_poll_s = 0.25;
  o.max_wait_s = 1.0;  // give up after a second: at most 1 / 0.25 + 1 questions
  std::ostringstream out;
  JobFollower f(store, sched, out, o);
  f.add(r, nullptr);
  // Children exiting all the time, as squeue's own and a job array's do.
  std::atomic<bool> stop{false};
  std::thread storm([&] {
    while (!stop) {
      const pid_t p = fork();
      if (p == 0) _exit(0);
      if (p > 0) waitpid(p, nullptr, 0);
      usleep(5000);
    }
  });
  f.follow();
  stop = true;
  storm.join();
  EXPECT_GE(sched.queries.load(), 4);
  EXPECT_LE(sched.queries.load(), 6);
}

}  // namespace
}  // namespace aerun
