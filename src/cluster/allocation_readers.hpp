// The schedulers' allocation readers (allocation_reader.hpp), one per file, and what they share.
#pragma once

#include <string>
#include <vector>

#include "aerun/cluster/allocation_reader.hpp"

namespace aerun {

const AllocationReader& slurm_allocation();
const AllocationReader& pbs_allocation();
const AllocationReader& lsf_allocation();

// Appends `more` to hosts, each host once, in first-seen order (linear in the hosts).
void add_unique_hosts(std::vector<std::string>& hosts, std::vector<std::string> more);

// A positive count written as digits (after an optional "type:" prefix, "a100:4"), else 0.
int positive_count(const std::string& text);

}  // namespace aerun
