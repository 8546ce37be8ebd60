// How often aerun asks a batch scheduler about its jobs: the first interval, and the longest the
// backoff may reach (docs/schedulers.md "Polling"). Written `30s` (the first interval; the
// longest stays 30 s or grows to it) or `10s..5m`.
#pragma once

#include <optional>
#include <string>

#include "aerun/util/error.hpp"

namespace aerun {

struct PollInterval {
  double min_s = 1;   // the first interval, and the one after a poll in which a job finished
  double max_s = 30;  // the backoff (x1.5 per quiet poll) stops here
};

// Parses "DURATION" or "DURATION..DURATION" (durations as case files write them). Throws
// InputError naming loc and key for a bad duration, an interval under 0.1 s or a max below the min.
PollInterval parse_poll_interval(const std::string& text, const SourceLoc& loc,
                                 const std::string& key);

// The interval in force: the command line's, else the case's, else $AERUN_POLL_INTERVAL, else
// 1 s..30 s; never below $AERUN_POLL_MIN seconds (a site's floor; a warning says when it applies).
PollInterval resolve_poll_interval(const std::optional<PollInterval>& cli,
                                   const std::optional<PollInterval>& from_case,
                                   std::string* warning);

}  // namespace aerun
