// `aerun systems`: the system profiles aerun knows (issue 41, docs/systems.md), which one is the
// machine it runs on and why; `aerun systems check [NAME|FILE ...]` validates profiles.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "aerun/case/system_catalog.hpp"
#include "aerun/util/text_format.hpp"
#include "cli/app.hpp"

namespace aerun::cli {

namespace {

struct SystemsArgs {
  std::string folders;  // --systems
  std::string format = "text";
  std::vector<std::string> check;  // names or files
  bool checking = false;
};

std::string queues_of(const SystemProfile& p) {
  std::string out;
  for (const SystemQueue& q : p.queues) out += (out.empty() ? "" : ", ") + q.name;
  return out.empty() ? "-" : out;
}

std::string fmt_duration(double s) {
  if (s >= 3600 && static_cast<long long>(s) % 3600 == 0)
    return fmt::format("{}h", static_cast<long long>(s) / 3600);
  if (s >= 60 && static_cast<long long>(s) % 60 == 0)
    return fmt::format("{}m", static_cast<long long>(s) / 60);
  return fmt::format("{}s", s);
}

std::string list_text(const SystemCatalog& c, const SystemMatch& m) {
  size_t w = 6;
  for (const SystemProfile& p : c.profiles) w = std::max(w, p.name.size());
  std::string out = fmt::format("{:<{}}  {:<9}  {:<9}  {:<10}  {}\n", "system", w, "scheduler",
                                "launcher", "container", "queues (file)");
  for (const SystemProfile& p : c.profiles)
    out += fmt::format("{:<{}}  {:<9}  {:<9}  {:<10}  {} ({})\n", p.name, w, p.scheduler,
                       p.launcher.empty() ? "-" : p.launcher,
                       p.container.empty() ? "-" : p.container, queues_of(p), p.file);
  out += fmt::format("\nhere: {} ({})\n", m.profile->name, m.why);
  if (!m.also.empty()) {
    std::string also;
    for (const auto& a : m.also) also += (also.empty() ? "" : ", ") + a;
    out += "also recognised here, not used (the first wins): " + also + "\n";
  }
  for (const auto& h : c.hidden) out += "hidden: " + h + "\n";
  return out;
}

std::string list_json(const SystemCatalog& c, const SystemMatch& m) {
  std::string out = "{\n  \"here\": " + json_string(m.profile->name) +
                    ",\n  \"why\": " + json_string(m.why) + ",\n  \"systems\": [";
  for (size_t i = 0; i < c.profiles.size(); ++i) {
    const SystemProfile& p = c.profiles[i];
    std::string queues;
    for (const SystemQueue& q : p.queues) {
      queues +=
          std::string(queues.empty() ? "" : ", ") + "{\"name\": " + json_string(q.name) +
          ", \"max_nodes\": " +
          json_number(q.max_nodes ? std::optional<double>(static_cast<double>(*q.max_nodes))
                                  : std::nullopt) +
          ", \"walltime_s\": " + json_number(q.walltime_s) + ", \"gpus_per_node\": " +
          json_number(q.gpus_per_node ? std::optional<double>(*q.gpus_per_node) : std::nullopt) +
          "}";
    }
    out += fmt::format(
        "{}\n    {{\"name\": {}, \"title\": {}, \"file\": {}, \"scheduler\": {}, \"launcher\": {}, "
        "\"container\": {}, \"queue\": {}, \"queues\": [{}]}}",
        i ? "," : "", json_string(p.name), json_string(p.title), json_string(p.file),
        json_string(p.scheduler), json_string(p.launcher), json_string(p.container),
        json_string(p.queue), queues);
  }
  return out + "\n  ]\n}\n";
}

// One profile, as `systems check` confirms it.
std::string summary(const SystemProfile& p) {
  std::string out = fmt::format("{}: ok ({}, scheduler {}", p.name, p.file, p.scheduler);
  if (!p.launcher.empty()) out += ", launcher " + p.launcher;
  out += fmt::format(", {} queue{}", p.queues.size(), p.queues.size() == 1 ? "" : "s");
  for (const SystemQueue& q : p.queues)
    if (q.walltime_s) out += fmt::format("; {} up to {}", q.name, fmt_duration(*q.walltime_s));
  return out + ")\n";
}

int systems_command(const SystemsArgs& a) {
  const auto folders = system_folders(a.folders);
  if (a.checking) {
    std::vector<SystemProfile> checked;
    if (a.check.empty()) {
      for (const SystemProfile& p : load_system_catalog(folders).profiles) checked.push_back(p);
    } else {
      for (const std::string& what : a.check) {
        std::error_code ec;
        if (what.find('/') != std::string::npos || std::filesystem::exists(what, ec)) {
          checked.push_back(load_system_profile(what));
        } else {
          const SystemCatalog c = load_system_catalog(folders);
          const SystemProfile* p = c.find(what);
          if (!p) {
            std::string names;
            for (const SystemProfile& q : c.profiles) names += (names.empty() ? "" : ", ") + q.name;
            throw InputError(SourceLoc{}, "systems check",
                             "no system named '" + what + "' (known: " + names + ")");
          }
          checked.push_back(*p);
        }
      }
    }
    for (const SystemProfile& p : checked) std::cout << summary(p);
    return 0;
  }
  const SystemCatalog c = load_system_catalog(folders);
  const SystemMatch m = recognise_system(c, MachineFacts::here());
  std::cout << (a.format == "json" ? list_json(c, m) : list_text(c, m));
  return 0;
}

}  // namespace

void add_systems_command(CLI::App& app, Globals&, Action& action) {
  auto a = std::make_shared<SystemsArgs>();
  CLI::App* c = app.add_subcommand(
      "systems", "list the system profiles (machines a case can run on) and the one here");
  c->add_option("--systems", a->folders,
                "folders of system profiles before $AERUN_SYSTEMS and the shipped ones "
                "(colon-separated)");
  c->add_option("--format", a->format, "text | json")->check(CLI::IsMember({"text", "json"}));
  CLI::App* check = c->add_subcommand(
      "check", "validate profiles, by name or file (all that are found, when none is named)");
  check->add_option("profiles", a->check, "system names or profile files");
  check->callback([a] { a->checking = true; });
  c->callback([&action, a] { action = [a] { return systems_command(*a); }; });
}

}  // namespace aerun::cli
