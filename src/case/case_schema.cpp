#include "aerun/case/case_schema.hpp"

namespace aerun {

std::string_view case_schema_json() {
  static constexpr std::string_view kSchema =
#include "case_schema.inc"
      ;
  return kSchema;
}

}  // namespace aerun
