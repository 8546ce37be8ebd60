// `aerun stamp-output STAMPS [FIRST_STEP_REGEX] [--progress RE ... --stall S] [--first-step S]`
// (used inside job scripts, hidden from help): copies stdin to stdout, stamps the first output
// line and the first training step, and runs the watchdogs inside the job.
#include <unistd.h>

#include <iostream>

#include "aerun/sched/job_stamps.hpp"
#include "cli/app.hpp"

namespace aerun::cli {

void add_stamp_output_command(CLI::App& app, Globals&, Action& action) {
  auto stamps = std::make_shared<std::string>();
  auto o = std::make_shared<StampOptions>();
  CLI::App* c = app.add_subcommand("stamp-output", "copy stdin to stdout, stamping output");
  c->group("");  // hidden: job scripts use it
  c->add_option("stamps", *stamps, "the run's stamps file")->required();
  c->add_option("first_step", o->first_step, "RE2 pattern of the first training step");
  c->add_option("--progress", o->progress, "RE2 pattern of a progress line (repeatable)");
  c->add_option("--stall", o->stall_s, "stop the job after this many seconds without progress");
  c->add_option("--first-step", o->first_step_s,
                "stop the job when no first step came this many seconds after the start");
  c->callback([&action, stamps, o] {
    action = [stamps, o] {
      if (!stamp_output(STDIN_FILENO, STDOUT_FILENO, *stamps, *o)) {
        std::cerr << "aerun stamp-output: cannot write " << *stamps << "\n";
        // Keep the run's output flowing even without stamps.
        stamp_output(STDIN_FILENO, STDOUT_FILENO, "/dev/null", "");
        return 1;
      }
      return 0;
    };
  });
}

}  // namespace aerun::cli
