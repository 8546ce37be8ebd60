// The name of the Slurm cluster this machine submits to (issue 41: a system profile's
// `recognise.slurm_cluster`). Inside a job Slurm sets SLURM_CLUSTER_NAME; on a login node, where
// aerun mostly runs, the name is the ClusterName of the slurm.conf that sbatch and squeue read.
#pragma once

#include <string>
#include <string_view>

namespace aerun {

// ClusterName in the text of a slurm.conf ("" when it has none). Keys are case-insensitive and a
// `#` starts a comment (slurm.conf(5)); Slurm folds the name to lower case, as this does.
std::string slurm_cluster_in_conf(std::string_view conf_text);

struct SlurmClusterHere {
  std::string name;  // "" when none is known
  std::string from;  // "SLURM_CLUSTER_NAME", or the slurm.conf it was read from
};

// SLURM_CLUSTER_NAME; else the ClusterName of $SLURM_CONF, else of /etc/slurm/slurm.conf (the
// sysconfdir of Debian's and SchedMD's RPM packages), else of /run/slurm/conf/slurm.conf (where a
// configless login node's sackd writes the configuration it fetched: sackd(8)). Only a regular
// file of at most 1 MiB is read; one that cannot be read names no cluster.
SlurmClusterHere slurm_cluster_here();

}  // namespace aerun
