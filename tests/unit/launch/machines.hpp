// The seeds' machines as discovery would see them inside a job.
#pragma once

#include "aerun/cluster/cluster.hpp"

namespace aerun::testing {

// Polaris: PBS, 2 nodes x 4 A100, 32 cores x 2 threads per node.
inline ClusterInfo polaris() {
  ClusterInfo c;
  c.scheduler = Scheduler::Pbs;
  c.hostfile = "/var/spool/pbs/aux/3061463.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov";
  c.hosts = {"x3205c0s25b0n0.hsn.cm.polaris.alcf.anl.gov",
             "x3205c0s25b1n0.hsn.cm.polaris.alcf.anl.gov"};
  c.slots = {1, 1};
  c.hosts_source = "hostfile";
  c.gpus_per_host = 4;
  c.gpu_source = "nvidia-smi";
  c.cpus_per_host = 64;
  c.threads_per_core = 2;
  return c;
}

// Aurora: PBS, 4 nodes x 6 GPUs x 2 tiles, 2 x 52 cores x 2 threads per node.
inline ClusterInfo aurora() {
  ClusterInfo c;
  c.scheduler = Scheduler::Pbs;
  c.hostfile = "/var/spool/pbs/aux/297306.aurora-pbs-0001.hostmgmt.cm.aurora.alcf.anl.gov";
  c.hosts = {"x4415c6s5b0n0.hostmgmt2415.cm.aurora.alcf.anl.gov",
             "x4415c6s6b0n0.hostmgmt2415.cm.aurora.alcf.anl.gov",
             "x4415c6s7b0n0.hostmgmt2415.cm.aurora.alcf.anl.gov",
             "x4415c7s0b0n0.hostmgmt2415.cm.aurora.alcf.anl.gov"};
  c.slots = {1, 1, 1, 1};
  c.hosts_source = "hostfile";
  c.gpus_per_host = 12;
  c.gpu_source = "aurora";
  c.cpus_per_host = 208;
  c.threads_per_core = 2;
  return c;
}

// Perlmutter: Slurm, 2 nodes x 4 A100, 64 cores x 2 threads per node, no hostfile.
inline ClusterInfo perlmutter() {
  ClusterInfo c;
  c.scheduler = Scheduler::Slurm;
  c.hosts = {"nid001140", "nid001141"};
  c.slots = {4, 4};
  c.hosts_source = "SLURM_JOB_NODELIST";
  c.gpus_per_host = 4;
  c.gpu_source = "SLURM_GPUS_ON_NODE";
  c.cpus_per_host = 128;
  c.threads_per_core = 2;
  return c;
}

}  // namespace aerun::testing
