// `aerun cancel CASE`: cancels the case's pending and running batch jobs and stores them as
// cancelled.
#include <iostream>

#include "aerun/sched/job_collection.hpp"
#include "aerun/store/store.hpp"
#include "cli/app.hpp"

namespace aerun::cli {

void add_cancel_command(CLI::App& app, Globals& g, Action& action) {
  auto case_ref = std::make_shared<std::string>();
  CLI::App* c = app.add_subcommand("cancel", "cancel a case's pending and running batch jobs");
  c->add_option("case", *case_ref, "a case name or case file")->required();
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->callback([&action, &g, case_ref] {
    action = [&g, case_ref] {
      Store store(g.resolved_db());
      const CancelSummary s = cancel_jobs(store, *case_ref, std::cerr);
      if (!s.error.empty()) {
        std::cerr << "aerun: error: " << s.error << "\n";
        return 1;
      }
      std::cerr << "cancelled " << s.jobs << " job(s), " << s.runs << " run(s)\n";
      return 0;
    };
  });
}

}  // namespace aerun::cli
