#include "aerun/run/run_directory.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "aerun/judge/run_status.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/folder_marker.hpp"
#include "aerun/util/store_signature.hpp"
#include "aerun/util/template_text.hpp"

namespace aerun {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarker = ".aerun-rundir";

// A value as one path component.
std::string component(const std::string& v) {
  if (v == ".") return "%2E";
  if (v == "..") return "%2E%2E";
  std::string out;
  for (char c : v) {
    if (c == '/')
      out += "%2F";
    else if (c == '%')
      out += "%25";
    else
      out += c;
  }
  return out.empty() ? "%20" : out;
}

// What an attempt leaves that a new attempt and the cleaning keep: its log and stamps.
bool kept_file(const std::string& name) {
  static const std::regex log(R"(run-a[0-9]+\.(log|stamps)(\.gz)?)");
  return name == kMarker || std::regex_match(name, log);
}

// An aerun store anywhere in dir (the one being written, or another kept there): a run folder
// holding one is never emptied (issue 40's third pass: `--db R/own.db` with `rundir: R` lost the
// store while the case reported its run ok).
std::string store_inside(const fs::path& dir) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code st;
    if (it->is_regular_file(st) && !it->is_symlink(st) && is_aerun_store_file(it->path().string()))
      return it->path().string();
  }
  return "";
}

// Removes every entry but the kept ones; the first error's text, or "".
std::string empty_but_logs(const fs::path& dir) {
  std::error_code ec;
  std::string first_error;
  if (const std::string store = store_inside(dir); !store.empty())
    return dir.string() + ": it holds the aerun store " + store +
           " (not emptied: keep stores outside run folders)";
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (kept_file(it->path().filename().string())) continue;
    std::error_code rm;
    fs::remove_all(it->path(), rm);
    if (rm && first_error.empty()) first_error = it->path().string() + ": " + rm.message();
  }
  if (ec && first_error.empty()) first_error = dir.string() + ": " + ec.message();
  return first_error;
}

constexpr const char* kMarkerLine = "made by aerun: emptied before each attempt of its run";

// Whether dir holds the marker aerun wrote in it (in this very folder: a copy, a move or a marker
// written by hand is not aerun's; issue 40).
bool marker_is_ours(const fs::path& dir) {
  return holds_folder_marker(dir.string(), kMarker, kMarkerLine);
}

bool holds(const fs::path& outer, const fs::path& inner) {
  auto o = outer.begin(), i = inner.begin();
  for (; o != outer.end(); ++o, ++i)
    if (i == inner.end() || *o != *i) return false;
  return true;
}

}  // namespace

std::string run_directory(const CaseSpec& spec, const ParamList& params, const std::string& key,
                          int repeat, const std::string& results_dir) {
  const bool own = spec.rundir && !spec.rundir->path.empty();
  const std::string tmpl = own ? spec.rundir->path : "{case}/{key}";
  std::string path;
  for (const TemplatePiece& p : scan_template(tmpl)) {
    if (!p.placeholder) {
      path += p.text;
    } else if (p.text == "key") {
      path += key.substr(0, 16);
    } else if (const Value* v = find_param(params, p.text)) {  // a parameter wins over a built-in
      path += component(v->text());
    } else if (p.text == "case") {
      path += component(spec.name);
    } else if (p.text == "repeat") {
      path += std::to_string(repeat);
    } else {
      throw InputError(spec.rundir ? spec.rundir->loc : SourceLoc{}, "rundir.path",
                       "placeholder '{" + p.text + "}' has no value in this run");
    }
  }
  fs::path p = path;
  if (!own) p = fs::path(results_dir) / "runs" / p;
  if (p.is_relative()) p = fs::path(own ? spec.workdir : ".") / p;
  return fs::absolute(p).lexically_normal().string();
}

std::string run_directory_log(const std::string& dir, int attempt) {
  return (fs::path(dir) / fmt::format("run-a{}.log", attempt)).string();
}

void prepare_run_directory(const CaseSpec& spec, const std::string& dir_text) {
  const fs::path dir = fs::path(dir_text).lexically_normal();
  const fs::path workdir = fs::path(spec.workdir).lexically_normal();
  if (holds(dir, workdir))
    throw SystemError(
        fmt::format("rundir {} holds the workdir {}: a run directory is emptied "
                    "before each attempt; choose a folder of its own",
                    dir.string(), workdir.string()));
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir, ec)) && !fs::is_empty(dir, ec) && !marker_is_ours(dir)) {
    if (fs::exists(fs::symlink_status(dir / kMarker, ec)))
      throw SystemError(fmt::format(
          "rundir {} holds a marker aerun did not write in this folder (a copied or moved run "
          "folder, or an older aerun's): not touched (if the folder is aerun's to empty, remove "
          "its {}; else choose another rundir)",
          dir.string(), kMarker));
    throw SystemError(
        fmt::format("rundir {} exists, is not empty and was not made by aerun: not "
                    "touched (remove it, or choose another rundir)",
                    dir.string()));
  }
  fs::create_directories(dir, ec);
  if (ec) throw SystemError(fmt::format("cannot create rundir {}: {}", dir.string(), ec.message()));
  write_folder_marker(dir.string(), kMarker, kMarkerLine);
  if (const std::string err = empty_but_logs(dir); !err.empty())
    throw SystemError("cannot empty rundir " + err);
  if (!spec.rundir) return;
  for (const auto& f : spec.rundir->copy) {
    const fs::path src = fs::path(f).is_absolute() ? fs::path(f) : workdir / f;
    const fs::path dst = dir / src.filename();
    fs::copy(src, dst,
             fs::copy_options::recursive | fs::copy_options::overwrite_existing |
                 fs::copy_options::copy_symlinks,
             ec);
    if (ec)
      throw SystemError(fmt::format("rundir: cannot copy {} into {}: {}", src.string(),
                                    dir.string(), ec.message()));
  }
  for (const auto& f : spec.rundir->link) {
    const fs::path src = fs::path(f).is_absolute() ? fs::path(f) : workdir / f;
    if (!fs::exists(src, ec))
      throw SystemError(fmt::format("rundir: cannot link {}: it does not exist", src.string()));
    fs::create_symlink(src, dir / src.filename(), ec);
    if (ec)
      throw SystemError(fmt::format("rundir: cannot link {} into {}: {}", src.string(),
                                    dir.string(), ec.message()));
  }
}

bool clean_run_directory(const RundirSpec& rundir, const std::string& dir,
                         const std::string& status) {
  const bool clean = rundir.keep == RundirSpec::Keep::None ||
                     (rundir.keep == RundirSpec::Keep::Failed && status == run_status::ok);
  if (!clean || dir.empty()) return false;
  if (!marker_is_ours(dir)) return false;  // never a folder aerun did not make
  return empty_but_logs(dir).empty();
}

}  // namespace aerun
