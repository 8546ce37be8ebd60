// The `container:` section of a case file: the image, its runtime, mounts, GPUs and environment,
// and the same filled for one sweep point (resolve_container).
#include <fmt/format.h>

#include <filesystem>

#include "aerun/util/template_text.hpp"
#include "case/case_sections.hpp"

namespace aerun {

namespace fs = std::filesystem;

ContainerMount parse_mount(const std::string& text, const std::string& base, const SourceLoc& loc,
                           const std::string& key) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t colon; (colon = text.find(':', start)) != std::string::npos; start = colon + 1)
    parts.push_back(text.substr(start, colon - start));
  parts.push_back(text.substr(start));
  ContainerMount m;
  if (parts.size() > 1 && (parts.back() == "ro" || parts.back() == "rw")) {
    m.read_only = parts.back() == "ro";
    parts.pop_back();
  }
  const std::string form = "a mount is SOURCE[:TARGET][:ro|rw], e.g. /lus/data:/data:ro";
  if (parts.size() > 2 || parts[0].empty() || (parts.size() == 2 && parts[1].empty()))
    throw InputError(loc, key, fmt::format("'{}': {}", text, form));
  for (const auto& p : parts)
    if (p.find_first_of(",;\n") != std::string::npos)
      throw InputError(loc, key,
                       fmt::format("'{}': a mount path may not hold ',', ';' or a newline (the "
                                   "runtimes' mount lists are separated by them)",
                                   text));
  const fs::path src = parts[0];
  m.source = (src.is_absolute() ? src : fs::path(base) / src).lexically_normal().string();
  while (m.source.size() > 1 && m.source.back() == '/') m.source.pop_back();  // `.`, `data/`
  m.target = parts.size() == 2 ? parts[1] : m.source;
  if (!fs::path(m.target).is_absolute())
    throw InputError(loc, key,
                     fmt::format("'{}': the target '{}' is not an absolute path inside "
                                 "the image",
                                 text, m.target));
  return m;
}

// An image file named relative to the case file (`./x.sqsh`, `img/pytorch.sif`) becomes absolute:
// runs may start in their own directories. Registry references are left as they are.
std::string image_path(const std::string& image, const std::string& base) {
  const bool relative_file = image.rfind("./", 0) == 0 || image.rfind("../", 0) == 0;
  const auto ends = [&](std::string_view ext) {
    return image.size() > ext.size() &&
           image.compare(image.size() - ext.size(), ext.size(), ext) == 0;
  };
  const bool file_name = ends(".sif") || ends(".simg") || ends(".sqsh") || ends(".squashfs");
  if (image.empty() || image[0] == '/' || image.find("://") != std::string::npos ||
      image.find('#') != std::string::npos || !(relative_file || file_name))
    return image;
  return (fs::path(base) / image).lexically_normal().string();
}

bool varies_per_point(const ContainerSpec& c) {
  auto has = [](const std::string& s) { return !placeholders(s).empty(); };
  return has(c.image) || std::any_of(c.mount_texts.begin(), c.mount_texts.end(), has) ||
         std::any_of(c.env.begin(), c.env.end(), [&](const auto& e) { return has(e.second); });
}

namespace detail {

namespace {

const std::vector<std::string>& container_keys() {
  static const std::vector<std::string> keys{"image", "runtime", "mounts", "gpus", "env", "shell"};
  return keys;
}

bool has_placeholder(const std::string& s) {
  return !placeholders(s).empty();
}

std::string one_of(const YamlReader& r, const Item& e, const std::vector<std::string>& valid,
                   const char* what) {
  const std::string v = r.text(e);
  if (std::find(valid.begin(), valid.end(), v) == valid.end())
    throw InputError(
        e.loc, e.key,
        fmt::format("unknown {} '{}'{}; use {}", what, v, did_you_mean(v, valid), joined(valid)));
  return v;
}

}  // namespace

void read_container(const YamlReader& r, const Item& it, CaseSpec& spec, const std::string& base) {
  if (!it.node.IsMap())
    throw InputError(it.loc, it.key,
                     "expected a map with 'image' and 'runtime' (e.g. {image: pytorch.sif, "
                     "runtime: apptainer}), got " +
                         describe(it.node));
  ContainerSpec c;
  c.loc = it.key_loc;
  c.base = base;
  bool has_image = false, has_runtime = false;
  for (const Item& e : r.entries(it, container_keys())) {
    if (e.name == "image") {
      c.image = r.text(e);
      if (c.image.find_first_of("\n\r") != std::string::npos)
        throw InputError(e.loc, e.key, "an image name is one line");
      has_image = true;
    } else if (e.name == "runtime") {
      c.runtime = one_of(r, e, container_runtimes(), "container runtime");
      has_runtime = true;
    } else if (e.name == "gpus") {
      c.gpus = one_of(r, e, {"auto", "nvidia", "rocm", "none"}, "gpus value");
    } else if (e.name == "shell") {
      c.shell = r.text(e);
    } else if (e.name == "mounts") {
      r.expect_list(e);
      for (const Item& m : r.elements(e)) {
        const std::string text = r.text(m);
        c.mount_texts.push_back(text);
        if (!has_placeholder(text)) c.mounts.push_back(parse_mount(text, base, m.loc, m.key));
      }
    } else if (e.name == "env") {
      r.expect_map(e);
      for (const Item& v : r.entries(e)) {
        if (!is_identifier(v.name))
          throw InputError(v.key_loc, v.key,
                           "'" + v.name + "' is not a variable name ([A-Za-z_][A-Za-z0-9_]*)");
        const std::string value = r.value(v).text();
        if (value.find_first_of("\n\r") != std::string::npos)
          throw InputError(v.loc, v.key, "a container variable's value is one line");
        c.env.emplace_back(v.name, value);
      }
    }
  }
  if (!has_image) throw InputError(it.loc, it.key, "missing required key 'image'");
  if (!has_runtime)
    throw InputError(it.loc, it.key,
                     "missing required key 'runtime' (" + joined(container_runtimes()) + ")");
  c.per_point = varies_per_point(c);
  if (!has_placeholder(c.image)) c.image = image_path(c.image, base);
  spec.container = std::move(c);
}

void check_container(const CaseSpec& spec) {
  if (!spec.container || !spec.container->per_point) return;
  std::vector<std::string> names;
  for (const auto& p : spec.params) names.push_back(p.name);
  for (const auto& d : spec.derive) names.push_back(d.name);
  auto check = [&](const std::string& text, const std::string& key) {
    for (const Placeholder& p : placeholders(text))
      if (!contains(names, p.name))
        throw InputError(spec.container->loc, "container." + key,
                         fmt::format("placeholder '{{{}}}' names no parameter (known: {})", p.name,
                                     joined(names)));
  };
  check(spec.container->image, "image");
  for (size_t i = 0; i < spec.container->mount_texts.size(); ++i)
    check(spec.container->mount_texts[i], fmt::format("mounts[{}]", i));
  for (const auto& [name, value] : spec.container->env) check(value, "env." + name);
}

}  // namespace detail

ContainerSpec resolve_container(const ContainerSpec& spec, const ParamList& point) {
  if (!spec.per_point) return spec;
  ContainerSpec c = spec;
  c.per_point = false;
  c.image = image_path(detail::fill(spec.image, spec.loc, "container.image", point), spec.base);
  if (c.image.empty() || c.image.find_first_of("\n\r") != std::string::npos)
    throw InputError(spec.loc, "container.image",
                     fmt::format("'{}' fills to no image name on one line", spec.image));
  c.mounts.clear();
  for (size_t i = 0; i < spec.mount_texts.size(); ++i) {
    const std::string key = fmt::format("container.mounts[{}]", i);
    c.mounts.push_back(parse_mount(detail::fill(spec.mount_texts[i], spec.loc, key, point),
                                   spec.base, spec.loc, key));
  }
  for (auto& [name, value] : c.env)
    value = detail::fill(value, spec.loc, "container.env." + name, point);
  return c;
}

std::string container_signature(const ContainerSpec& c) {
  std::string s = c.runtime + "|" + c.image + "|" + c.gpus + "|" + c.shell;
  for (const auto& m : c.mounts)
    s += "|m=" + m.source + ":" + m.target + (m.read_only ? ":ro" : "");
  for (const auto& t : c.mount_texts) s += "|t=" + t;
  for (const auto& [n, v] : c.env) s += "|e=" + n + "=" + v;
  return s;
}

}  // namespace aerun
