#include "probe/image_probe.hpp"

#include <fmt/format.h>

#include <random>

#include "aerun/util/sha256.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {

namespace {

// Each tool the image may hold: its item name, and the shell words that run it. The same tools
// as on the host (capture_environment.cpp), and the image's OS.
struct ImageTool {
  const char* name;
  const char* test;  // a program that must be found, "" for a file test in run
  const char* run;
};
constexpr ImageTool kTools[] = {
    {"os", "", "test -r /etc/os-release && cat /etc/os-release"},
    {"cc --version", "cc", "cc --version"},
    {"c++ --version", "c++", "c++ --version"},
    {"nvcc --version", "nvcc", "nvcc --version"},
    {"mpicc --version", "mpicc", "mpicc --version"},
    {"mpiexec --version", "mpiexec", "mpiexec --version"},
    {"python --version", "", "\"$py\" --version"},
    {"pip freeze", "", "\"$py\" -m pip freeze --disable-pip-version-check"},
    {"conda list", "conda", "conda list --export"},
};

std::string random_mark() {
  std::random_device rd;
  return fmt::format("@@aerun-image-item-{:08x}{:08x}", rd(), rd());
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  size_t b = 0;
  while (b < s.size() && s[b] == '\n') ++b;
  return s.substr(b);
}

}  // namespace

std::string image_probe_script(const std::string& mark) {
  std::string s = "py=python; command -v python >/dev/null 2>&1 || py=python3\n";
  for (const ImageTool& t : kTools) {
    std::string when = *t.test ? fmt::format("command -v {} >/dev/null 2>&1", t.test) : "";
    if (std::string_view(t.name) == "python --version" || std::string_view(t.name) == "pip freeze")
      when = "command -v \"$py\" >/dev/null 2>&1";
    if (std::string_view(t.name) == "os") when = "test -r /etc/os-release";
    s += fmt::format("if {}; then printf '%s\\n' {}; {} 2>&1; fi\n", when,
                     shell_quote(mark + " " + t.name), t.run);
  }
  return s + "exit 0\n";
}

std::vector<EnvItem> image_items(const std::string& output, const std::string& mark,
                                 const std::string& prefix) {
  std::vector<EnvItem> items;
  const std::string head = mark + " ";
  // The first mark at the start of a line (a runtime may print before the script starts).
  size_t pos = output.rfind(head, 0) == 0 ? 0 : output.find("\n" + head);
  if (pos != std::string::npos && pos > 0) ++pos;
  while (pos != std::string::npos) {
    const size_t eol = output.find('\n', pos);
    const std::string name = output.substr(
        pos + head.size(), eol == std::string::npos ? std::string::npos : eol - pos - head.size());
    const size_t body = eol == std::string::npos ? output.size() : eol + 1;
    size_t next = output.find("\n" + head, body - 1);
    const size_t end = next == std::string::npos ? output.size() : next + 1;
    items.push_back({prefix + ": " + name, "", trimmed(output.substr(body, end - body))});
    pos = next == std::string::npos ? std::string::npos : next + 1;
  }
  return items;
}

std::vector<EnvItem> probe_image(const ImageProbe& image, int index, const CommandSettings& how,
                                 ProbeCache* cache) {
  const std::string prefix = index == 0 ? "image" : fmt::format("image {}", index + 1);
  EnvItem about{
      prefix, "",
      fmt::format("{}\ndigest {}", image.image, image.digest.empty() ? "unknown" : image.digest)};
  if (image.start.empty()) {
    about.status = "not started here: " + image.not_started;
    return {about};
  }
  // The output of a start of this image is kept under its digest and the script's text.
  const std::string kept_mark = "@@aerun-image-item";
  const std::string fingerprint = image.digest.empty()
                                      ? ""
                                      : "image " + sha256_hex(image.digest + "\n" + image.start +
                                                              "\n" + image_probe_script(kept_mark));
  if (cache && cache->enabled() && !fingerprint.empty())
    if (auto item = cache->find(fingerprint)) {
      std::vector<EnvItem> items{about};
      for (auto& i : image_items(item->text, kept_mark, prefix)) items.push_back(std::move(i));
      return items;
    }
  const std::string mark = random_mark();
  CommandSettings mine = how;
  mine.timeout_s = image.timeout_s;
  const std::string line =
      image.start + " " + shell_quote(image.shell) + " -c " + shell_quote(image_probe_script(mark));
  const CommandResult r = run_captured({"bash", "-c", line}, mine);
  std::vector<EnvItem> items{about};
  if (!r.ok()) {
    items[0].status = "could not start the image: " + r.outcome(image.timeout_s);
    items[0].text += "\n" + trimmed(r.err.empty() ? r.out : r.err);
    return items;
  }
  for (auto& i : image_items(r.out, mark, prefix)) items.push_back(std::move(i));
  if (cache && cache->enabled() && !fingerprint.empty()) {
    std::string kept;
    for (size_t i = 1; i < items.size(); ++i)
      kept +=
          kept_mark + " " + items[i].name.substr(prefix.size() + 2) + "\n" + items[i].text + "\n";
    cache->keep(fingerprint, EnvItem{"image tools", "", kept});
  }
  return items;
}

}  // namespace aerun
