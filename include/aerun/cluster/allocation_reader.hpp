// What a batch scheduler tells the processes of a job through their environment: that they run in
// one (its id), its hosts, and what it holds on each node. One reader per scheduler, in files named
// for it (src/cluster/<name>_allocation.cpp: the discovery part of its backend, as
// src/sched/<name>_backend.cpp is the submitting part); discover() asks them in turn and names
// none.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/cluster/system_probe.hpp"
#include "aerun/util/scheduler_kind.hpp"

namespace aerun {

struct ClusterInfo;

class AllocationReader {
 public:
  virtual ~AllocationReader() = default;
  virtual Scheduler kind() const = 0;
  // The job this process runs in, when the scheduler's variables say it runs in one.
  virtual std::optional<std::string> job_id(const EnvLookup& env) const = 0;
  // The allocation's hostfile, when the scheduler writes one ("" when it does not); throws
  // InputError when it should and its variable is not set.
  virtual std::string hostfile(const EnvLookup&) const { return ""; }
  // The allocation's hosts and slots into c (and c.hosts_source) from its variables, when the
  // scheduler gives them that way; false when it does not. Throws InputError when they are unset
  // or contradict each other.
  virtual bool read_hosts(const EnvLookup&, ClusterInfo&) const { return false; }
  // GPUs per node the job holds (`flat`: a GPU's tiles count apart), with the variable that said
  // so; nullopt when its variables say nothing.
  struct Gpus {
    int per_node;
    std::string source;
  };
  virtual std::optional<Gpus> gpus_per_node(const EnvLookup&, bool /*flat*/) const {
    return std::nullopt;
  }
  // Logical CPUs per node the job holds; nullopt when its variables say nothing.
  virtual std::optional<int> cpus_per_node(const EnvLookup&) const { return std::nullopt; }
};

// Every scheduler's reader, in the order a job's variables are tried.
const std::vector<const AllocationReader*>& allocation_readers();
// The reader of `kind`, or null (no scheduler, or one whose jobs aerun cannot read yet).
const AllocationReader* allocation_reader(Scheduler kind);

}  // namespace aerun
