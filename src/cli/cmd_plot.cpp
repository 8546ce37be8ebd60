// `aerun plot NAME`: a case's figures drawn by gnuplot to SVG and PNG, script kept beside them.
#include <fmt/format.h>

#include <poll.h>
#include <signal.h>
#include <unistd.h>
#include <algorithm>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "aerun/report/plot.hpp"
#include "aerun/report/table_finder.hpp"
#include "aerun/report/table_query.hpp"
#include "aerun/run/child_process.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/util/atomic_file.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/file_name.hpp"
#include "aerun/util/folder_marker.hpp"
#include "cli/app.hpp"
#include "cli/gnuplot_run.hpp"
#include "cli/open_store.hpp"
#include "cli/run_selection.hpp"

extern char** environ;

namespace aerun::cli {

namespace fs = std::filesystem;

namespace {

// A program's path in PATH, or "" when there is none.
std::string find_program(const char* name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path p =
        fs::path(dirs.substr(start, end - start).empty() ? "." : dirs.substr(start, end - start)) /
        name;
    if (::access(p.c_str(), X_OK) == 0) return p.string();
    start = end + 1;
  }
  return "";
}

}  // namespace

std::string find_gnuplot() {
  return find_program("gnuplot");
}

// Runs gnuplot on the script in `dir`; its output is collected and shown when it fails.
void run_gnuplot(const std::string& gnuplot, const std::string& dir, const std::string& script) {
  ChildProcess::Options o;
  o.argv = {gnuplot, script};
  // gnuplot dies with aerun, even a kill -9'd one (util-linux's setpriv sets the parent-death
  // signal that posix_spawn cannot; it is in every Debian, util-linux being essential).
  if (static const std::string setpriv = find_program("setpriv"); !setpriv.empty())
    o.argv = {setpriv, "--pdeathsig", "KILL", "--", gnuplot, script};
  for (char** e = environ; e && *e; ++e) o.env.emplace_back(*e);
  o.cwd = dir;
  ChildProcess child(o);
  std::string output;
  char buf[4096];
  while (child.output_fd() >= 0) {
    pollfd pfd{child.output_fd(), POLLIN, 0};
    if (::poll(&pfd, 1, 1000) < 0 && errno != EINTR) break;
    const ssize_t n = ::read(child.output_fd(), buf, sizeof buf);
    if (n > 0) {
      output.append(buf, static_cast<size_t>(n));
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      child.close_output();
    }
  }
  child.wait();
  const auto& x = child.exit();
  if (!x.code || *x.code != 0)
    throw SystemError(fmt::format("gnuplot failed on {}/{} ({}):\n{}", dir, script,
                                  x.code ? fmt::format("exit code {}", *x.code)
                                         : fmt::format("signal {}", x.signal.value_or(0)),
                                  output));
}

namespace {

constexpr const char* kFigureMarker = ".aerun-figure-folder";
constexpr const char* kFigureMarkerLine = "made by aerun plot for its figure files";

// The figure folders a plot killed earlier on this host left (`kill -9`: no destructor ran):
// `.aerun-figure-<host>-<pid>-XXXXXX` whose process is gone, removed (issue 40). A live process of
// that number keeps its folder, whoever it is; another host's are left alone.
void remove_dead_figure_folders(const fs::path& parent, const std::string& host) {
  const std::string prefix = ".aerun-figure-" + host + "-";
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string rest = name.substr(prefix.size());
    const size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || dash > 9 ||
        rest.find_first_not_of("0123456789") < dash)
      continue;
    const pid_t pid = static_cast<pid_t>(std::stol(rest.substr(0, dash)));
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    // Only a folder aerun made: it holds the marker naming this very folder (a folder of the
    // user's that merely has such a name is never removed: issue 40's third pass).
    if (!holds_folder_marker(it->path().string(), kFigureMarker, kFigureMarkerLine)) continue;
    std::error_code rm;
    fs::remove_all(it->path(), rm);
  }
}

// A folder of its own for one figure's files, removed with everything in it.
class ScratchDir {
 public:
  explicit ScratchDir(const fs::path& parent) {
    const std::string host = file_name_part(host_name());
    remove_dead_figure_folders(parent, host);
    std::string tmpl =
        (parent / (".aerun-figure-" + host + "-" + std::to_string(::getpid()) + "-XXXXXX"))
            .string();
    if (!::mkdtemp(tmpl.data()))
      throw SystemError("cannot create a folder in " + parent.string() + ": " +
                        std::strerror(errno));
    path_ = tmpl;
    write_folder_marker(path_.string(), kFigureMarker, kFigureMarkerLine);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Whether the file ends as a whole file of its kind ends.
bool ends_with(const fs::path& p, std::string_view tail, bool skip_space) {
  std::ifstream f(p, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (skip_space)
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

void draw_figure(const std::string& gnuplot, const std::string& dir, const std::string& base,
                 const std::string& script) {
  const ScratchDir scratch(dir);
  write_file_atomic((scratch.path() / (base + ".gp")).string(), script);
  run_gnuplot(gnuplot, scratch.path().string(), base + ".gp");
  const fs::path svg = scratch.path() / (base + ".svg"), png = scratch.path() / (base + ".png");
  static const char kIend[] = {'I', 'E', 'N', 'D', '\xae', '\x42', '\x60', '\x82'};
  if (!ends_with(svg, "</svg>", true) || !ends_with(png, std::string_view(kIend, 8), false))
    throw SystemError(fmt::format(
        "gnuplot wrote an incomplete {}.svg or {}.png in {} (is the disk full?): the figures "
        "there are left as they were",
        base, base, dir));
  for (const char* ext : {".gp", ".svg", ".png"}) {
    std::error_code ec;
    fs::rename(scratch.path() / (base + ext), fs::path(dir) / (base + ext), ec);
    if (ec) throw SystemError("cannot move " + base + ext + " into " + dir + ": " + ec.message());
  }
}

namespace {

struct PlotArgs {
  std::string name;
  std::string cases;
  std::string out;
  SelectionArgs select;
};

std::string cases_location(const PlotArgs& a) {
  if (!a.cases.empty()) return a.cases;
  if (const char* e = std::getenv("AERUN_CASES"); e && *e) return e;
  return "cases";
}

int plot_command(const Globals& g, const PlotArgs& a) {
  const std::string where = cases_location(a);
  if (!fs::exists(where))
    throw InputError(SourceLoc{}, "--cases",
                     "no case files at " + where + " (pass --cases DIR|FILE)");
  auto [spec, plots] = find_plots(a.name, where);
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty())
    throw SystemError(
        "gnuplot is not installed (not found in PATH); aerun plot needs it: apt-get install "
        "gnuplot-nox");
  Store store = open_existing_store(g.resolved_db());
  // The runs its tables show: the case's and every case its tables read.
  TableQuery::Options o;
  SelectionArgs select = a.select;
  if (selects_by_system(select, ""))
    o.systems = take_system_selection(select, planned_param_names(spec), "");
  o.cases = {spec.name};
  for (const auto& t : spec.tables)
    for (const auto& n : t.runs_from)
      if (std::find(o.cases.begin(), o.cases.end(), n) == o.cases.end()) o.cases.push_back(n);
  std::vector<RunRecord> runs = TableQuery(&spec, std::move(o)).runs(store);
  keep_selected(runs, select, planned_param_names(spec));
  const fs::path out =
      a.out.empty() ? fs::path(g.resolved_db()).parent_path() / "plots" : fs::path(a.out);
  fs::create_directories(out);
  for (const PlotSpec& p : plots) {
    const PlotData d = plot_data(spec, p, runs);
    const std::string base = file_name_part(p.name);
    const std::string script = base + ".gp";
    draw_figure(gnuplot, out.string(), base, gnuplot_script(d, base));
    std::cout << fmt::format("{}: {} {} {}\n", p.name, (out / (base + ".svg")).string(),
                             (out / (base + ".png")).string(), (out / script).string());
    for (const auto& s : d.series)
      if (s.fit)
        std::cout << fmt::format("  {}linear fit: y = {:.6g} * x + {:.6g}, R² = {:.4f}\n",
                                 s.name.empty() ? "" : s.name + " ", s.fit->slope, s.fit->intercept,
                                 s.fit->r2);
  }
  return 0;
}

}  // namespace

void add_plot_command(CLI::App& app, Globals& g, Action& action) {
  auto args = std::make_shared<PlotArgs>();
  CLI::App* c = app.add_subcommand("plot", "draw a case's figures (gnuplot: SVG and PNG)");
  c->add_option("name", args->name, "plot name, or a case name for all its plots")->required();
  c->add_option("--cases", args->cases, "case file or folder to find it in (default: cases/)");
  c->add_option("--out", args->out, "output folder (default: plots/ beside the store)");
  add_selection_options(c, args->select);
  c->add_option("--db", g.db, "results store");
  c->callback([&action, &g, args] { action = [&g, args] { return plot_command(g, *args); }; });
}

}  // namespace aerun::cli
