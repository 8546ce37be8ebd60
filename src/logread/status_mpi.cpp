// The base vocabulary's MPI launchers and runtimes: MPICH / Hydra, Intel MPI, Cray MPICH, HPE PALS,
// Open MPI (ORTE) and Open MPI 5 (PRRTE), and the PMI client.
#include "aerun/judge/run_status.hpp"
#include "logread/preset_families.hpp"

namespace aerun::detail {

void add_mpi_status(const StatusAdder& add) {
  // Cray MPICH over libfabric: "MPIDI_OFI_handle_cq_error(1075)......: OFI poll failed
  // (ofi_events.c:1077:MPIDI_OFI_handle_cq_error:Input/output error - CANCELED)"
  // (ofiwg/libfabric#10072).
  add(run_status::comm_error, {R"(OFI poll failed \()"});
  // A lost daemon: Open MPI 4 "ORTE has lost communication with a remote daemon." and PRRTE's
  // "PRTE has lost communication with a remote daemon." (help-errmgr-base.txt [node-died]).
  add(run_status::node_failure, {R"(RTE has lost communication with a remote daemon)"});
  // The PMI client with no server to talk to: "[unset]: write_line error; fd=-1 buf=:cmd=abort
  // exitcode=1", "PMIU_write error; fd=" (mpich src/pmi/src/pmi_util.c).
  add(run_status::launcher_failed, {R"((?:write_line|PMIU_write) error; fd=)"});
  add(run_status::failed,
      {// MPICH ch4 and Intel MPI: "Abort(1) on node 0 (rank 0 in comm 0): application called
       // MPI_Abort(MPI_COMM_WORLD, 1) - process 0" (src/mpi/init/init_impl.c;
       // idaholab/moose#28399).
       R"(application called MPI_Abort\()",
       // Cray MPICH: "MPICH ERROR [Rank 519] [job id 947981.0] [Tue Jun 11 15:11:42 2024] [c1207]
       // - Abort(539602063) (rank 519 in comm 0): Fatal error in PMPI_Iprobe: ..."
       R"(MPICH ERROR \[Rank \d+\])",
       // Hydra: "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)"
       // (src/pm/hydra/mpiexec/mpiexec.c); Intel MPI's "=   KILLED BY SIGNAL: 9 (Killed)"
       // (bsc-performance-tools/extrae#101).
       R"(TERMINATED WITH THE EXIT STRING: )", R"(=   KILLED BY SIGNAL: \d+)",
       // Open MPI: "MPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD"
       // (help-mpi-api.txt [mpi-abort]); "mpirun noticed that process rank 1 with PID 2 on node
       // n1 exited on signal 9 (Killed)." (help-orterun.txt; PRRTE's help-prun.txt breaks the line
       // after "exited on"); "Primary job  terminated normally, but 1 process returned"
       // (errmgr_default_hnp.c, two spaces); "... detected that one or more processes exited
       // with non-zero status".
       R"(MPI_ABORT was invoked on rank )",
       R"(noticed that process rank \d+ with PID \d+ on node \S+ exited on)",
       R"(Primary job  terminated normally, but \d+ process)",
       R"(detected that one or more processes exited with non-zero status)",
       // HPE PALS (mpiexec on Cray EX): "x3006c0s1b0n0.hsn.cm.polaris.alcf.anl.gov: rank 0
       // exited with code 2" (the "died from signal" form is in preset_status.cpp).
       R"(: rank \d+ exited with code [1-9]\d*)",
       // The PMI-1 client's abort: "[cli_3]: aborting job:" (mpich src/pmi/src/pmi_v1.c).
       R"(\]: aborting job:?)"});
}

}  // namespace aerun::detail
