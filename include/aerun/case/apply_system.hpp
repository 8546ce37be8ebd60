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

// An InputError at the case's `valid_systems:` when it names some and `system` (a profile's name,
// `local` for none) is not among them.
void check_valid_system(const CaseSpec& spec, const std::string& system);

// `launcher: system` (or `kind: system`) made the profile's launcher: its `launcher:`, else srun
// under Slurm, else none (one process; an error at launcher.kind when the case asks for more
// ranks). Part of apply_system; called alone for a case run on no named system.
void resolve_system_launcher(CaseSpec& spec, const SystemProfile& profile);

}  // namespace aerun
