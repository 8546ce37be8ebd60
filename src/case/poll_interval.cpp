#include "aerun/case/poll_interval.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "aerun/case/case_loader.hpp"

namespace aerun {

PollInterval parse_poll_interval(const std::string& text, const SourceLoc& loc,
                                 const std::string& key) {
  PollInterval p;
  const auto dots = text.find("..");
  p.min_s = parse_duration(text.substr(0, dots), loc, key);
  if (dots != std::string::npos)
    p.max_s = parse_duration(text.substr(dots + 2), loc, key);
  else
    p.max_s = std::max(p.max_s, p.min_s);
  if (p.min_s < 0.1)
    throw InputError(loc, key, fmt::format("'{}': a scheduler is asked at most every 0.1 s", text));
  if (p.max_s < p.min_s)
    throw InputError(loc, key,
                     fmt::format("'{}': the longest interval is shorter than the first", text));
  return p;
}

PollInterval resolve_poll_interval(const std::optional<PollInterval>& cli,
                                   const std::optional<PollInterval>& from_case,
                                   std::string* warning) {
  PollInterval p;
  if (cli) {
    p = *cli;
  } else if (from_case) {
    p = *from_case;
  } else if (const char* env = std::getenv("AERUN_POLL_INTERVAL"); env && *env) {
    p = parse_poll_interval(env, SourceLoc{}, "AERUN_POLL_INTERVAL");
  }
  if (const char* env = std::getenv("AERUN_POLL_MIN"); env && *env) {
    const double floor = parse_duration(env, SourceLoc{}, "AERUN_POLL_MIN");
    if (p.min_s < floor) {
      if (warning)
        *warning = fmt::format(
            "polling every {:g} s at first, not {:g} s: this site's AERUN_POLL_MIN is {}", floor,
            p.min_s, env);
      p.min_s = floor;
      p.max_s = std::max(p.max_s, floor);
    }
  }
  return p;
}

}  // namespace aerun
