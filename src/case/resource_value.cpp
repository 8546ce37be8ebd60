// One `resources:` value from its text, checked as it will appear in a directive line: used for
// the values written in the case file and for the per-point values once resolved.
#include <fmt/format.h>

#include <cctype>

#include "aerun/case/case_loader.hpp"
#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

// A value that goes into a directive line as it is: no whitespace, quote or shell metacharacter.
std::string word(const std::string& v, const SourceLoc& loc, const std::string& key,
                 const std::string& also = "") {
  if (v.empty()) throw InputError(loc, key, "is empty");
  for (char c : v) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) ||
                    std::string("_.,:=+@/%-").find(c) != std::string::npos ||
                    also.find(c) != std::string::npos;
    if (!ok)
      throw InputError(loc, key,
                       "'" + v + "' holds '" + std::string(1, c) +
                           "'; use letters, digits and _.,:=+@/%-" + also);
  }
  return v;
}

}  // namespace

int count(const std::string& text, const SourceLoc& loc, const std::string& key, long long min,
          long long max) {
  size_t i = text.size() > 1 && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  bool digits = i < text.size();
  for (; i < text.size(); ++i) digits = digits && std::isdigit(static_cast<unsigned char>(text[i]));
  if (!digits || text.size() > 12)
    throw InputError(loc, key, fmt::format("'{}' is not a whole number", text));
  const long long n = std::stoll(text);
  if (n < min || n > max)
    throw InputError(loc, key, fmt::format("{} must be between {} and {}", n, min, max));
  return static_cast<int>(n);
}

void set_resource(ResourcesSpec& s, const std::string& k, const std::string& text,
                  const SourceLoc& loc, const std::string& key) {
  if (k == "nodes") {
    s.nodes = count(text, loc, key, 1, 100000);
  } else if (k == "gpus_per_node") {
    s.gpus_per_node = count(text, loc, key, 0, 1024);
  } else if (k == "tasks_per_node") {
    s.tasks_per_node = count(text, loc, key, 1, 100000);
  } else if (k == "cpus_per_task") {
    s.cpus_per_task = count(text, loc, key, 1, 100000);
  } else if (k == "walltime") {
    s.walltime_s = parse_duration(text, loc, key);
    s.walltime_loc = loc;
    if (s.walltime_s < 60)
      throw InputError(loc, key, "schedulers count walltime in minutes: at least 1m");
  } else if (k == "partition" || k == "queue") {
    s.queue = word(text, loc, key);
  } else if (k == "account" || k == "project") {
    s.account = word(text, loc, key);
  } else if (k == "constraint") {
    s.constraint = word(text, loc, key, "&|[]*!()");
  } else if (k == "hint") {
    s.hint = word(text, loc, key);
  } else if (k == "filesystems") {
    s.filesystems = word(text, loc, key);
  } else if (k == "place") {
    s.place = word(text, loc, key);
  }
}

}  // namespace aerun::detail
