// One log read into a run, in parts on several threads (ingest_file).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "aerun/case/apply_presets.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/ingest/ingest.hpp"
#include "aerun/util/error.hpp"

namespace fs = std::filesystem;

namespace {

// Issue 40's fourth pass (attempt 48): a big log truncated after ingest took its size, while its
// parts were read, made the parts not join: "internal error: Extractor::append" (exit 3). The
// race is made certain here by a size the file no longer has.
TEST(IngestFile, ALogCutShorterWhileItsPartsAreReadIsRefused) {
  std::string tmpl = (fs::temp_directory_path() / "aerun-ingest-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path dir = tmpl;
  const std::string log = (dir / "shrunk.log").string();
  {
    std::ofstream f(log);
    for (int i = 0; i < 20000; ++i) f << "step " << i << " | loss: 2." << i % 97 << "\n";
  }
  const long long now = static_cast<long long>(fs::file_size(log));
  aerun::CaseSpec spec;
  spec.name = "sh";
  aerun::apply_presets(spec, {});
  const aerun::Extractor blank(spec);
  ::setenv("AERUN_INGEST_SEGMENT_BYTES", "4096", 1);
  // As it is: read in parts, whole.
  const aerun::RunRecord whole = aerun::ingest_file(spec, blank, log, {}, false, 2);
  EXPECT_EQ(whole.log_size, now);
  // Twice as long when ingest looked: the parts past its end read nothing.
  try {
    aerun::ingest_file(spec, blank, log, {}, false, 2, 2 * now);
    ADD_FAILURE() << "no error";
  } catch (const aerun::SystemError& e) {
    EXPECT_THAT(e.what(), testing::AllOf(testing::HasSubstr("shrunk.log shrank while it was read"),
                                         testing::HasSubstr("bytes when ingest began")));
  }
  ::unsetenv("AERUN_INGEST_SEGMENT_BYTES");
  fs::remove_all(dir);
}

}  // namespace
