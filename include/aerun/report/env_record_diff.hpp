// What differs between two environment records, part by part, line by line: the section of
// `aerun diff` a reviewer reads when two results disagree.
#pragma once

#include <string>

#include "aerun/record/env_record.hpp"

namespace aerun {

struct EnvRecordDiff {
  std::string text;   // "" when neither record exists
  int different = 0;  // parts that differ (or exist in one record only)
};

// a/b may be null (no record: an ingested run, a run stored before records existed). Parts are
// matched by name; a differing part shows its status and its lines only in A ("- ") and only in
// B ("+ "), a line of B right after the line of A with the same name (NAME=..., pkg==...), at
// most max_lines per part. Parts the same are counted, and listed by name when `all`.
EnvRecordDiff diff_env_records(const EnvRecord* a, const EnvRecord* b, bool all,
                               size_t max_lines = 40);

}  // namespace aerun
