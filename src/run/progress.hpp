// What the user sees while a case runs: a live line on a terminal, plain event lines otherwise.
#pragma once

#include <iosfwd>
#include <string>

#include "aerun/record/run_record.hpp"
#include "aerun/run/case_runner.hpp"

namespace aerun {

class Progress {
 public:
  Progress(std::ostream& out, bool tty, std::string case_name, long long planned);
  void reused();
  void started(const RunRecord& r);
  void finished(const RunRecord& r, bool will_retry);
  void note(const std::string& text);
  // running: runs in flight; live: what one of them says of its progress ("" when nothing).
  void tick(int running, const std::string& live = {});
  // The closing line: what ran, what was reused or kept, what a stop signal left undone.
  void done(const RunSummary& sum);

 private:
  void redraw();
  void clear_line();

  std::ostream& out_;
  bool tty_;
  std::string case_;
  long long planned_;
  long long finished_ = 0;
  int failed_ = 0, reused_ = 0, running_ = 0;
  double started_at_;
  double run_seconds_ = 0;  // summed wall time of finished runs (for the ETA)
  int runs_timed_ = 0;
  bool line_shown_ = false;
  std::string live_;
};

}  // namespace aerun
