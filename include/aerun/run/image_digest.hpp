// The identity of a container image as its runtime knows it, stored with every run made in it
// (RunRecord::container_digest) so that two runs in different images never look alike:
//  - a reference pinned by digest (`...@sha256:...`): that digest;
//  - an image file (Apptainer/Singularity SIF, an Enroot or Pyxis squashfs): "sha256:" and the
//    SHA-256 of the file (a SIF's own id is zeros when built reproducibly, so the file's bytes
//    are what tell two apart);
//  - podman / podman-hpc: the local image id (`podman image inspect --format {{.Id}}`);
//  - Shifter: the id `shifterimg lookup` gives;
//  - else "" (a registry tag nothing has pulled here: its digest is not known before it runs).
#pragma once

#include <string>

namespace aerun {

// Looked up once per (runtime, image, base_dir) in this process; base_dir resolves a relative
// image file.
std::string image_digest(const std::string& runtime, const std::string& image,
                         const std::string& base_dir);

}  // namespace aerun
