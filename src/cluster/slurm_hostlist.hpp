// Slurm's compressed host lists ("nid[001-004,010],gpu[1-2]b[3,5]") and per-node task counts
// ("2(x3),1"), expanded exactly as `scontrol show hostnames` and Slurm's own parsers do.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace aerun {

// Expands a Slurm host list into host names, in Slurm's order, duplicates kept (as scontrol
// does). Entries are separated by commas or whitespace outside brackets. A bracket holds
// comma-separated numbers or ranges `lo-hi`; the width of `lo` as written sets the zero padding.
// With several bracket groups in one entry the last varies fastest and the others from the
// first (fastest) to the next-to-last (slowest), which is Slurm's order. Throws InputError
// "hostlist: position N: ..." (1-based) for what Slurm rejects (a range going down, more than
// 65536 hosts in a range, text after the last `]`, empty brackets), for unbalanced brackets, and
// for a list of more than max_hosts names or of names adding up to more than kMaxHostBytes
// (both checked before expanding). Linear in the hosts.
inline constexpr size_t kMaxHosts = 4u << 20;  // 4 Mi names: 1 M-node machines fit 4 times over
inline constexpr size_t kMaxHostBytes = 256u << 20;  // long names x many hosts stay bounded too
std::vector<std::string> expand_hostlist(std::string_view list, size_t max_hosts = kMaxHosts);

// Expands SLURM_TASKS_PER_NODE / SLURM_JOB_CPUS_PER_NODE: "2(x3),1" -> {2, 2, 2, 1}.
// Throws InputError naming the position of anything else.
std::vector<int> expand_tasks_per_node(std::string_view counts);

}  // namespace aerun
