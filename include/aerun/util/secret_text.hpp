// Secrets never shown (issue 40): by a variable's name, by the shape of a value (a password in a
// URL) and by a command line's options that carry them. What replaces a secret keeps a short
// digest of it, so that two runs' values can still be seen to differ.
#pragma once

#include <string>
#include <string_view>

#include "aerun/util/value.hpp"

namespace aerun {

// Whether a variable or option name says it holds a secret: TOKEN, SECRET, PASSWORD, PASSWD, KEY,
// CREDENTIAL, AUTH (any case, anywhere in the name).
bool secret_name(std::string_view name);

// The stricter test for a name chosen for something else first (a parameter, a metric a log
// prints): its words (split at _ - . and lower-to-upper case changes) hold secret, password,
// passwd, passphrase, credential(s), apikey, cookie or jwt, or key after api, access, private,
// secret, ssh, signing or encryption, or end with token (not `per_token`) or auth. `hf_token`,
// `apiKey`, `db_password`, `ssh_key`, `basic_auth` are; `max_tokens`, `tokenizer`,
// `mean_token_accuracy`, `time_per_token`, `sort_key`, `author`, `auth_method` are not.
bool secret_word_name(std::string_view name);

// Whether a value has the shape of a well-known service's token whatever its name: GitHub
// (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), Hugging Face (`hf_` and 30 or more
// letters and digits), GitLab (`glpat-`), OpenAI (`sk-`), Slack (`xoxb-`, `xoxp-`), an AWS access
// key id (`AKIA` and 16 capitals or digits), PyPI (`pypi-`), npm (`npm_`), Stripe (`sk_live_`,
// `sk_test_`, `rk_live_`, `rk_test_`), a Google API key (`AIza` and 35), a JSON Web Token
// (`eyJ…`, three base64url parts).
bool known_token_shape(std::string_view value);

// A parameter's value as shown: redacted when secret_word_name(name) or known_token_shape(value)
// (issue 40: a parameter named `password` or `hf_token` was printed by every listing), else
// without URL credentials.
std::string shown_param(std::string_view name, std::string_view value);

// text with every occurrence of a secret parameter's value (by shown_param's test, 4 bytes or
// more) redacted: a password passed as a plain argument (`--user bob {password}`) or put in a run
// folder's path (`{case}-{password}`) is found by its value (issue 40's third pass).
std::string without_param_secrets(std::string_view text, const ParamList& params);

// What is shown for a secret value: `<redacted sha256:1a2b3c4d>`, the first 8 hex digits of the
// SHA-256 of the name and value (enough to see a change; too few to recover a value from).
std::string redacted_secret(std::string_view name, std::string_view value);

// text with the password of every URL's user information replaced (`https://u:SECRET@h` ->
// `https://u:<redacted ...>@h`), and a user part that is a token alone (16 characters or more,
// `https://ghp_...@github.com`) too.
std::string without_url_credentials(std::string_view text);

// A variable's value as shown: redacted whole when its name says secret, else without URL
// credentials.
std::string shown_variable(std::string_view name, std::string_view value);

// A command line as shown: the values of options named for secrets (`--hf-token X`,
// `--password=X`, `-api-key X`), of assignments to secret variables (`WANDB_API_KEY=X cmd`) and
// URL credentials redacted; everything else as it was.
std::string redacted_command(std::string_view command);

// Free text (a case file, what a tool printed): the values of keys named for secrets written
// `KEY: value` (YAML) or `KEY=value` (not `==`), of options `--key-name value`, and URL
// credentials, redacted; a value already `<redacted ...>` stays.
std::string redacted_text(std::string_view text);

// redacted_text for what a program printed (a status reason from a log line), by the stricter
// secret_word_name: `token=X`, `HF_TOKEN=X` are redacted, `KeyError: 'lr'` is not. HTTP
// Authorization headers' scheme and token are redacted by both.
std::string redacted_log_text(std::string_view text);

}  // namespace aerun
