#include "aerun/util/secret_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "aerun/util/sha256.hpp"

namespace aerun {

namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool space(char c) {
  return c == ' ' || c == '\t' || c == '\n';
}

// The end of the shell word that starts at i: quotes ('...', "...") kept together.
size_t word_end(std::string_view s, size_t i) {
  char quote = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < s.size())
        ++i;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '\\' && i + 1 < s.size()) {
      ++i;
    } else if (space(c) || c == ';' || c == '&' || c == '|') {
      break;
    }
  }
  return i;
}

}  // namespace

bool secret_name(std::string_view name) {
  static constexpr std::array<std::string_view, 11> kWords = {
      "TOKEN",      "SECRET", "PASSWORD",  "PASSWD", "KEY", "CREDENTIAL",
      "PASSPHRASE", "AUTH",   "SIGNATURE", "COOKIE", "JWT"};
  const std::string u = upper(name);
  return std::any_of(kWords.begin(), kWords.end(),
                     [&](std::string_view w) { return u.find(w) != std::string::npos; });
}

bool secret_word_name(std::string_view name) {
  std::vector<std::string> words;
  std::string cur;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool upper_after_lower =
        c >= 'A' && c <= 'Z' && i > 0 && name[i - 1] >= 'a' && name[i - 1] <= 'z';
    if (c == '_' || c == '-' || c == '.' || c == ' ' || upper_after_lower) {
      if (!cur.empty()) words.push_back(cur);
      cur.clear();
      if (!upper_after_lower) continue;
    }
    cur += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  if (!cur.empty()) words.push_back(cur);
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.ends_with("password") || w.ends_with("passwd") || w == "signature" ||
        (w == "sig" && words.size() == 1))
      return true;  // `sslpassword`, `X-Amz-Signature`, a SAS token's `sig`
    if (w == "secret" || w == "password" || w == "passwd" || w == "passphrase" ||
        w == "credential" || w == "credentials" || w == "apikey" || w == "cookie" || w == "jwt")
      return true;
    // `auth`, `basic_auth`, `proxy_auth` (last, as token; `auth_method` names no secret).
    if (w == "auth" && i + 1 == words.size()) return true;
    // A token names a secret last (`hf_token`, `access_token`); in a metric's name it is what is
    // counted (`mean_token_accuracy`, `time_per_token`).
    if (w == "token" && i + 1 == words.size() && (i == 0 || words[i - 1] != "per")) return true;
    if (w == "key" && i > 0 &&
        (words[i - 1] == "api" || words[i - 1] == "access" || words[i - 1] == "private" ||
         words[i - 1] == "secret" || words[i - 1] == "ssh" || words[i - 1] == "signing" ||
         words[i - 1] == "encryption"))
      return true;
  }
  return false;
}

bool known_token_shape(std::string_view v) {
  const auto alnum_run = [&](size_t from) {
    size_t n = 0;
    while (from + n < v.size() &&
           (std::isalnum(static_cast<unsigned char>(v[from + n])) || v[from + n] == '_'))
      ++n;
    return from + n == v.size() ? n : 0;  // the whole rest, or nothing
  };
  for (std::string_view p : {"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"})
    if (v.starts_with(p) && alnum_run(p.size()) >= 20) return true;
  if (v.starts_with("hf_") && alnum_run(3) >= 30) return true;
  if (v.starts_with("glpat-") && v.size() >= 26) return true;
  if (v.starts_with("sk-") && v.size() >= 23 && alnum_run(3) + 3 >= v.size() - 8) return true;
  if (v.size() >= 15 && (v.starts_with("xoxb-") || v.starts_with("xoxp-"))) return true;
  // PyPI (`pypi-` and a macaroon), npm (`npm_` and 36), Stripe (`sk_live_`, `sk_test_`,
  // `rk_live_`), a Google API key (`AIza` and 35 of [A-Za-z0-9_-]).
  if (v.starts_with("pypi-") && v.size() >= 40) return true;
  if (v.starts_with("npm_") && alnum_run(4) >= 36) return true;
  for (std::string_view p : {"sk_live_", "sk_test_", "rk_live_", "rk_test_"})
    if (v.starts_with(p) && alnum_run(p.size()) >= 16) return true;
  const auto url64 = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  };
  if (v.size() == 39 && v.starts_with("AIza") && std::all_of(v.begin() + 4, v.end(), url64))
    return true;
  // A JSON Web Token: three base64url parts, the first a JSON object (`eyJ` is `{"`).
  if (v.starts_with("eyJ") && v.size() >= 30 && std::count(v.begin(), v.end(), '.') == 2 &&
      std::all_of(v.begin(), v.end(), [&](char c) { return url64(c) || c == '.'; }))
    return true;
  if (v.size() == 20 && v.starts_with("AKIA") && std::all_of(v.begin(), v.end(), [](char c) {
        return std::isupper(static_cast<unsigned char>(c)) ||
               std::isdigit(static_cast<unsigned char>(c));
      }))
    return true;
  return false;
}

std::string without_param_secrets(std::string_view text, const ParamList& params) {
  std::string out(text);
  for (const auto& [name, value] : params) {
    const std::string v = value.text();
    if (v.size() < 4 || !(secret_word_name(name) || known_token_shape(v))) continue;
    const std::string shown = redacted_secret(name, v);
    for (size_t at = out.find(v); at != std::string::npos; at = out.find(v, at + shown.size()))
      out.replace(at, v.size(), shown);
  }
  return out;
}

std::string shown_param(std::string_view name, std::string_view value) {
  // A value that is an Authorization header's credentials (`Bearer X`, `Basic X`) is one too.
  const auto scheme = [&](std::string_view s) {
    return value.size() > s.size() + 1 && value.substr(0, s.size()) == s && value[s.size()] == ' ';
  };
  if (secret_word_name(name) || known_token_shape(value) || scheme("Bearer") || scheme("Basic"))
    return redacted_secret(name, value);
  // https://bob:SECRET@host, ?api_key=SECRET, {"hf_token": "SECRET"} in a value (issue 40's
  // fourth pass: a query string's key was shown).
  return redacted_log_text(value);
}

std::string redacted_secret(std::string_view name, std::string_view value) {
  std::string both(name);
  both += '\0';
  both += value;
  return "<redacted sha256:" + sha256_hex(both).substr(0, 8) + ">";
}

std::string without_url_credentials(std::string_view text) {
  std::string out;
  size_t from = 0;
  for (size_t at = text.find("://"); at != std::string_view::npos; at = text.find("://", at + 3)) {
    const size_t user = at + 3;
    // The authority ends at the first of / ? # or a blank; its user information at the last @.
    size_t end = user;
    while (end < text.size() && !space(text[end]) && text[end] != '/' && text[end] != '?' &&
           text[end] != '#' && text[end] != '"' && text[end] != '\'')
      ++end;
    const std::string_view authority = text.substr(user, end - user);
    const size_t atsign = authority.rfind('@');
    if (atsign == std::string_view::npos || atsign == 0) continue;
    const std::string_view info = authority.substr(0, atsign);
    const size_t colon = info.find(':');
    size_t secret_from, secret_to = user + atsign;
    if (colon != std::string_view::npos) {
      secret_from = user + colon + 1;
    } else if (info.size() >= 16) {
      secret_from = user;
    } else {
      continue;  // `git@host`, `user@host`: a name, not a secret
    }
    if (secret_from >= secret_to) continue;
    out.append(text.substr(from, secret_from - from));
    out += redacted_secret("url", text.substr(secret_from, secret_to - secret_from));
    from = secret_to;
  }
  out.append(text.substr(from));
  return out;
}

std::string shown_variable(std::string_view name, std::string_view value) {
  return secret_name(name) || known_token_shape(value) ? redacted_secret(name, value)
                                                       : redacted_log_text(value);
}

namespace {

bool ascii_iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

// An HTTP Authorization header's credentials (`Authorization: Bearer TOKEN`, `Basic dXNl...`),
// scheme and token together, redacted wherever the header is written: a command's `-H "..."`, a
// case file, a log line. Redacting the scheme alone left the token (issue 40).
std::string without_auth_headers(std::string_view text) {
  static constexpr std::string_view kHeader = "authorization:";
  std::string out;
  size_t from = 0;
  for (size_t i = 0; i + kHeader.size() <= text.size(); ++i) {
    if (!ascii_iequal(text.substr(i, kHeader.size()), kHeader)) continue;
    size_t v = i + kHeader.size();
    while (v < text.size() && (text[v] == ' ' || text[v] == '\t')) ++v;
    const auto word_end = [&](size_t k) {
      while (k < text.size() && !space(text[k]) && text[k] != '"' && text[k] != '\'' &&
             text[k] != ',' && text[k] != ';')
        ++k;
      return k;
    };
    size_t e = word_end(v);
    if (e == v || text.substr(v).starts_with("<redacted")) continue;
    for (std::string_view scheme : {"bearer", "basic", "token", "digest", "negotiate", "apikey"})
      if (ascii_iequal(text.substr(v, e - v), scheme)) {
        size_t t = e;
        while (t < text.size() && text[t] == ' ') ++t;
        if (t < text.size() && word_end(t) > t) e = word_end(t);
        break;
      }
    out.append(text.substr(from, v - from));
    out += redacted_secret("authorization", text.substr(v, e - v));
    from = e;
    i = e - 1;
  }
  out.append(text.substr(from));
  return out;
}

}  // namespace

std::string redacted_command(std::string_view command) {
  std::string out;
  size_t i = 0;
  bool hide_next = false;      // the word after `--hf-token`
  bool hide_password = false;  // the word after `-u`
  std::string hidden_name;
  while (i < command.size()) {
    if (space(command[i]) || command[i] == ';' || command[i] == '&' || command[i] == '|') {
      out += command[i++];
      continue;
    }
    const size_t e = std::max(word_end(command, i), i + 1);
    const std::string_view w = command.substr(i, e - i);
    i = e;
    if (hide_next) {
      hide_next = false;
      if (!w.starts_with("-")) {
        out += redacted_secret(hidden_name, w);
        continue;
      }
    }
    if (hide_password) {  // curl's `-u user:password`: the user stays
      hide_password = false;
      if (const size_t colon = w.find(':');
          colon != std::string_view::npos && colon + 1 < w.size()) {
        out += w.substr(0, colon + 1);
        out += redacted_secret("user", w.substr(colon + 1));
        continue;
      }
    }
    if (w == "-u" || w == "--user" || w == "--proxy-user" || w == "-U") {
      out += w;
      hide_password = true;
      continue;
    }
    const size_t eq = w.find('=');
    if (w.starts_with("-")) {
      const size_t dashes = w.find_first_not_of('-');
      const std::string_view name =
          w.substr(dashes, (eq == std::string_view::npos ? w.size() : eq) - dashes);
      if (dashes != std::string_view::npos && secret_name(name)) {
        if (eq == std::string_view::npos) {
          out += w;
          hide_next = true;
          hidden_name = std::string(name);
        } else {
          out += w.substr(0, eq + 1);
          out += redacted_secret(name, w.substr(eq + 1));
        }
        continue;
      }
    } else if (eq != std::string_view::npos && eq > 0) {
      const std::string_view name = w.substr(0, eq);
      const bool variable = std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      });
      if (variable && secret_name(name)) {
        out += w.substr(0, eq + 1);
        out += redacted_secret(name, w.substr(eq + 1));
        continue;
      }
    }
    if (known_token_shape(w)) {
      out += redacted_secret("token", w);
      continue;
    }
    out += without_url_credentials(w);
  }
  // Keys named for secrets anywhere in the line: `?access_token=X` in a URL, `-H "X-Api-Key: X"`,
  // `'{"hf_token": "X"}'` (issue 40's fourth pass), and Authorization headers.
  return redacted_log_text(out);
}

namespace {

// Every word (letters, digits, _ - .) that has a known token's shape, redacted.
std::string without_token_shapes(std::string_view text) {
  const auto word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  };
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (!word_char(text[i])) {
      out += text[i++];
      continue;
    }
    size_t e = i;
    while (e < text.size() && word_char(text[e])) ++e;
    std::string_view w = text.substr(i, e - i);
    while (!w.empty() && w.back() == '.') w.remove_suffix(1);  // a sentence's full stop
    if (known_token_shape(w)) {
      out += redacted_secret("token", w);
      out.append(text.substr(i + w.size(), e - i - w.size()));
    } else {
      out.append(text.substr(i, e - i));
    }
    i = e;
  }
  return out;
}

std::string redacted_text_by(std::string_view original, bool (*secret)(std::string_view)) {
  const std::string headerless = without_auth_headers(original);
  const std::string_view text = headerless;
  std::string out;
  const auto name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  };
  // The end of a value that starts at i: a quoted one to its quote, a YAML flow list to its `]`,
  // else to a blank or , } ] ;
  const auto value_end = [&](size_t i) {
    if (i < text.size() && text[i] == '[') {
      const size_t q = text.find(']', i + 1);
      return q == std::string_view::npos ? text.size() : q + 1;
    }
    if (i < text.size() && (text[i] == '\'' || text[i] == '"')) {
      const size_t q = text.find(text[i], i + 1);
      return q == std::string_view::npos ? text.size() : q + 1;
    }
    while (i < text.size() && !space(text[i]) && text[i] != ',' && text[i] != '}' &&
           text[i] != ']' && text[i] != ';')
      ++i;
    return i;
  };
  size_t i = 0;
  while (i < text.size()) {
    if (!name_char(text[i]) || (i > 0 && name_char(text[i - 1]))) {
      out += text[i++];
      continue;
    }
    size_t e = i;
    while (e < text.size() && name_char(text[e])) ++e;
    const std::string_view name = text.substr(i, e - i);
    out.append(name);
    i = e;
    const std::string_view bare = name.substr(std::min(name.find_first_not_of('-'), name.size()));
    if (name == "-u" || name == "--user" || name == "--proxy-user") {  // curl's user:password
      size_t k = i;
      while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
      const size_t we = value_end(k);
      const size_t colon = text.substr(k, we - k).find(':');
      if (k > i && colon != std::string_view::npos && k + colon + 1 < we) {
        out.append(text.substr(i, k + colon + 1 - i));
        out += redacted_secret("user", text.substr(k + colon + 1, we - k - colon - 1));
        i = we;
      }
      continue;
    }
    if (bare.empty() || !secret(bare)) continue;
    // A quoted key (`"api_key": "X"`, JSON) ends at its quote; `KEY = "X"` has blanks around =.
    if (const size_t start = i - name.size(); i < text.size() &&
                                              (text[i] == '"' || text[i] == '\'') && start > 0 &&
                                              text[start - 1] == text[i]) {
      out += text[i];
      ++i;
    }
    size_t eq = i;
    while (eq < text.size() && (text[eq] == ' ' || text[eq] == '\t')) ++eq;
    size_t v = std::string_view::npos;
    if (eq < text.size() && text[eq] == '=' && (eq + 1 >= text.size() || text[eq + 1] != '=') &&
        (eq == i || !name.starts_with("-"))) {
      size_t k = eq + 1;
      if (eq > i)  // blanks before =: blanks after it too
        while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
      out.append(text.substr(i, k - i));
      v = k;
    } else if (i < text.size() && text[i] == ':' && i + 1 < text.size() &&
               (text[i + 1] == '"' || text[i + 1] == '\'')) {  // "key":"X"
      out += ':';
      v = i + 1;
    } else if (i + 1 < text.size() && text[i] == ':' &&
               (text[i + 1] == ' ' || text[i + 1] == '\t')) {
      size_t k = i + 1;
      while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
      out.append(text.substr(i, k - i));
      v = k;
    } else if (name.starts_with("-") && i < text.size() && (text[i] == ' ' || text[i] == '\t')) {
      size_t k = i;
      while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
      if (k < text.size() && text[k] != '-' && text[k] != '\n') {
        out.append(text.substr(i, k - i));
        v = k;
      }
    }
    if (v == std::string_view::npos || v >= text.size()) {
      i = v == std::string_view::npos ? i : v;
      continue;
    }
    size_t ve = value_end(v);
    // A URL query's parameter (`?api_key=X&page=2`) ends at the next `&` or `#`.
    if (const size_t start = i - name.size();
        start > 0 && (text[start - 1] == '?' || text[start - 1] == '&'))
      ve = std::min({ve, text.find('&', v), text.find('#', v)});
    const std::string_view value = text.substr(v, ve - v);
    if (value.empty() || value.starts_with("<redacted") || value == "\n")
      out.append(value);
    else
      out += redacted_secret(bare, value);
    i = ve;
  }
  return without_token_shapes(without_url_credentials(out));
}

}  // namespace

std::string redacted_text(std::string_view text) {
  return redacted_text_by(text, secret_name);
}

std::string redacted_log_text(std::string_view text) {
  return redacted_text_by(text, secret_word_name);
}

}  // namespace aerun
