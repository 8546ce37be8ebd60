// See matcher.hpp.
#include "extract/matcher.hpp"

#include "extract/required_literal.hpp"

namespace aerun::extract_detail {

Matcher compile(const std::string& pattern, const SourceLoc& loc, const std::string& key,
                int want_groups) {
  RE2::Options opts;
  opts.set_log_errors(false);
  Matcher m;
  m.re = std::make_unique<RE2>(pattern, opts);
  if (!m.re->ok()) throw InputError(loc, key, "invalid regex: " + m.re->error());
  if (want_groups >= 0 && m.re->NumberOfCapturingGroups() != want_groups)
    throw InputError(loc, key,
                     "pattern must have exactly " +
                         (want_groups == 1 ? std::string("one capture group")
                                           : std::to_string(want_groups) + " capture groups") +
                         ", found " + std::to_string(m.re->NumberOfCapturingGroups()) + ": " +
                         pattern);
  m.literal = search_literal(pattern, &m.anchored);
  if (m.anchored) {
    m.fast = LinearPattern::recognise(pattern);
    if (m.fast && m.fast->groups() != m.re->NumberOfCapturingGroups()) m.fast.reset();
    if (m.fast && m.fast->leading_text().starts_with(m.literal)) m.known = m.literal.size();
  }
  return m;
}

}  // namespace aerun::extract_detail
