// Bad case files: each problem is an InputError naming file:line:col, the key and what to do.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"
#include "parse_error.hpp"

namespace aerun {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

const std::string kHead = "case: bad\ncommand: echo\n";  // lines 1-2 of most cases below

// The message parse_case throws for `yaml` (a test failure when it throws none).
std::string error_of(const std::string& yaml) {
  return testing::parse_error(yaml, "bad.yaml");
}

// --- YAML and top-level structure ---

TEST(CaseErrors, MalformedYamlNamesTheParsersPosition) {
  EXPECT_THAT(error_of("case: x\ncommand: [a, b\nrepeat: 2\n"),
              AllOf(StartsWith("bad.yaml:3:"), HasSubstr("end of sequence flow not found")));
}

TEST(CaseErrors, ADocumentThatIsNotAMapIsRejected) {
  EXPECT_THAT(error_of("- case\n- command\n"),
              StartsWith("bad.yaml:1:1: a case file must be a map"));
  EXPECT_THAT(error_of(""), HasSubstr("a case file must be a map"));
}

TEST(CaseErrors, ANulByteAnywhereIsRefusedWhereItIs) {
  const std::string msg =
      "a NUL byte in a value: no command, environment variable or file name "
      "can hold one";
  EXPECT_EQ(error_of(kHead + "params: {x: [1, \"a\\0b\"]}\n"), "bad.yaml:3:17: " + msg);
  EXPECT_EQ(error_of(kHead + "env: {E: \"\\x00\"}\n"), "bad.yaml:3:10: " + msg);
  EXPECT_EQ(error_of(std::string("case: bad\ncommand: \"echo \\u0000\"\n")),
            "bad.yaml:2:10: " + msg);
  // Aliases are checked once, not once per use (a billion-laughs file stays cheap).
  std::string laughs = "case: bad\ncommand: echo\na0: &a0 [\"x\\0\", y]\n";
  for (int i = 1; i < 12; ++i) {
    laughs += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 9; ++k) laughs += (k ? ", *a" : "*a") + std::to_string(i - 1);
    laughs += "]\n";
  }
  EXPECT_EQ(error_of(laughs), "bad.yaml:3:10: " + msg);
}

TEST(CaseErrors, AFileLargerThanOneMiBOrNotARegularFileIsRefusedBeforeParsing) {
  std::string big = kHead + "params:\n  x:\n";
  while (big.size() <= kMaxCaseFileBytes) big += "    - 1234567\n";
  EXPECT_EQ(error_of(big),
            "bad.yaml: larger than 1 MiB: a case file is written by hand (the YAML "
            "parser needs ~1 KB of memory per value); split the case");
  try {
    load_case("/dev/zero");
    ADD_FAILURE() << "/dev/zero was read as a case file";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "/dev/zero: not a regular file (a device or a pipe is never read as a case file)");
  }
}

TEST(CaseErrors, UnknownTopLevelKeySuggestsTheNearestKey) {
  EXPECT_EQ(error_of(kHead + "metircs: {}\n"),
            "bad.yaml:3:1: metircs: unknown key 'metircs' (did you mean 'metrics'?)");
}

TEST(CaseErrors, UnknownKeyWithNothingCloseHasNoSuggestion) {
  EXPECT_EQ(error_of(kHead + "banana: 1\n"), "bad.yaml:3:1: banana: unknown key 'banana'");
}

TEST(CaseErrors, UnknownNestedKeyIsNamedWithItsPath) {
  EXPECT_EQ(error_of(kHead + "metrics:\n  t: {regex: 't=([0-9]+)', redcue: max}\n"),
            "bad.yaml:4:28: metrics.t.redcue: unknown key 'redcue' (did you mean 'reduce'?)");
  EXPECT_THAT(error_of(kHead + "tables:\n  t:\n    colums: [wall_s]\n"),
              StartsWith("bad.yaml:5:5: tables.t.colums: unknown key 'colums' (did you mean "
                         "'columns'?)"));
  EXPECT_THAT(error_of(kHead + "tables:\n  t:\n    columns: [{metric: wall_s, lable: W}]\n"),
              HasSubstr("tables.t.columns[0].lable: unknown key 'lable' (did you mean 'label'?)"));
  EXPECT_THAT(error_of(kHead + "startup: {first_stp: x}\n"),
              HasSubstr("startup.first_stp: unknown key 'first_stp' (did you mean 'first_step'?)"));
}

TEST(CaseErrors, AKeyGivenTwiceIsRejected) {
  EXPECT_EQ(error_of(kHead + "repeat: 2\nrepeat: 3\n"),
            "bad.yaml:4:1: repeat: 'repeat' is given twice (first at line 3)");
}

TEST(CaseErrors, CaseAndCommandAreRequired) {
  EXPECT_EQ(error_of("command: ls\n"),
            "bad.yaml:1:1: case: missing required key 'case' (the case name)");
  EXPECT_EQ(error_of("case: x\n"),
            "bad.yaml:1:1: command: missing required key 'command' (the command template)");
}

TEST(CaseErrors, CaseNameMustBeMadeOfSafeCharacters) {
  EXPECT_THAT(error_of("case: my case\ncommand: ls\n"),
              StartsWith("bad.yaml:1:7: case: case names are made of [A-Za-z0-9_.-]"));
}

// --- wrong types and values ---

TEST(CaseErrors, ParamsMustBeAMap) {
  EXPECT_EQ(error_of(kHead + "params: [a, b]\n"),
            "bad.yaml:3:9: params: expected a map (key: value), got a list");
}

TEST(CaseErrors, AParameterValueCannotBeAMap) {
  EXPECT_THAT(
      error_of(kHead + "params:\n  x: {a: 1}\n"),
      StartsWith("bad.yaml:4:6: params.x: expected a value or a list of values, got a map"));
}

TEST(CaseErrors, AnEmptyParameterListIsRejected) {
  EXPECT_THAT(error_of(kHead + "params:\n  x: []\n"),
              StartsWith("bad.yaml:4:6: params.x: the list of values is empty"));
}

TEST(CaseErrors, RepeatMustBeAPositiveWholeNumber) {
  EXPECT_EQ(error_of(kHead + "repeat: twice\n"),
            "bad.yaml:3:9: repeat: expected a whole number, got 'twice'");
  EXPECT_EQ(error_of(kHead + "repeat: 0\n"), "bad.yaml:3:9: repeat: must be at least 1");
  EXPECT_EQ(error_of(kHead + "repeat: 1.5\n"),
            "bad.yaml:3:9: repeat: expected a whole number, got '1.5'");
}

TEST(CaseErrors, RetriesCannotBeNegative) {
  EXPECT_EQ(error_of(kHead + "retries: -1\n"), "bad.yaml:3:10: retries: must be 0 or more");
}

TEST(CaseErrors, TimeoutMustBeADuration) {
  EXPECT_THAT(error_of(kHead + "timeout: soon\n"),
              StartsWith("bad.yaml:3:10: timeout: invalid duration 'soon'"));
}

TEST(CaseErrors, ExclusiveOnlyKnowsGpu) {
  EXPECT_EQ(error_of(kHead + "exclusive: cpu\n"),
            "bad.yaml:3:12: exclusive: the only exclusive resource is 'gpu', not 'cpu'");
}

TEST(CaseErrors, EnvironmentValuesMustBeScalarsWithValidNames) {
  EXPECT_THAT(error_of(kHead + "env: {A: [1, 2]}\n"),
              StartsWith("bad.yaml:3:10: env.A: expected a single value, got a list"));
  EXPECT_THAT(error_of(kHead + "env: {1A: x}\n"),
              StartsWith("bad.yaml:3:7: env.1A: environment variable names are"));
}

TEST(CaseErrors, ZipIncludeAndExcludeMustBeLists) {
  EXPECT_THAT(error_of(kHead + "zip: {a: [1]}\n"),
              StartsWith("bad.yaml:3:6: zip: expected a list"));
  EXPECT_THAT(error_of(kHead + "include: {a: 1}\n"),
              StartsWith("bad.yaml:3:10: include: expected a list"));
  EXPECT_THAT(error_of(kHead + "params: {a: [1]}\nexclude: [[1]]\n"),
              StartsWith("bad.yaml:4:11: exclude[0]: expected a map of parameter values or a "
                         "condition string, got a list"));
}

TEST(CaseErrors, AZipMemberMustBeAList) {
  EXPECT_THAT(error_of(kHead + "zip:\n  - {a: 1, b: [2]}\n"),
              StartsWith("bad.yaml:4:9: zip[0].a: expected a list of values, got '1'"));
}

TEST(CaseErrors, ToleranceMustBeANumberOrAPercentage) {
  EXPECT_THAT(error_of(kHead + "tables:\n  t: {columns: [wall_s], tolerance: lots}\n"),
              HasSubstr("tables.t.tolerance: expected a number, got 'lots'"));
  EXPECT_THAT(error_of(kHead + "tables:\n  t: {columns: [wall_s], tolerance: x%}\n"),
              HasSubstr("tables.t.tolerance: expected a number or a percentage, got 'x%'"));
}

// --- parameter names ---

TEST(CaseErrors, AParameterDefinedTwiceInParamsIsRejected) {
  EXPECT_EQ(error_of(kHead + "params:\n  a: 1\n  a: 2\n"),
            "bad.yaml:5:3: params.a: 'a' is given twice (first at line 4)");
}

TEST(CaseErrors, AParameterDefinedInParamsAndZipIsRejected) {
  EXPECT_EQ(error_of(kHead + "params:\n  layers: 1\nzip:\n  - {layers: [1, 2]}\n"),
            "bad.yaml:6:6: zip.layers: parameter 'layers' is defined twice (first at line 4)");
}

TEST(CaseErrors, AParameterDefinedInZipAndDeriveIsRejected) {
  EXPECT_EQ(error_of(kHead + "zip:\n  - {a: [1, 2]}\nderive:\n  a: 2 * 3\n"),
            "bad.yaml:6:3: derive.a: parameter 'a' is defined twice (first at line 4)");
}

TEST(CaseErrors, ParameterNamesMustBeIdentifiers) {
  EXPECT_THAT(error_of(kHead + "params:\n  batch-size: 4\n"),
              StartsWith("bad.yaml:4:3: params.batch-size: parameter names are identifiers"));
  EXPECT_THAT(error_of(kHead + "derive:\n  2x: a * 2\n"),
              StartsWith("bad.yaml:4:3: derive.2x: parameter names are identifiers"));
}

TEST(CaseErrors, BuiltInPlaceholdersCannotBeParameters) {
  EXPECT_EQ(error_of(kHead + "params:\n  repeat: 1\n"),
            "bad.yaml:4:3: params.repeat: 'repeat' is a built-in placeholder and cannot be a "
            "parameter");
}

TEST(CaseErrors, ZippedListsMustHaveEqualLengths) {
  EXPECT_EQ(error_of(kHead + "zip:\n  - method: [a, b]\n    layers: [1, 2, 3]\n"),
            "bad.yaml:5:13: zip[0].layers: zipped lists must have equal lengths: 'layers' has 3 "
            "values, 'method' has 2");
}

TEST(CaseErrors, IncludeMustNameKnownParameters) {
  EXPECT_EQ(error_of(kHead + "params: {window: 4}\ninclude:\n  - {windw: 15}\n"),
            "bad.yaml:5:6: include[0].windw: unknown parameter 'windw' (did you mean 'window'?)");
}

TEST(CaseErrors, IncludeCannotSetADerivedParameter) {
  EXPECT_THAT(error_of(kHead + "params: {a: 1}\nderive: {b: a * 2}\ninclude:\n  - {b: 3}\n"),
              HasSubstr("include[0].b: unknown parameter 'b'"));
}

TEST(CaseErrors, ExcludeMustNameKnownParameters) {
  EXPECT_EQ(error_of(kHead + "params: {layers: [1, 2]}\nexclude:\n  - {layer: 1}\n"),
            "bad.yaml:5:6: exclude[0].layer: unknown parameter 'layer' (did you mean 'layers'?)");
}

TEST(CaseErrors, ExcludeMayNameDerivedParametersAndConditionsAreNotCheckedHere) {
  EXPECT_NO_THROW(parse_case(kHead + "params: {a: [1, 2]}\nderive: {b: a * 2}\n"
                                     "exclude: [{b: 4}, 'nonsense ((']\n",
                             "ok.yaml", "/tmp"));
}

// --- command placeholders ---

TEST(CaseErrors, UnknownPlaceholderIsLocatedInsideTheCommand) {
  EXPECT_EQ(error_of("case: bad\nparams: {layers: [1]}\ncommand: ./run -l {layer}\n"),
            "bad.yaml:3:19: command: placeholder '{layer}' names no parameter (did you mean "
            "'layers'?) (write {{ and }} for literal braces)");
}

TEST(CaseErrors, UnknownPlaceholderInABlockCommandIsLocatedOnItsLine) {
  EXPECT_THAT(error_of("case: bad\nparams: {a: 1}\ncommand: |\n  echo {a} \\\n    {a} {zzz}\n"),
              StartsWith("bad.yaml:5:9: command: placeholder '{zzz}' names no parameter"));
}

TEST(CaseErrors, UnknownPlaceholderSkipsLiteralBracesWhenLocating) {
  EXPECT_THAT(error_of("case: bad\ncommand: \"echo {{x}} {x}\"\n"),
              StartsWith("bad.yaml:2:22: command: placeholder '{x}' names no parameter"));
}

TEST(CaseErrors, UnknownPlaceholderNotWrittenLiterallyIsLocatedAtTheCommand) {
  // "\x7B" is a YAML escape for '{': the placeholder is not in the file's text as written.
  EXPECT_THAT(error_of("case: bad\ncommand: \"echo \\x7Bzz}\"\n"),
              StartsWith("bad.yaml:2:10: command: placeholder '{zz}' names no parameter"));
}

// --- regexes ---

TEST(CaseErrors, AnInvalidMetricRegexNamesTheMetric) {
  EXPECT_THAT(error_of(kHead + "metrics:\n  iter_ms: 'time: ([0-9.]+'\n"),
              StartsWith("bad.yaml:4:12: metrics.iter_ms: invalid regex for metric 'iter_ms': "
                         "missing )"));
}

TEST(CaseErrors, AMetricRegexNeedsExactlyOneCaptureGroup) {
  EXPECT_THAT(error_of(kHead + "metrics:\n  m: {regex: 'loss: [0-9.]+'}\n"),
              StartsWith("bad.yaml:4:14: metrics.m.regex: the regex of metric 'm' must have "
                         "exactly one capture group (it has 0)"));
  EXPECT_THAT(error_of(kHead + "metrics:\n  m: '(a|b): ([0-9]+)'\n"),
              HasSubstr("exactly one capture group (it has 2)"));
}

TEST(CaseErrors, AMetricNeedsARegex) {
  EXPECT_EQ(error_of(kHead + "metrics:\n  m: {unit: ms}\n"),
            "bad.yaml:4:6: metrics.m: missing required key 'regex'");
}

TEST(CaseErrors, AnUnknownReductionSuggestsTheNearestOne) {
  EXPECT_THAT(error_of(kHead + "metrics:\n  m: {regex: '(x)', reduce: medain}\n"),
              HasSubstr("metrics.m.reduce: unknown reduction 'medain' (did you mean 'median'?)"));
}

TEST(CaseErrors, AMetricCannotShareANameWithAParameter) {
  EXPECT_THAT(error_of(kHead + "params: {loss: 1}\nmetrics:\n  loss: '([0-9]+)'\n"),
              StartsWith("bad.yaml:5:3: metrics.loss: metric 'loss' has the name of a parameter"));
}

TEST(CaseErrors, StatusAndStartupRegexesMustCompile) {
  EXPECT_THAT(error_of(kHead + "status:\n  - {regex: 'a[', status: oom}\n"),
              StartsWith("bad.yaml:4:13: status[0].regex: invalid regex for a status pattern"));
  EXPECT_THAT(error_of(kHead + "status:\n  oom: ['ok', '(']\n"),
              StartsWith("bad.yaml:4:15: status.oom[1]: invalid regex for status 'oom'"));
  EXPECT_THAT(error_of(kHead + "startup: 'step *+'\n"),
              StartsWith("bad.yaml:3:10: startup: invalid regex for startup"));
}

TEST(CaseErrors, AStatusEntryNeedsBothRegexAndStatus) {
  EXPECT_EQ(error_of(kHead + "status:\n  - {regex: x}\n"),
            "bad.yaml:4:5: status[0]: missing required key 'status'");
}

// --- tables ---

const std::string kTableHead = kHead +
                               "params: {method: [a, b], layers: [1, 2]}\n"
                               "metrics: {iter_ms: 'ms: ([0-9.]+)'}\n"
                               "tables:\n";  // lines 3-5

TEST(CaseErrors, TableRowsMustBeParameters) {
  EXPECT_EQ(error_of(kTableHead + "  t:\n    rows: [method, layer]\n    columns: [iter_ms]\n"),
            "bad.yaml:7:20: tables.t.rows[1]: rows must be parameters (or system); 'layer' is "
            "not one (did "
            "you mean 'layers'?)");
}

TEST(CaseErrors, ColumnSourcesMustBeMetricsParametersOrBuiltIns) {
  EXPECT_EQ(error_of(kTableHead + "  t:\n    columns: [iter_sm]\n"),
            "bad.yaml:7:15: tables.t.columns[0]: unknown column source 'iter_sm' (did you mean "
            "'iter_ms'?); a column shows a metric, a parameter or a run time (start, "
            "first_output, first_step, end, submit, job_start, startup_s, wall_s, queue_wait_s)");
}

TEST(CaseErrors, ColumnSourcesAreCheckedAgainstTheMetricsPresetsBring) {
  const CaseSpec s = parse_case(
      kTableHead + "  t:\n    columns: [tflops_per_gpu]\npresets: [megatron]\n", "ok.yaml", "/tmp");
  EXPECT_EQ(s.tables[0].columns[0].source, "tflops_per_gpu");
  EXPECT_THAT(error_of(kTableHead + "  t:\n    columns: [tflops]\npresets: [megatron]\n"),
              HasSubstr("unknown column source 'tflops'"));
}

TEST(CaseErrors, ColumnAggregateAndFormatAreChecked) {
  EXPECT_THAT(error_of(kTableHead + "  t:\n    columns: [{metric: iter_ms, agg: avg}]\n"),
              HasSubstr("tables.t.columns[0].agg: unknown aggregate 'avg'"));
  EXPECT_THAT(error_of(kTableHead + "  t:\n    columns: [{metric: iter_ms, format: .2q}]\n"),
              HasSubstr("tables.t.columns[0].format: invalid number format '.2q'"));
}

TEST(CaseErrors, ATableNeedsColumns) {
  EXPECT_EQ(error_of(kTableHead + "  t:\n    rows: [method]\n"),
            "bad.yaml:7:5: tables.t: a table needs at least one column");
}

TEST(CaseErrors, WhereMustNameParameters) {
  EXPECT_THAT(
      error_of(kTableHead + "  t:\n    columns: [iter_ms]\n    where: [{mehtod: a}]\n"),
      StartsWith("bad.yaml:8:14: tables.t.where[0].mehtod: unknown parameter 'mehtod' (did you "
                 "mean 'method'?)"));
}

TEST(CaseErrors, ReferenceKeysMustBeRowParametersOrColumnSources) {
  EXPECT_THAT(error_of(kTableHead + "  t:\n    rows: [method]\n    columns: [iter_ms]\n"
                                    "    reference:\n      - {method: a, iter_s: 3}\n"),
              AllOf(StartsWith("bad.yaml:10:21: tables.t.reference[0].iter_s: 'iter_s' is neither "
                               "a row parameter (method) nor a column (iter_ms) of table 't'"),
                    HasSubstr("(did you mean 'iter_ms'?)")));
}

TEST(CaseErrors, AReferenceMustGiveEveryRowParameter) {
  EXPECT_THAT(error_of(kTableHead + "  t:\n    rows: [method, layers]\n    columns: [iter_ms]\n"
                                    "    reference:\n      - {method: a, iter_ms: 3}\n"),
              StartsWith("bad.yaml:10:9: tables.t.reference[0]: a reference must give every row "
                         "parameter; 'layers' is missing"));
}

TEST(CaseErrors, AReferenceValueMustBeANumber) {
  EXPECT_THAT(error_of(kTableHead + "  t:\n    rows: [method]\n    columns: [iter_ms]\n"
                                    "    reference:\n      - {method: a, iter_ms: fast}\n"),
              StartsWith("bad.yaml:10:30: tables.t.reference[0].iter_ms: expected a number, got "
                         "'fast'"));
}

TEST(CaseErrors, AMessageNeverMentionsAnUnrelatedSuggestion) {
  EXPECT_THAT(error_of(kHead + "zzzzzz: 1\n"), Not(HasSubstr("did you mean")));
}

// --- files ---

TEST(CaseErrors, AMissingFileIsAnInputErrorNamingIt) {
  try {
    load_case("/nonexistent/dir/case.yaml");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), StartsWith("/nonexistent/dir/case.yaml: cannot read case file"));
  }
}

TEST(CaseErrors, NestingTooDeepIsSaidToBe) {
  const std::string deep =
      kHead + "env: " + std::string(10000, '[') + std::string(10000, ']') + "\n";
  EXPECT_THAT(error_of(deep), AllOf(StartsWith("bad.yaml:3:"), HasSubstr("nesting deeper than"),
                                    Not(HasSubstr("bad file"))));
}

TEST(CaseErrors, AWholeNumberOutOfRangeIsSaidToBe) {
  EXPECT_THAT(error_of(kHead + "repeat: 99999999999999999999\n"),
              AllOf(StartsWith("bad.yaml:3:"), HasSubstr("repeat"),
                    HasSubstr("'99999999999999999999' is out of range (a whole number from "
                              "-9223372036854775808 to 9223372036854775807)")));
  EXPECT_THAT(error_of(kHead + "repeat: 2.5\n"), HasSubstr("expected a whole number, got"));
}

TEST(CaseErrors, AMetricIsBetterHigherOrLower) {
  EXPECT_THAT(error_of(kHead + "metrics:\n  t: {regex: 't=(\\d+)', better: up}\n"),
              AllOf(StartsWith("bad.yaml:4:"), HasSubstr("metrics.t.better"),
                    HasSubstr("'up': a metric is better `higher` or `lower`")));
}

TEST(CaseErrors, APollIntervalIsADurationOrARange) {
  EXPECT_THAT(error_of(kHead + "poll_interval: 5m..10s\n"),
              AllOf(StartsWith("bad.yaml:3:"), HasSubstr("poll_interval"),
                    HasSubstr("the longest interval is shorter than the first")));
}

TEST(CaseErrors, ASecondYamlDocumentIsRefusedWhereItStarts) {
  EXPECT_THAT(error_of(kHead + "---\ncase: other\nbogus_key: 1\n"),
              StartsWith("bad.yaml:4:1: a second YAML document"));
  EXPECT_THAT(error_of(kHead + "timeout: soon\n---\n"), StartsWith("bad.yaml:3:10: timeout:"));
}

TEST(CaseErrors, ACasePinsValuesForAtMost64Systems) {
  // Each system's values are checked by reading the file again: thousands would take minutes.
  std::string many = kHead + "systems:\n";
  for (int i = 0; i < 65; ++i) many += "  s" + std::to_string(i) + ": {}\n";
  EXPECT_THAT(error_of(many), StartsWith("bad.yaml:4:3: systems: 65 systems: a case pins values "
                                         "for at most 64"));
  EXPECT_THAT(error_of(kHead + "systems:\n  lab: {timeout: soon}\n"),
              StartsWith("bad.yaml:4:18: timeout:"));
}

TEST(CaseSystems, ASystemsValuesAreReadOverTheCasesWhereverTheKeysAreWritten) {
  // `systems:` first: the keys after it (tables, plots) stay theirs, and the file's own values
  // stay the case's on any other system.
  const std::string text =
      "systems:\n  lab: {command: 'echo lab {x}', env: {A: lab}}\ncase: c\nparams: {x: [1]}\n"
      "env: {A: base, B: b}\ncommand: echo base {x}\nmetrics: {v: 'v=([0-9]+)'}\n"
      "tables:\n  t: {rows: [x], columns: [{metric: v}]}\n"
      "plots:\n  p: {table: t, kind: line, x: x, y: v}\n";
  CaseOverrides on_lab;
  on_lab.system = "lab";
  const CaseSpec lab = parse_case(text, "c.yaml", ".", on_lab);
  EXPECT_EQ(lab.command, "echo lab {x}");
  ASSERT_EQ(lab.tables.size(), 1u);
  ASSERT_EQ(lab.plots.size(), 1u);
  const CaseSpec base = parse_case(text, "c.yaml", ".");
  EXPECT_EQ(base.command, "echo base {x}");
  ASSERT_EQ(base.tables.size(), 1u);
  ASSERT_EQ(base.plots.size(), 1u);
  const auto env = [](const CaseSpec& s, const std::string& k) {
    const Value* v = find_param(s.env, k);
    return v ? v->text() : std::string("(none)");
  };
  EXPECT_EQ(env(lab, "A"), "lab");
  EXPECT_EQ(env(lab, "B"), "b");
  EXPECT_EQ(env(base, "A"), "base");
}

TEST(CaseErrors, AStrayCommaBeforeTheKeysIsAnErrorNotAParserThatLoopsForEver) {
  // Found by fuzz_case_loader: yaml-cpp 0.7's LoadAll loops on it (jbeder/yaml-cpp#1040), its
  // memory growing; the documents are walked with a guard instead.
  EXPECT_THAT(error_of(",case: x\ncommand count \n"),
              StartsWith("bad.yaml:1:1: a case file must be a map"));
  EXPECT_THAT(error_of(",\n"), StartsWith("bad.yaml:1:1: a case file must be a map"));
}

}  // namespace
}  // namespace aerun
