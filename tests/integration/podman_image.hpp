// A local podman image for the container tests (issue 31): busybox, its applets, a file only the
// image has (/opt/only-in-image/marker) and its own /etc/os-release, imported from a tarball with
// `podman import` (no registry), tagged :1 and, with another marker, :2. Podman is set up as this
// machine needs it: Debian's runc, the cgroupfs manager, no default ulimits (crun refused the
// hybrid cgroup layout, and the default ulimits), through a containers.conf named by
// CONTAINERS_CONF (containers.conf(5): "just this path will be used").
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <string>

#include "harness.hpp"

namespace aerun::testing {

class PodmanTestImage {
 public:
  // Builds the images; "" when they run, else why not (podman missing, or unable to start a
  // container on this machine).
  static std::string build() {
    if (std::system("command -v podman >/dev/null 2>&1 && test -x /bin/busybox") != 0)
      return "podman or busybox-static is not installed (scripts/install-deps.sh --test)";
    dir_ = new TempDir();
    const TempDir& d = *dir_;
    write_file(d / "containers.conf",
               "[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = \"cgroupfs\"\n"
               "runtime = \"runc\"\n");
    repo_ = "localhost/aerun-test-" + std::to_string(::getpid());
    const std::string root = d / "rootfs";
    const std::string build =
        "set -e; mkdir -p " + root + "/bin " + root + "/opt/only-in-image " + root + "/tmp " +
        root + "/etc; cp /bin/busybox " + root +
        "/bin/; for a in sh echo cat env pwd sleep test; do ln -s busybox " + root +
        "/bin/$a; done; printf 'ID=aerun-test-image\\n' > " + root + "/etc/os-release; " +
        "echo image-marker-31 > " + root + "/opt/only-in-image/marker; tar -C " + root + " -cf " +
        (d / "rootfs.tar") + " .; " + env() + " podman import -q " + (d / "rootfs.tar") + " " +
        image() + " >" + (d / "import.out") + " 2>&1; echo image-marker-2 > " + root +
        "/opt/only-in-image/marker; tar -C " + root + " -cf " + (d / "rootfs2.tar") + " .; " +
        env() + " podman import -q " + (d / "rootfs2.tar") + " " + repo_ + ":2 >>" +
        (d / "import.out") + " 2>&1";
    if (std::system(build.c_str()) != 0)
      return "podman import failed: " + read_file(d / "import.out");
    const std::string probe = env() + " podman run --rm " + image() + " /bin/sh -c 'echo ok' >" +
                              (d / "probe.out") + " 2>&1";
    if (std::system(probe.c_str()) != 0)
      return "podman cannot run a container on this machine: " + read_file(d / "probe.out");
    return "";
  }
  static void remove() {
    if (dir_) [[maybe_unused]]
      const int rc = std::system(
          (env() + " podman rmi -f " + image() + " " + repo_ + ":2 >/dev/null 2>&1").c_str());
    delete dir_;
    dir_ = nullptr;
  }
  static std::string env() { return "CONTAINERS_CONF=" + (*dir_ / "containers.conf"); }
  static std::string repo() { return repo_; }
  static std::string image() { return repo_ + ":1"; }
  // podman's id of an image (its local image id, 64 hex digits).
  static std::string id_of(const std::string& image) {
    std::string id = command_output(env() + " podman image inspect --format '{{.Id}}' " + image);
    while (!id.empty() && id.back() == '\n') id.pop_back();
    return id;
  }

 private:
  static inline TempDir* dir_ = nullptr;
  static inline std::string repo_;
};

}  // namespace aerun::testing
