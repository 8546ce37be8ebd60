// Runs of a case read from fixture logs through the ingest path (the one judge decides their
// status), for golden tables built without a store.
#pragma once

#include <string>

#include "aerun/case/case_spec.hpp"
#include "aerun/ingest/ingest.hpp"
#include "aerun/record/run_record.hpp"

namespace aerun::testing {

// The fixtures are excerpts of finished runs (the seeds' own): ingested as the user would with
// `aerun ingest --assume-complete`; a status line in them still decides.
inline RunRecord run_from_log(const CaseSpec& c, const ParamList& point, const std::string& log) {
  static long long next_id = 1;
  RunRecord r = ingest_file(c, log, point, /*assume_complete=*/true);
  r.id = next_id++;
  return r;
}

}  // namespace aerun::testing
