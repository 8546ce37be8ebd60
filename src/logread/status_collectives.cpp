// The base vocabulary's collective communication failures beyond the NCCL wordings of
// preset_status.cpp (`comm_error`): PyTorch's NCCL watchdog, RCCL (which prints NCCL's words),
// Intel oneCCL and XCCL, Gloo, and torch.distributed's store and rendezvous.
#include "aerun/judge/run_status.hpp"
#include "logread/preset_families.hpp"

namespace aerun::detail {

void add_collective_status(const StatusAdder& add) {
  add(run_status::comm_error,
      {// torch ProcessGroupNCCL.cpp: "[PG 0 Rank 3] NCCL communicator was aborted on rank 3.
       // Original reason for failure was: ..." (abort), "[PG ID 0 PG GUID 0(default_pg) Rank 1]
       // Process group watchdog thread terminated with exception: ..." (watchdogHandler;
       // NVIDIA/Megatron-LM#935, instructlab/training#520).
       R"(NCCL communicator was aborted on rank )",
       R"(Process group watchdog thread terminated with exception)",
       // NCCL's network transport: "remote process exited or there was a network error"
       // (src/transport/net_ib.cc; NVIDIA/nccl#1405).
       R"(remote process exited or there was a network error)",
       // oneCCL: "<date>:(tid) |CCL_ERROR| file:line func: ..." (src/common/log/log.hpp, LOG_ERROR;
       // intel-extension-for-pytorch#640); torch's XCCL watchdog: "Work timed out after N
       // milliseconds".
       R"(\|CCL_ERROR\|)", R"(Work timed out after \d+ milliseconds)",
       // Gloo (pytorch/gloo gloo/transport/tcp/pair.cc): "[../third_party/gloo/gloo/transport/tcp/
       // pair.cc:598] Connection closed by peer [10.0.0.1]:1234", "Read error", "Timed out
       // waiting 1800000ms for recv operation to complete"; "Gloo connectFullMesh failed".
       R"(gloo/transport/[^\]]*\] (?:Connection closed by peer|Read error|Timed out waiting))",
       R"(Gloo connectFullMesh failed)",
       // torch.distributed's TCPStore and rendezvous: "The client socket has timed out after
       // 1800000ms while trying to connect to (10.0.0.1, 29500)." (lzhxmu/CPPO#6),
       // DistNetworkError, DistStoreError, RendezvousTimeoutError, RendezvousConnectionError.
       R"(The client socket has timed out after)", R"(DistNetworkError)", R"(DistStoreError)",
       R"(RendezvousTimeoutError)", R"(RendezvousConnectionError)"});
}

}  // namespace aerun::detail
