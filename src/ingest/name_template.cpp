// File-name templates: "{size}B-{impl}-mbs-{mbs}-...out" -> typed parameters.
#include <re2/re2.h>

#include <algorithm>
#include <filesystem>

#include "aerun/ingest/ingest.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/template_text.hpp"

namespace aerun {

NameTemplate::NameTemplate(const std::string& text) : text_(text) {
  if (text.empty()) throw InputError(SourceLoc{}, "--pattern", "the file-name template is empty");
  std::string re = "^";
  for (const TemplatePiece& p : scan_template(text)) {
    if (!p.placeholder) {
      re += RE2::QuoteMeta(p.text);
      continue;
    }
    if (std::find(names_.begin(), names_.end(), p.text) != names_.end())
      throw InputError(SourceLoc{}, "--pattern",
                       "'{" + p.text + "}' appears twice in the template '" + text + "'");
    re += "(.+?)";
    names_.push_back(p.text);
  }
  re += "$";
  RE2::Options o;
  o.set_log_errors(false);
  o.set_dot_nl(true);
  re_ = std::make_unique<RE2>(re, o);
  if (!re_->ok())
    throw InputError(SourceLoc{}, "--pattern",
                     "cannot use template '" + text + "': " + re_->error());
  components_ = 1 + static_cast<size_t>(std::count(text.begin(), text.end(), '/'));
}

NameTemplate::~NameTemplate() = default;
NameTemplate::NameTemplate(NameTemplate&&) noexcept = default;
NameTemplate& NameTemplate::operator=(NameTemplate&&) noexcept = default;

std::optional<ParamList> NameTemplate::match(const std::string& path) const {
  // The last `components_` parts of the path.
  size_t start = path.size();
  for (size_t k = 0; k < components_ && start != std::string::npos; ++k)
    start = start == 0 ? std::string::npos : path.rfind('/', start - 1);
  const std::string name = start == std::string::npos ? path : path.substr(start + 1);
  const int n = static_cast<int>(names_.size());
  std::vector<re2::StringPiece> caps(static_cast<size_t>(n) + 1);
  if (!re_->Match(name, 0, name.size(), RE2::ANCHOR_BOTH, caps.data(), n + 1)) return std::nullopt;
  ParamList params;
  for (int i = 0; i < n; ++i)
    params.emplace_back(names_[static_cast<size_t>(i)],
                        Value::parse(std::string(caps[static_cast<size_t>(i) + 1].data(),
                                                 caps[static_cast<size_t>(i) + 1].size())));
  return params;
}

}  // namespace aerun
