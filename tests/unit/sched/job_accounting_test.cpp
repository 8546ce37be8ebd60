// Where the cluster keeps accounting (Slurm's sacct), the follower asks it once for the runs
// ending in a poll: it gives their peak memory and answers for jobs the queue no longer shows,
// which would otherwise be lost.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <sstream>

#include "aerun/judge/run_status.hpp"
#include "aerun/sched/job_follower.hpp"
#include "aerun/sched/scheduler_client.hpp"
#include "aerun/sched/slurm_states.hpp"
#include "aerun/store/store.hpp"

namespace aerun {
namespace {

// A queue that shows `queue`, and books that hold `books`; it keeps what it was asked.
class BookkeepingScheduler : public SchedulerClient {
 public:
  std::map<std::string, JobReport> queue, books;
  std::vector<std::vector<std::string>> asked_books;

  Scheduler kind() const override { return Scheduler::Slurm; }
  using SchedulerClient::submit;
  std::string submit(const std::string&, const std::string&, const JobDeps&) override {
    return "1";
  }
  QueryResult query(const std::vector<std::string>&) override {
    QueryResult q;
    q.ok = true;
    for (const auto& [id, j] : queue) q.jobs.push_back(j);
    return q;
  }
  bool keeps_books = true;
  std::optional<std::vector<JobReport>> accounting(const std::vector<std::string>& ids) override {
    asked_books.push_back(ids);
    if (!keeps_books) return std::nullopt;
    std::vector<JobReport> out;
    for (const auto& id : ids)
      if (auto it = books.find(id); it != books.end()) out.push_back(it->second);
    return out;
  }
  void cancel(const std::vector<std::string>&) override {}
  std::string task_id(const std::string& base, int index) const override {
    return base + "_" + std::to_string(index);
  }
  std::string base_id(const std::string& id) const override { return id.substr(0, id.find('_')); }
};

JobReport report(const std::string& id, const std::string& state, std::optional<int> exit) {
  JobReport j;
  j.job_id = id;
  j.state = state;
  j.exit_code = exit;
  j.run_state = slurm_run_state(state);
  return j;
}

struct Follow {
  Store store{":memory:"};
  BookkeepingScheduler sched;
  std::ostringstream out;
  std::vector<RunRecord> runs;

  void add(const std::string& key, const std::string& job_id) {
    RunRecord r;
    r.key = key;
    r.case_name = "c";
    r.status = run_status::running;
    r.scheduler = "slurm";
    r.job_id = job_id;
    r.log_path = "/nonexistent/aerun-test/" + key + ".log";  // no log, no stamps
    store.begin_run(r);
    runs.push_back(r);
  }
  std::unique_ptr<JobFollower> follower;
  // Polls (one follower for the whole test) until every run ended or `polls` were made.
  void poll(int polls = 3) {
    if (!follower) {
      FollowOptions o;
      o.missing_polls = 2;
      follower = std::make_unique<JobFollower>(store, sched, out, o);
      for (const auto& r : runs) follower->add(r, nullptr);
    }
    for (int i = 0; i < polls && follower->outstanding() > 0; ++i) follower->poll_once();
  }
  RunRecord stored(const std::string& key) const { return *store.find_by_key(key); }
};

TEST(JobAccounting, AJobGoneFromTheQueueIsJudgedByTheBooksNotLost) {
  Follow t;
  t.add("gone", "42_3");
  JobReport books = report("42_3", "FAILED", 3);
  books.nodes = "n1";
  books.end_time = 1700000000;
  t.sched.books["42_3"] = books;
  t.poll();
  const RunRecord r = t.stored("gone");
  EXPECT_EQ(r.status, run_status::failed);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.scheduler_state, "FAILED");
  EXPECT_EQ(r.nodes, "n1");
  EXPECT_EQ(r.end_time, 1700000000);
}

TEST(JobAccounting, WithoutBooksAJobGoneFromTheQueueIsLostAsBefore) {
  Follow t;
  t.add("gone", "42_3");
  t.poll();
  EXPECT_EQ(t.stored("gone").status, run_status::lost);
}

TEST(JobAccounting, AnEndedJobTakesItsPeakMemoryFromTheBooks) {
  Follow t;
  t.add("done", "7");
  t.sched.queue["7"] = report("7", "COMPLETED", 0);
  JobReport books = report("7", "COMPLETED", 0);
  books.max_rss_kb = 2048;
  t.sched.books["7"] = books;
  t.poll();
  const RunRecord r = t.stored("done");
  EXPECT_EQ(r.status, run_status::ok);
  EXPECT_EQ(r.max_rss_kb, 2048);
}

TEST(JobAccounting, TheBooksAreAskedOnceForTheRunsEndingInAPollAndNeverForRunningOnes) {
  Follow t;
  t.add("a", "9_0");
  t.add("b", "9_1");
  t.add("c", "9_2");
  t.sched.queue["9_0"] = report("9_0", "COMPLETED", 0);
  t.sched.queue["9_1"] = report("9_1", "FAILED", 1);
  t.sched.queue["9_2"] = report("9_2", "RUNNING", std::nullopt);
  t.poll(1);
  ASSERT_EQ(t.sched.asked_books.size(), 1u);
  EXPECT_EQ(t.sched.asked_books[0], (std::vector<std::string>{"9_0", "9_1"}));
  EXPECT_EQ(t.stored("c").status, run_status::running);
}

TEST(JobAccounting, AnEndedJobWaitsAFewPollsForTheBooksThenEndsWithoutThem) {
  Follow t;
  t.add("late", "7");
  t.sched.queue["7"] = report("7", "COMPLETED", 0);
  t.poll(2);  // the books know nothing yet: the run stays open
  EXPECT_EQ(t.stored("late").status, run_status::running);
  t.sched.books["7"] = report("7", "COMPLETED", 0);
  t.sched.books["7"].max_rss_kb = 512;
  t.poll(1);
  EXPECT_EQ(t.stored("late").status, run_status::ok);
  EXPECT_EQ(t.stored("late").max_rss_kb, 512);

  Follow never;  // books that never hear of it: the queue's word after 3 polls
  never.add("x", "8");
  never.sched.queue["8"] = report("8", "COMPLETED", 0);
  never.poll(3);
  EXPECT_EQ(never.stored("x").status, run_status::running);
  never.poll(1);
  EXPECT_EQ(never.stored("x").status, run_status::ok);
}

TEST(JobAccounting, ACaseWithoutBooksEndsAtOnceAsBefore) {
  Follow t;
  t.sched.keeps_books = false;
  t.add("done", "7");
  t.sched.queue["7"] = report("7", "COMPLETED", 0);
  t.poll(1);
  EXPECT_EQ(t.stored("done").status, run_status::ok);
  EXPECT_EQ(t.stored("done").max_rss_kb, 0);
}

}  // namespace
}  // namespace aerun
