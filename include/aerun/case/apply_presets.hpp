// How a case's `presets:` list (the presets themselves: aerun/logread/presets.hpp) becomes its
// metrics, status patterns, completion and startup.
#pragma once

#include "aerun/case/case_spec.hpp"

namespace aerun {

// Resolves spec.presets into spec.metrics / status / startup (with no presets: the base vocabulary
// only). Rules: preset metrics come first in
// preset order; a case metric with the name of a preset metric replaces it in place, other case
// metrics follow; when two presets define one name the first listed wins. Status patterns: the
// case's first (they win on a line both match), then each preset's own, then the shared ones
// once. Completion: the case's end and counter patterns first, then each preset's (deduplicated).
// Startup: a field the case sets wins, else the first preset that sets it. Throws
// InputError at loc (key "presets") for an unknown name, suggesting the nearest one.
void apply_presets(CaseSpec& spec, const SourceLoc& loc);

}  // namespace aerun
