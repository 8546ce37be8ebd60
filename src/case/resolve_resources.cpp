// Per-point resources and launcher counts: `{param}` placeholders in `resources:` values and in
// `launcher:` ranks / ranks_per_node / nodes / depth, filled for each sweep point.
#include <fmt/format.h>

#include "aerun/case/case_loader.hpp"
#include "aerun/case/launcher_spec.hpp"
#include "aerun/case/resources_spec.hpp"
#include "aerun/util/template_text.hpp"
#include "case/case_sections.hpp"

namespace aerun {

namespace {

std::string point_text(const ParamList& point) {
  std::string out;
  for (const auto& [name, value] : point)
    out += (out.empty() ? "" : ", ") + name + "=" + value.text();
  return out;
}

}  // namespace

namespace detail {

// The text with each `{name}` replaced by the parameter's value as written.
std::string fill(const std::string& text, const SourceLoc& loc, const std::string& key,
                 const ParamList& point) {
  std::string out;
  for (const TemplatePiece& p : scan_template(text)) {
    if (!p.placeholder) {
      out += p.text;
      continue;
    }
    const Value* v = find_param(point, p.text);
    if (!v)
      throw InputError(loc, key,
                       fmt::format("placeholder '{{{}}}' names no parameter of the point ({})",
                                   p.text, point_text(point)));
    out += v->text();
  }
  return out;
}

}  // namespace detail

bool ResourcesSpec::sizes_launch() const {
  for (const auto& t : per_point)
    if (t.name == "nodes" || t.name == "gpus_per_node") return true;
  return false;
}

ResourcesSpec resolve_resources(const ResourcesSpec& spec, const ParamList& point) {
  ResourcesSpec out = spec;
  out.per_point.clear();
  for (const ResourceTemplate& t : spec.per_point) {
    const std::string value = detail::fill(t.text, t.loc, "resources." + t.name, point);
    try {
      detail::set_resource(out, t.name, value, t.loc, "resources." + t.name);
    } catch (const InputError& e) {
      throw InputError(
          e.loc(), e.key(),
          fmt::format("{} (from '{}' at the point {})", e.message(), t.text, point_text(point)));
    }
  }
  return out;
}

double resolve_duration(const std::string& text, const SourceLoc& loc, const std::string& key,
                        const ParamList& point) {
  const std::string value = detail::fill(text, loc, key, point);
  try {
    return parse_duration(value, loc, key);
  } catch (const InputError& e) {
    throw InputError(
        loc, key,
        fmt::format("{} (from '{}' at the point {})", e.message(), text, point_text(point)));
  }
}

LauncherSpec resolve_launcher(const LauncherSpec& spec, const ParamList& point) {
  LauncherSpec out = spec;
  out.per_point.clear();
  for (const auto& t : spec.per_point) {
    const std::string key = "launcher." + t.name;
    const std::string value = detail::fill(t.text, t.loc, key, point);
    const Value v = Value::parse(value);
    const long long max = t.name == "ranks" ? 100000000 : 1000000;
    if (v.kind() != Value::Kind::Int || *v.number() < 1 || *v.number() > max)
      throw InputError(t.loc, key,
                       fmt::format("'{}' is not a whole number between 1 and {} (from '{}' at the "
                                   "point {})",
                                   value, max, t.text, point_text(point)));
    const int n = static_cast<int>(*v.number());
    if (t.name == "ranks") out.ranks = n;
    if (t.name == "ranks_per_node") out.ranks_per_node = n;
    if (t.name == "nodes") out.nodes = n;
    if (t.name == "depth") out.depth = n;
  }
  return out;
}

std::string launcher_signature(const LauncherSpec& l) {
  auto opt = [](const std::optional<int>& v) { return v ? std::to_string(*v) : std::string("-"); };
  return fmt::format("{}|{}|{}|{}", opt(l.nodes), opt(l.ranks), opt(l.ranks_per_node),
                     opt(l.depth));
}

std::string resources_signature(const ResourcesSpec& r) {
  auto opt = [](const std::optional<int>& v) { return v ? std::to_string(*v) : std::string("-"); };
  std::string s =
      fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}", opt(r.nodes), opt(r.gpus_per_node),
                  opt(r.tasks_per_node), opt(r.cpus_per_task), r.walltime_s, r.queue, r.account,
                  r.constraint, r.hint, r.exclusive, r.filesystems, r.place);
  for (const auto& e : r.extra) s += "|" + e;
  return s;
}

}  // namespace aerun
