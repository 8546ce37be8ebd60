// Reading one case file's YAML nodes with their locations; every type or key problem becomes an
// InputError naming file, line, column and key.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "aerun/util/error.hpp"
#include "aerun/util/value.hpp"

namespace aerun::detail {

// A node of the file with the key path used in messages and where it was written.
struct Item {
  YAML::Node node;
  std::string key;    // dotted path for messages, e.g. "tables.demo.columns[1]"
  std::string name;   // the map key this value belongs to ("" for a list entry)
  SourceLoc loc;      // of the value (of its key when the value is empty)
  SourceLoc key_loc;  // of the map key (= loc for list entries)
};

// For tests (tests/unit/case/case_schema_test.cpp): called with a map's key path and its valid
// keys each time a map with a fixed set of keys is read, on this thread. Null: nothing is called.
using KeyObserver = void (*)(const std::string& map_key, const std::vector<std::string>& valid);
void set_key_observer(KeyObserver observer);

// Typed access to the nodes of one YAML document.
class YamlReader {
 public:
  YamlReader(std::string file, const std::string& text);

  const std::string& file() const { return file_; }
  const std::string& text() const { return text_; }

  // The whole document (throws on malformed YAML, at the parser's position).
  Item root() const { return root_; }

  // The entries of a map in file order. Keys must be scalars, unique and (when `valid` is not
  // empty) one of `valid`; an unknown key is reported with the nearest valid one.
  std::vector<Item> entries(const Item& map, const std::vector<std::string>& valid = {}) const;
  // The entries of a list.
  std::vector<Item> elements(const Item& list) const;

  std::string text(const Item& it) const;  // a non-empty scalar
  Value value(const Item& it) const;       // a scalar; quoted text stays a string
  long long integer(const Item& it) const;
  double number(const Item& it) const;
  bool boolean(const Item& it) const;
  // A list of scalars (a single scalar counts as a list of one).
  std::vector<std::string> texts(const Item& it) const;

  void expect_map(const Item& it) const;
  void expect_list(const Item& it) const;

  // The location of a byte offset of the text.
  SourceLoc loc_at(size_t offset) const;
  void refuse_nul_bytes(const YAML::Node& root) const;
  // The location of a node (1-based), or `fallback` when the node has no mark.
  SourceLoc loc(const YAML::Node& n, const SourceLoc& fallback) const;

 private:
  std::string file_;
  std::string text_;
  Item root_;
};

// The text of a YAML file aerun reads (a case file, a system profile): its first max_bytes + 1
// bytes, so that the caller can refuse a larger one. InputError "cannot read <what>[: reason]"
// at file.
std::string read_yaml_file(const std::string& file, size_t max_bytes, const std::string& what);

// What a node is, for messages: "a map", "a list", "a scalar", "nothing".
std::string describe(const YAML::Node& n);
// "a.b" (or "b" when a is empty).
std::string join_key(const std::string& path, const std::string& name);
// [A-Za-z_][A-Za-z0-9_]*
bool is_identifier(const std::string& s);
// [A-Za-z0-9_.-]+ but not "." or ".." (case, table and plot names: they become file names)
bool is_name(const std::string& s);
// " (did you mean 'x'?)" for the nearest of `valid`, or "".
std::string did_you_mean(const std::string& s, const std::vector<std::string>& valid);

}  // namespace aerun::detail
