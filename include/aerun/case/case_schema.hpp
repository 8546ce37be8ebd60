// The JSON Schema of case files, for editors and checkers (`aerun schema`).
#pragma once

#include <string_view>

namespace aerun {

// schema/case.schema.json as compiled in (JSON Schema draft 2020-12). It names every key the
// loader accepts, with its type; tests/unit/case/case_schema_test.cpp holds the two to each other.
std::string_view case_schema_json();

}  // namespace aerun
