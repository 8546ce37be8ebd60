// Secrets never shown (issue 40): by a variable's name, by the shape of a value (a password in a
// URL) and by a command line's options that carry them. What replaces a secret keeps a short
// digest of it, so that two runs' values can still be seen to differ.
#pragma once

#include <string>
#include <string_view>

namespace aerun {

// Whether a variable or option name says it holds a secret: TOKEN, SECRET, PASSWORD, PASSWD, KEY,
// CREDENTIAL, AUTH (any case, anywhere in the name).
bool secret_name(std::string_view name);

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

}  // namespace aerun
