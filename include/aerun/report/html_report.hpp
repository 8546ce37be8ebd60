// `aerun report --html DIR`: a static site (plain HTML and CSS, SVG figures, no JavaScript, no
// network at view time) of the latest session: per case its tables beside the paper's values, the
// regress verdicts against a baseline, history figures, failures with the line that classified
// them; and the sessions' provenance.
#pragma once

#include <string>
#include <vector>

#include "aerun/record/run_record.hpp"
#include "aerun/report/regress.hpp"
#include "aerun/report/table.hpp"
#include "aerun/store/session.hpp"

namespace aerun {

struct CaseReport {
  std::string name, title, paper;
  std::string page;                  // its file name, e.g. case-demo.html
  std::vector<Table> tables;         // every table of the case, from the latest runs
  std::vector<RegressRow> verdicts;  // the current session against the baseline
  std::vector<std::string> figures;  // SVG file names (history of the case's metrics)
  std::vector<RunRecord> failures;   // the current session's runs that are not ok
  std::string note;                  // why something is absent (no case file, no gnuplot)
};

struct ReportData {
  std::string store;                  // the store's path
  std::string current, baseline;      // session labels ("" when there is no baseline)
  std::vector<SessionInfo> sessions;  // newest first
  std::vector<CaseReport> cases;
  RegressOptions options;
  double generated_at = 0;
};

std::string report_index_html(const ReportData& d);
std::string report_case_html(const ReportData& d, const CaseReport& c);

}  // namespace aerun
