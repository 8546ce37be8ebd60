// `aerun stamp-output STAMPS [FIRST_STEP_REGEX]` (used inside job scripts, hidden from help):
// copies stdin to stdout and stamps the first output line and the first training step.
#include <unistd.h>

#include <iostream>

#include "aerun/job_stamps.hpp"
#include "cli/app.hpp"

namespace aerun::cli {

void add_stamp_output_command(CLI::App& app, Globals&, Action& action) {
  auto stamps = std::make_shared<std::string>();
  auto pattern = std::make_shared<std::string>();
  CLI::App* c = app.add_subcommand("stamp-output", "copy stdin to stdout, stamping output");
  c->group("");  // hidden: job scripts use it
  c->add_option("stamps", *stamps, "the run's stamps file")->required();
  c->add_option("first_step", *pattern, "RE2 pattern of the first training step");
  c->callback([&action, stamps, pattern] {
    action = [stamps, pattern] {
      if (!stamp_output(STDIN_FILENO, STDOUT_FILENO, *stamps, *pattern)) {
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
