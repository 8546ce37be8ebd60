// The environment record's items taken inside a container image (capture_environment.hpp).
#pragma once

#include <string>
#include <vector>

#include "aerun/probe/capture_environment.hpp"
#include "aerun/probe/probe_cache.hpp"
#include "aerun/util/captured_command.hpp"

namespace aerun {

// The script the image's shell runs: for each tool the image has, a line "MARK NAME", then what
// the tool printed. mark: a line no tool prints (random per call).
std::string image_probe_script(const std::string& mark);

// The items of the image: "image" (what it is, how its start ended), then one per tool found,
// named "<prefix>: <tool>" where prefix is "image" (index 0) or "image N". The image is started
// once (how: the host's environment and directory), unless cache holds its output for this
// digest.
std::vector<EnvItem> probe_image(const ImageProbe& image, int index, const CommandSettings& how,
                                 ProbeCache* cache);

// The items from the script's output (a test seam).
std::vector<EnvItem> image_items(const std::string& output, const std::string& mark,
                                 const std::string& prefix);

}  // namespace aerun
