// The gnuplot script of a figure: data inline, an SVG and a PNG of the same plot.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "aerun/report/plot.hpp"
#include "aerun/util/gnuplot_text.hpp"

namespace aerun {

namespace {

std::string num(std::optional<double> v) {
  return v && std::isfinite(*v) ? fmt::format("{}", *v) : "NaN";
}

std::string series_title(const PlotData& d, const PlotSeries& s) {
  return s.name.empty() ? d.ylabel : s.name;
}

std::string fit_title(const PlotSeries& s, const std::string& name) {
  const LinearFit& f = *s.fit;
  return fmt::format("{}linear fit: y = {:.4g}·x {} {:.4g}, R² = {:.4f}",
                     name.empty() ? "" : name + " ", f.slope, f.intercept < 0 ? "−" : "+",
                     std::fabs(f.intercept), f.r2);
}

bool has_paper(const PlotSeries& s) {
  return std::any_of(s.paper.begin(), s.paper.end(), [](const auto& p) { return p.has_value(); });
}

// Line plot: one datablock per series (sorted by x), the paper's points, fitted lines.
std::string line_body(const PlotData& d) {
  std::string out, plots;
  for (size_t k = 0; k < d.series.size(); ++k) {
    const PlotSeries& s = d.series[k];
    std::vector<size_t> order(s.x.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return s.x[a] < s.x[b]; });
    out += fmt::format("$s{} << EOD\n", k);
    for (size_t i : order) out += fmt::format("{} {}\n", num(s.x[i]), num(s.y[i]));
    out += "EOD\n";
    const int color = static_cast<int>(k) + 1;
    plots += fmt::format("{}$s{} using 1:2 with linespoints lc {} lw 2 pt 7 ps 1.2 title {}",
                         plots.empty() ? "" : ", \\\n     ", k, color,
                         gnuplot_string(series_title(d, s)));
    if (d.spec.paper && has_paper(s)) {
      out += fmt::format("$p{} << EOD\n", k);
      for (size_t i : order)
        if (s.paper[i]) out += fmt::format("{} {}\n", num(s.x[i]), num(s.paper[i]));
      out += "EOD\n";
      plots += fmt::format(", \\\n     $p{} using 1:2 with points lc {} pt 6 ps 2 title {}", k,
                           color, gnuplot_string(s.name.empty() ? "paper" : s.name + " (paper)"));
    }
    if (s.fit) {
      out += fmt::format("f{}(x) = {} * x + {}\n", k, s.fit->slope, s.fit->intercept);
      plots += fmt::format(", \\\n     f{}(x) with lines lc {} dt 2 lw 1.5 title {}", k, color,
                           gnuplot_string(fit_title(s, s.name)));
    }
    // Failed or missing points are named at the bottom of the plot, never drawn as zero.
    for (size_t i : order)
      if (!s.y[i] && std::isfinite(s.x[i]) && !s.y_text[i].empty())
        out += fmt::format("set label {} at {}, graph 0.04 center tc lt {}\n",
                           gnuplot_string(s.y_text[i]), num(s.x[i]), color);
  }
  return out + "plot " + plots + "\n";
}

// Bar plot: one cluster per category (x value), one bar per series, then the paper's bars.
std::string bar_body(const PlotData& d) {
  std::vector<const PlotSeries*> papers;
  for (const auto& s : d.series)
    if (d.spec.paper && has_paper(s)) papers.push_back(&s);
  // The datablock holds numbers only (a category's row is its position); the categories are
  // the x tics' labels, gnuplot string constants: no stored text can end the datablock (a line
  // `EOD`) or shift a row's columns (a quote in a category).
  std::string out = "$bars << EOD\n";
  auto at = [](const PlotSeries& s, const std::string& cat, bool paper) -> std::optional<double> {
    for (size_t i = 0; i < s.x_text.size(); ++i)
      if (s.x_text[i] == cat) return paper ? s.paper[i] : s.y[i];
    return std::nullopt;
  };
  for (size_t c = 0; c < d.categories.size(); ++c) {
    const std::string& cat = d.categories[c];
    out += std::to_string(c);
    for (const auto& s : d.series) {
      out += ' ';
      out += num(at(s, cat, false));
    }
    for (const PlotSeries* s : papers) {
      out += ' ';
      out += num(at(*s, cat, true));
    }
    out += "\n";
  }
  out += "EOD\n";
  // Failed or missing bars are named in place, never drawn as zero.
  const double width = 1.0 / static_cast<double>(d.series.size() + papers.size() + 1);
  for (size_t c = 0; c < d.categories.size(); ++c)
    for (size_t k = 0; k < d.series.size(); ++k) {
      const PlotSeries& s = d.series[k];
      for (size_t i = 0; i < s.x_text.size(); ++i)
        if (s.x_text[i] == d.categories[c] && !s.y[i] && !s.y_text[i].empty())
          out += fmt::format("set label {} at {:.3f}, graph 0.04 center\n",
                             gnuplot_string(s.y_text[i]),
                             static_cast<double>(c) - 0.5 + width * (static_cast<double>(k) + 1));
    }
  std::string plots;
  int column = 2;
  for (const auto& s : d.series) {
    plots += fmt::format("{}{} using {}{} title {}", plots.empty() ? "$bars" : ", \\\n     ''", "",
                         column, "", gnuplot_string(series_title(d, s)));
    ++column;
  }
  for (const PlotSeries* s : papers) {
    plots += fmt::format(", \\\n     '' using {} fs pattern 4 border title {}", column,
                         gnuplot_string(s->name.empty() ? "paper" : s->name + " (paper)"));
    ++column;
  }
  out += "set style data histograms\nset style histogram clustered gap 1\n";
  double top = 0;  // headroom above the tallest bar
  for (const auto& s : d.series)
    for (size_t i = 0; i < s.y.size(); ++i)
      top = std::max({top, s.y[i].value_or(0), s.paper[i].value_or(0)});
  out += "set style fill solid 0.8 border -1\nset boxwidth 0.9\n";
  if (top > 0) out += fmt::format("set yrange [0:{}]\n", top * 1.12);
  out += "set xtics rotate by -20 (";
  for (size_t c = 0; c < d.categories.size(); ++c)
    out += fmt::format("{}{} {}", c ? ", " : "", gnuplot_tic_label(d.categories[c]), c);
  out += ")\n";
  // gnuplot refuses a histogram with no valid point: every bar failed, the labels say how.
  bool any = false;
  for (const auto& s : d.series)
    for (size_t i = 0; i < s.y.size(); ++i)
      any = any || (s.y[i] && std::isfinite(*s.y[i])) ||
            (d.spec.paper && s.paper[i] && std::isfinite(*s.paper[i]));
  if (!any)
    return out + fmt::format("set xrange [-0.5:{}]\nplot NaN title 'no measured value'\n",
                             static_cast<double>(std::max<size_t>(d.categories.size(), 1)) - 0.5);
  return out + "plot " + plots + "\n";
}

}  // namespace

std::string gnuplot_script(const PlotData& d, const std::string& basename) {
  std::string out;
  out += gnuplot_comment(
             fmt::format("# aerun plot {} (case {}): gnuplot {}.gp draws {}.svg and {}.png",
                         d.spec.name, d.case_name, basename, basename, basename)) +
         "\n";
  out += "set encoding utf8\nset termoption noenhanced\n";
  out += "set title " + gnuplot_string(d.title) + "\n";
  out += "set xlabel " + gnuplot_string(d.xlabel) + "\n";
  out += "set ylabel " + gnuplot_string(d.ylabel) + "\n";
  const std::string body = d.spec.kind == "bars" ? bar_body(d) : line_body(d);
  // The key goes below the plot, where it never hides a point; points never sit on the frame.
  // gnuplot's own bottom margin for a boxed key of several rows lets the box's top run through
  // the x label: the margin is set to hold the label and one key row per entry (the most a
  // narrow terminal needs; at most 12 rows, gnuplot then lays the key out in columns).
  size_t entries = 0;
  for (size_t at = body.find(" title '"); at != std::string::npos;
       at = body.find(" title '", at + 1))
    ++entries;
  out += fmt::format("set grid ytics lc rgb '#dddddd'\nset key below box\nset bmargin {}\n",
                     5 + std::clamp<size_t>(entries, 1, 12));
  if (d.spec.kind != "bars") out += "set offsets graph 0.03, graph 0.03, graph 0.06, graph 0.06\n";
  if (d.spec.logy) out += "set logscale y\n";
  // No point measured (every run failed) is a figure of the failures, not a gnuplot error: the
  // ranges gnuplot cannot take from the data are given.
  bool any_y = false;
  double lo = INFINITY, hi = -INFINITY;  // the finite x values
  for (const auto& s : d.series)
    for (size_t i = 0; i < s.y.size(); ++i) {
      if (std::isfinite(s.x[i])) lo = std::min(lo, s.x[i]), hi = std::max(hi, s.x[i]);
      any_y = any_y || (s.y[i] && std::isfinite(*s.y[i])) ||
              (d.spec.paper && s.paper[i] && std::isfinite(*s.paper[i]));
    }
  if (!any_y) {
    out += d.spec.logy ? "set yrange [1:10]\n" : "set yrange [0:1]\n";
    if (d.spec.kind != "bars") {
      const double pad = lo <= hi ? std::max(1.0, (hi - lo) * 0.05) : 1.0;
      out += lo <= hi ? fmt::format("set xrange [{}:{}]\n", lo - pad, hi + pad)
                      : std::string("set xrange [0:1]\n");
    }
  }
  out += body;
  return gnuplot_to_files(out, basename);
}

std::string gnuplot_to_files(const std::string& body, const std::string& basename) {
  // `noenhanced` on each terminal line: switching terminals resets the option, and enhanced text
  // would draw `iter_ms` as "iter" with a subscript "m".
  std::string script = fmt::format(
      "set terminal svg size 900,560 dynamic noenhanced font 'sans,13'\nset output {}\n",
      gnuplot_string(basename + ".svg"));
  script += body;
  script += fmt::format(
      "set terminal pngcairo size 1200,750 noenhanced font 'sans,13'\nset output {}\nreplot\n"
      "unset output\n",
      gnuplot_string(basename + ".png"));
  return script;
}

}  // namespace aerun
