// A case run on a system (issue 41, docs/systems.md): the system profile's scheduler, default
// queue, account and filesystems, its queue's GPUs, constraint and QOS fill what the case leaves
// unset; the case's request is checked against the queue's limits; the profile's environment
// set-up becomes the lines every run starts with.
#pragma once

#include "aerun/case/case_spec.hpp"
#include "aerun/case/system_profile.hpp"

namespace aerun {

// Applies profile to spec (what the case sets itself wins). Throws InputError at the case's key
// (resources.nodes, resources.walltime, resources.queue) naming the profile's file when the case
// asks what the system's queue does not allow.
void apply_system(CaseSpec& spec, const SystemProfile& profile);

}  // namespace aerun
