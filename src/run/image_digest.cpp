#include "aerun/run/image_digest.hpp"

#include <filesystem>
#include <map>
#include <mutex>

#include "aerun/util/captured_command.hpp"
#include "aerun/util/sha256.hpp"

namespace aerun {

namespace {

namespace fs = std::filesystem;

// The first line of a command's output, when it succeeded.
std::string first_line(const std::vector<std::string>& argv) {
  const CommandResult r = run_captured(argv, 30);
  if (!r.ok()) return "";
  std::string out = r.out.substr(0, r.out.find('\n'));
  while (!out.empty() && (out.back() == '\r' || out.back() == ' ')) out.pop_back();
  return out;
}

// An image file: a path (not a registry or library reference) to a regular file.
std::string file_digest(const std::string& image, const std::string& base) {
  if (image.find("://") != std::string::npos) return "";
  const fs::path p = fs::path(image).is_absolute() ? fs::path(image) : fs::path(base) / image;
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return "";
  try {
    return "sha256:" + sha256_file(p.string());
  } catch (const std::exception&) {
    return "";
  }
}

std::string look_up(const std::string& runtime, const std::string& image, const std::string& base) {
  if (const auto at = image.find("@sha256:"); at != std::string::npos) return image.substr(at + 1);
  if (runtime == "apptainer" || runtime == "singularity" || runtime == "enroot" ||
      runtime == "pyxis")
    return file_digest(image, base);
  if (runtime == "podman" || runtime == "podman-hpc") {
    const std::string id =
        first_line({runtime, "image", "inspect", "--format", "{{.Id}}", "--", image});
    return id.empty() ? "" : id.rfind("sha256:", 0) == 0 ? id : "sha256:" + id;
  }
  if (runtime == "shifter") return first_line({"shifterimg", "lookup", image});
  return "";
}

}  // namespace

std::string image_digest(const std::string& runtime, const std::string& image,
                         const std::string& base_dir) {
  static std::mutex m;
  static std::map<std::string, std::string> known;
  const std::string key = runtime + '\0' + image + '\0' + base_dir;
  {
    std::lock_guard<std::mutex> lock(m);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  std::string d = look_up(runtime, image, base_dir);
  std::lock_guard<std::mutex> lock(m);
  return known.emplace(key, std::move(d)).first->second;
}

}  // namespace aerun
