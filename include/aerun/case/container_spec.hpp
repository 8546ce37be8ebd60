// The `container:` section of a case file: the image every run of the case runs inside, the
// runtime that starts it, and what it sees of the host (mounts, GPUs, environment).
// docs/containers.md describes each runtime's line.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "aerun/util/error.hpp"
#include "aerun/util/value.hpp"

namespace aerun {

// One bind mount: a host path and where the image sees it.
struct ContainerMount {
  std::string source;      // absolute (a relative one resolves against the case file's folder)
  std::string target;      // absolute; the source's own path when the case gives none
  bool read_only = false;  // `:ro`
};

struct ContainerSpec {
  std::string image;    // a runtime's image reference: a file (.sif, .sqsh) or a registry name
  std::string runtime;  // one of container_runtimes()
  std::vector<ContainerMount> mounts;
  std::string gpus = "auto";                             // auto | nvidia | rocm | none
  std::vector<std::pair<std::string, std::string>> env;  // set inside the image, in file order
  std::string shell = "/bin/sh";  // runs a command that has no launcher, inside the image
  SourceLoc loc;                  // of the `container:` key
  // `{param}` placeholders in the image, a mount or an env value: resolve_container() fills them
  // for each sweep point from the texts as written (mount_texts, base: the case file's folder).
  bool per_point = false;
  std::vector<std::string> mount_texts;
  std::string base;
};

// The runtimes a case may name, in documentation order.
inline const std::vector<std::string>& container_runtimes() {
  static const std::vector<std::string> r{"apptainer", "singularity", "pyxis",  "enroot",
                                          "podman",    "podman-hpc",  "shifter"};
  return r;
}

// Whether the image, a mount's text or an env value holds a `{param}` placeholder.
bool varies_per_point(const ContainerSpec& c);

// One mount from its text `SOURCE[:TARGET][:ro|rw]`; a relative source resolves against base.
// Throws InputError at loc, key, for an empty or relative target or an unknown flag.
ContainerMount parse_mount(const std::string& text, const std::string& base, const SourceLoc& loc,
                           const std::string& key);

// An image file named relatively (`./x.sqsh`, `img/pytorch.sif`: starting with ./ or ../, or
// ending in .sif, .simg, .sqsh, .squashfs) made absolute against base; any other image as it is.
std::string image_path(const std::string& image, const std::string& base);

// The image of one sweep point: its `{param}` placeholders filled from the point's parameters.
// Throws InputError at the container's file:line naming the point.
ContainerSpec resolve_container(const ContainerSpec& spec, const ParamList& point);

// What tells two containers apart in a case's version and in a launch line's cache.
std::string container_signature(const ContainerSpec& c);

}  // namespace aerun
