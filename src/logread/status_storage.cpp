// The base vocabulary's full file systems (`disk_full`): a checkpoint or a log that could not be
// written is neither a bug of the run nor a node failure.
#include "aerun/judge/run_status.hpp"
#include "logread/preset_families.hpp"

namespace aerun::detail {

void add_storage_status(const StatusAdder& add) {
  add(run_status::disk_full,
      {// glibc's strerror texts (sysdeps/gnu/errlist.h: ENOSPC, EDQUOT), as CPython prints them:
       // "OSError: [Errno 28] No space left on device" (databrickslabs/dolly#139), "OSError:
       // [Errno 122] Disk quota exceeded: 'out/intermediate.ntw'" (KennthShang/HostG#7), and Rust
       // "message: \"No space left on device\"" (safetensors; hiyouga/LlamaFactory#5155).
       R"(No space left on device)", R"(Disk quota exceeded)",
       // torch.save's zip writer fails first: "PytorchStreamWriter failed writing file data.pkl:
       // file write failed" (caffe2/serialize/inline_container.cc; SWivid/F5-TTS#458).
       R"(PytorchStreamWriter failed writing file )"});
}

}  // namespace aerun::detail
