// `aerun report --html`: the static dashboard, loaded in a real headless Chromium (Debian's
// `chromium`): every page renders its tables, every figure loads and decodes, every link leads to
// a page that exists; screenshots are kept in the build folder (report-screenshots/) to look at.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const char* kCase = R"yaml(case: nightly
title: "Nightly iteration time"
params: {hidden: [64, 128]}
repeat: 5
command: |
  slow=${SLOW:-10}
  if [ {hidden} = 128 ]; then slow=10; fi
  if [ "${FAIL:-}" = {hidden} ]; then echo "torch.cuda.OutOfMemoryError: CUDA out of memory."; exit 1; fi
  echo "time_ms=$(( (100 + {repeat}) * slow / 10 ))"
metrics:
  iter_ms: {regex: 'time_ms=([0-9]+)', unit: ms}
status: {oom: 'CUDA out of memory'}
tables:
  nt:
    title: "Iteration time"
    rows: [hidden]
    columns: [{metric: iter_ms, agg: median}]
    reference:
      - {hidden: 64, iter_ms: 100}
)yaml";

std::string chromium(const std::vector<std::string>& args) {
  std::string cmd = "chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage";
  for (const auto& a : args) cmd += " " + aerun::shell_quote(a);
  return command_output(cmd + " 2>/dev/null");
}

std::vector<std::string> matches(const std::string& text, const std::string& re) {
  std::vector<std::string> out;
  const std::regex r(re);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), r); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1]);
  return out;
}

}  // namespace

TEST(ReportHtml, TheDashboardRendersInChromiumWithItsTablesFiguresAndFailures) {
  if (std::system("command -v chromium >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh --test installs it)";
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "night1"}).code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "night2"}, "SLOW=13").code, 0);
  run_aerun(d, {"case", "c.yaml", "--label", "night3"}, "SLOW=13 FAIL=128");
  const auto r = run_aerun(d, {"report", "--html", "site"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("1 case page for session night3 against night2 (previous)"));

  const std::string index = read_file(d / "site/index.html");
  const std::string page = read_file(d / "site/case-nightly.html");
  EXPECT_THAT(index, Not(HasSubstr("<script")));
  EXPECT_THAT(page, Not(HasSubstr("<script")));
  EXPECT_THAT(page, Not(HasSubstr("http://")));  // nothing fetched at view time
  EXPECT_THAT(page, Not(HasSubstr("https://")));

  // The pages as Chromium renders them.
  const std::string dom = chromium({"--dump-dom", "file://" + (d / "site/case-nightly.html")});
  EXPECT_THAT(dom, HasSubstr("Iteration time"));
  EXPECT_THAT(dom, HasSubstr("newly_failing"));       // hidden=128 ran out of memory tonight
  EXPECT_THAT(dom, HasSubstr("CUDA out of memory"));  // the line that classified it
  EXPECT_THAT(dom, HasSubstr("ratio"));               // beside the paper's value
  const std::string idom = chromium({"--dump-dom", "file://" + (d / "site/index.html")});
  EXPECT_THAT(idom, HasSubstr("night1"));
  EXPECT_THAT(idom, HasSubstr("case-nightly.html"));

  // Every link leads to a page that exists; every figure loads and decodes in Chromium (a probe
  // page with the same images records each load or error in the DOM).
  for (const auto& href : matches(index + page, "href=\"([^\"#]+)\""))
    EXPECT_TRUE(fs::exists(d.path() / "site" / href)) << href;
  const auto imgs = matches(page, "<img src=\"([^\"]+)\"");
  ASSERT_FALSE(imgs.empty());
  std::string probe = "<!DOCTYPE html><html><body>";
  for (const auto& src : imgs)
    probe += "<img src=\"" + src +
             "\" onload=\"this.setAttribute('data-loaded', this.naturalWidth > 0 ? 'yes' : "
             "'empty')\" onerror=\"this.setAttribute('data-loaded', 'broken')\">";
  probe += "</body></html>";
  write_file(d / "site/probe.html", probe);
  const std::string pdom =
      chromium({"--virtual-time-budget=10000", "--dump-dom", "file://" + (d / "site/probe.html")});
  EXPECT_EQ(matches(pdom, "data-loaded=\"(yes)\"").size(), imgs.size()) << pdom;
  EXPECT_THAT(pdom, Not(HasSubstr("data-loaded=\"broken\"")));

  // Screenshots to look at.
  const fs::path shots = fs::path(AERUN_BINARY).parent_path() / "report-screenshots";
  fs::create_directories(shots);
  for (const char* p : {"index", "case-nightly"}) {
    const std::string png = (shots / (std::string(p) + ".png")).string();
    fs::remove(png);
    chromium({"--window-size=1280,1800", "--screenshot=" + png,
              "file://" + (d.path() / "site" / (std::string(p) + ".html")).string()});
    ASSERT_TRUE(fs::exists(png)) << png;
    EXPECT_GT(fs::file_size(png), 20000u) << png;
  }
}

TEST(ReportHtml, RegressJunitIsWellFormedXmlToChromiumsParser) {
  if (std::system("command -v chromium >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh --test installs it)";
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "night1"}).code, 0);
  run_aerun(d, {"case", "c.yaml", "--label", "night2"}, "SLOW=13 FAIL=128");
  const auto r = run_aerun(d, {"regress", "--junit", "regress.xml"});
  EXPECT_EQ(r.code, 1) << r.err;
  // Chromium's XML viewer parses the file; a malformed one shows a <parsererror>.
  const std::string dom = chromium({"--dump-dom", "file://" + (d / "regress.xml")});
  EXPECT_THAT(dom, HasSubstr("xml-viewer-style"));
  EXPECT_THAT(dom, Not(HasSubstr("parsererror")));
  EXPECT_THAT(dom, HasSubstr("testsuites"));
  EXPECT_THAT(dom, HasSubstr("newly_failing"));
  // The checker itself tells a malformed file.
  write_file(d / "bad.xml", "<testsuites><testsuite></testsuites>");
  EXPECT_THAT(chromium({"--dump-dom", "file://" + (d / "bad.xml")}), HasSubstr("parsererror"));
}
