#include "case/yaml_reader.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "aerun/case/case_loader.hpp"

namespace aerun::detail {

std::string describe(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "'" + n.Scalar() + "'";
    default:
      return "nothing";
  }
}

std::string join_key(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool is_name(const std::string& s) {
  if (s.empty() || s == "." || s == "..") return false;  // they name folders, not things
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-'))
      return false;
  return true;
}

std::string did_you_mean(const std::string& s, const std::vector<std::string>& valid) {
  const std::string near = nearest_key(s, valid);
  return near.empty() ? "" : " (did you mean '" + near + "'?)";
}

namespace {

// What one YAML document holds, read as the parser's events: whether it holds anything but a null
// and where that starts, or where its null is.
class DocumentContent : public YAML::EventHandler {
 public:
  bool content = false;
  YAML::Mark first, null_at;

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { null_at = m; }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { hold(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                const std::string&) override {
    hold(m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    hold(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    hold(m);
  }
  void OnMapEnd() override {}

 private:
  void hold(const YAML::Mark& m) {
    if (!content) first = m;
    content = true;
  }
};

}  // namespace

YamlReader::YamlReader(std::string file, const std::string& text)
    : file_(std::move(file)), text_(text) {
  YAML::Node doc;
  try {
    // One document: a second after `---` was silently ignored, its keys never checked (issue 40's
    // fourth pass). An empty one (a trailing `---`) is nothing. The documents are walked as
    // events, not by YAML::LoadAll: yaml-cpp 0.7's loops for ever on some malformed input (`,a:
    // b\nc d`: a null document at the same place each turn, its memory growing;
    // jbeder/yaml-cpp#1040, fixed by #1319 after 0.8.0). A null at the place of the last one is
    // that loop: the walk stops there, and the first document is loaded alone.
    std::istringstream in(text_);
    YAML::Parser parser(in);
    int last_null = -1;
    for (int docs = 0;; ++docs) {
      DocumentContent d;
      if (!parser.HandleNextDocument(d)) break;
      if (docs > 0 && d.content)
        throw InputError(SourceLoc{file_, d.first.line + 1, d.first.column + 1}, "",
                         "a second YAML document: a file holds one (remove the `---` before it, "
                         "or give it a file of its own)");
      if (!d.content) {
        if (d.null_at.pos == last_null) break;
        last_null = d.null_at.pos;
      }
    }
    doc = YAML::Load(text_);
  } catch (const YAML::DeepRecursion& e) {
    throw InputError(
        SourceLoc{file_, e.mark.line + 1, e.mark.column + 1}, "",
        fmt::format("nesting deeper than {} levels: a case file needs a few", e.depth()));
  } catch (const YAML::ParserException& e) {
    throw InputError(SourceLoc{file_, e.mark.line + 1, e.mark.column + 1}, "", e.msg);
  }
  root_ = Item{doc, "", "", SourceLoc{file_, 1, 1}, SourceLoc{file_, 1, 1}};
  refuse_nul_bytes(doc);
  if (!doc.IsMap())
    throw InputError(
        loc(doc, root_.loc), "",
        "a case file must be a map of keys (case, params, command, ...), not " + describe(doc));
}

// A NUL byte cannot be part of a command line, an environment variable or a file name, and a
// value holding one would differ between a local run and a job script: refused wherever it is
// (a raw byte or an escape such as "\0" or "\x00"). Each node is visited once, however many
// aliases name it (an alias shares its anchor's mark).
void YamlReader::refuse_nul_bytes(const YAML::Node& root) const {
  std::unordered_set<int> seen;
  std::vector<YAML::Node> todo{root};
  while (!todo.empty()) {
    const YAML::Node n = todo.back();
    todo.pop_back();
    if (n.Mark().pos >= 0 && !seen.insert(n.Mark().pos).second) continue;
    if (n.IsScalar()) {
      if (n.Scalar().find('\0') != std::string::npos)
        throw InputError(loc(n, root_.loc), "",
                         "a NUL byte in a value: no command, environment variable or file name "
                         "can hold one");
    } else if (n.IsSequence()) {
      for (const auto& e : n) todo.push_back(e);
    } else if (n.IsMap()) {
      for (const auto& kv : n) {
        todo.push_back(kv.first);
        todo.push_back(kv.second);
      }
    }
  }
}

SourceLoc YamlReader::loc_at(size_t offset) const {
  SourceLoc l{file_, 1, 1};
  for (size_t i = 0; i < offset && i < text_.size(); ++i) {
    if (text_[i] == '\n') {
      ++l.line;
      l.col = 1;
    } else {
      ++l.col;
    }
  }
  return l;
}

SourceLoc YamlReader::loc(const YAML::Node& n, const SourceLoc& fallback) const {
  const YAML::Mark m = n.Mark();
  if (m.is_null() || n.IsNull() || !n.IsDefined()) return fallback;
  return SourceLoc{file_, m.line + 1, m.column + 1};
}

void YamlReader::expect_map(const Item& it) const {
  if (!it.node.IsMap())
    throw InputError(it.loc, it.key, "expected a map (key: value), got " + describe(it.node));
}

void YamlReader::expect_list(const Item& it) const {
  if (!it.node.IsSequence())
    throw InputError(it.loc, it.key, "expected a list, got " + describe(it.node));
}

namespace {
thread_local KeyObserver key_observer = nullptr;
}  // namespace

void set_key_observer(KeyObserver observer) {
  key_observer = observer;
}

std::vector<Item> YamlReader::entries(const Item& map,
                                      const std::vector<std::string>& valid) const {
  expect_map(map);
  if (key_observer && !valid.empty()) key_observer(map.key, valid);
  std::vector<Item> out;
  for (auto kv = map.node.begin(); kv != map.node.end(); ++kv) {
    const YAML::Node k = kv->first;
    const SourceLoc kloc = loc(k, map.loc);
    if (!k.IsScalar())
      throw InputError(kloc, map.key, "keys must be plain names, got " + describe(k));
    const std::string name = k.Scalar();
    const std::string key = join_key(map.key, name);
    if (!valid.empty() && std::find(valid.begin(), valid.end(), name) == valid.end()) {
      throw InputError(kloc, key, "unknown key '" + name + "'" + did_you_mean(name, valid));
    }
    for (const auto& prev : out)
      if (prev.name == name)
        throw InputError(kloc, key,
                         "'" + name + "' is given twice (first at line " +
                             std::to_string(prev.key_loc.line) + ")");
    out.push_back(Item{kv->second, key, name, loc(kv->second, kloc), kloc});
  }
  return out;
}

std::vector<Item> YamlReader::elements(const Item& list) const {
  expect_list(list);
  std::vector<Item> out;
  size_t i = 0;
  for (const auto& n : list.node) {
    const SourceLoc l = loc(n, list.loc);
    out.push_back(Item{n, list.key + "[" + std::to_string(i++) + "]", "", l, l});
  }
  return out;
}

std::string YamlReader::text(const Item& it) const {
  if (!it.node.IsScalar())
    throw InputError(it.loc, it.key, "expected a string, got " + describe(it.node));
  if (it.node.Scalar().empty()) throw InputError(it.loc, it.key, "must not be empty");
  return it.node.Scalar();
}

Value YamlReader::value(const Item& it) const {
  if (!it.node.IsScalar())
    throw InputError(it.loc, it.key, "expected a single value, got " + describe(it.node));
  // A plain scalar is typed ("32" is a number); quoted, block or !!str text is always a string.
  const std::string& tag = it.node.Tag();
  if (tag == "!" || tag == "tag:yaml.org,2002:str") return Value::of_string(it.node.Scalar());
  return Value::parse(it.node.Scalar());
}

long long YamlReader::integer(const Item& it) const {
  // As an integer, never through a double: exact to the last digit, and no overflow.
  if (it.node.IsScalar()) {
    std::string_view text = it.node.Scalar();
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    long long n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (end == text.data() + text.size() && !text.empty()) {
      if (ec == std::errc()) return n;
      if (ec == std::errc::result_out_of_range)
        throw InputError(it.loc, it.key,
                         "'" + it.node.Scalar() + "' is out of range (a whole number from " +
                             std::to_string(std::numeric_limits<long long>::min()) + " to " +
                             std::to_string(std::numeric_limits<long long>::max()) + ")");
    }
  }
  throw InputError(it.loc, it.key, "expected a whole number, got " + describe(it.node));
}

double YamlReader::number(const Item& it) const {
  const Value v = it.node.IsScalar() ? Value::parse(it.node.Scalar()) : Value();
  if (v.kind() != Value::Kind::Int && v.kind() != Value::Kind::Float)
    throw InputError(it.loc, it.key, "expected a number, got " + describe(it.node));
  return *v.number();
}

bool YamlReader::boolean(const Item& it) const {
  if (it.node.IsScalar() && (it.node.Scalar() == "true" || it.node.Scalar() == "false"))
    return it.node.Scalar() == "true";
  throw InputError(it.loc, it.key, "expected true or false, got " + describe(it.node));
}

std::vector<std::string> YamlReader::texts(const Item& it) const {
  if (it.node.IsScalar()) return {text(it)};
  std::vector<std::string> out;
  for (const auto& e : elements(it)) out.push_back(text(e));
  return out;
}

std::string read_yaml_file(const std::string& file, size_t max_bytes, const std::string& what) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw InputError(SourceLoc{file, 0, 0}, "",
                     "cannot read " + what + ": " + std::string(std::strerror(errno)));
  std::string text(max_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw InputError(SourceLoc{file, 0, 0}, "", "cannot read " + what);
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

}  // namespace aerun::detail
