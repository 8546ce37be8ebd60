// Secrets are never shown (issue 40): by name, in URLs, on command lines; what stands for one keeps
// a short digest so that a change is still seen.
#include "aerun/util/secret_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using aerun::redacted_command;
using aerun::redacted_secret;
using aerun::shown_variable;
using aerun::without_url_credentials;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(SecretText, APasswordInAUrlIsRedactedTheRestKept) {
  const std::string shown =
      without_url_credentials("https://alice:S3cr3t-pw@pypi.example.org/simple/ and more");
  EXPECT_THAT(shown, Not(HasSubstr("S3cr3t-pw")));
  EXPECT_THAT(shown, HasSubstr("https://alice:<redacted sha256:"));
  EXPECT_THAT(shown, HasSubstr(">@pypi.example.org/simple/ and more"));
  EXPECT_THAT(without_url_credentials("http://u:p4ss@proxy:3128"), Not(HasSubstr("p4ss")));
}

TEST(SecretText, ATokenAsAUrlsUserIsRedactedANameIsNot) {
  EXPECT_THAT(without_url_credentials("https://ghp_abcdefghijklmnopqrstuvwxyz@github.com/o/r.git"),
              Not(HasSubstr("ghp_abcdefghijklmnop")));
  EXPECT_EQ(without_url_credentials("ssh://git@github.com/o/r.git"),
            "ssh://git@github.com/o/r.git");
  EXPECT_EQ(without_url_credentials("no url here: a@b"), "no url here: a@b");
}

TEST(SecretText, AVariableNamedForASecretIsRedactedWhole) {
  EXPECT_THAT(shown_variable("WANDB_API_KEY", "0123456789abcdef"),
              Not(HasSubstr("0123456789abcdef")));
  EXPECT_EQ(shown_variable("OMP_NUM_THREADS", "8"), "8");
  EXPECT_THAT(shown_variable("PIP_INDEX_URL", "https://u:SECRET@h/simple"),
              Not(HasSubstr("SECRET")));
}

TEST(SecretText, TheDigestShowsAChangeNotTheValue) {
  EXPECT_EQ(redacted_secret("HF_TOKEN", "a"), redacted_secret("HF_TOKEN", "a"));
  EXPECT_NE(redacted_secret("HF_TOKEN", "a"), redacted_secret("HF_TOKEN", "b"));
  EXPECT_THAT(redacted_secret("HF_TOKEN", "hf_value"), Not(HasSubstr("hf_value")));
}

TEST(SecretText, OptionsAndAssignmentsThatCarrySecretsOnACommandLine) {
  const std::string cmd =
      "WANDB_API_KEY=k1k1k1 python train.py --hf-token tok123 --password=pw456 -api-key 'ak 789' "
      "--lr 3e-4 --data https://u:urlpw@host/d --keep 2";
  const std::string shown = redacted_command(cmd);
  for (const char* secret : {"k1k1k1", "tok123", "pw456", "ak 789", "urlpw"})
    EXPECT_THAT(shown, Not(HasSubstr(secret))) << secret;
  for (const char* kept : {"python train.py --hf-token <redacted", "--password=<redacted",
                           "--lr 3e-4", "--keep 2", "WANDB_API_KEY=<redacted"})
    EXPECT_THAT(shown, HasSubstr(kept)) << kept;
  EXPECT_EQ(redacted_command("echo x={x}; sleep 1 && ls | wc -l"),
            "echo x={x}; sleep 1 && ls | wc -l");
}

TEST(SecretText, FreeTextKeepsNoSecretOfACaseFileOrAToolsOutput) {
  const std::string yaml =
      "env: {WANDB_API_KEY: 'wandb-5ecret', NCCL_DEBUG: WARN}\n"
      "command: train --hf-token tok-5ecret --password=pw-5ecret --lr 3e-4\n"
      "api_key: key-5ecret\n"
      "url: https://u:url-5ecret@host/x\n"
      "keyring==23.0\n";
  const std::string shown = aerun::redacted_text(yaml);
  EXPECT_THAT(shown, Not(HasSubstr("5ecret")));
  EXPECT_THAT(shown, HasSubstr("NCCL_DEBUG: WARN"));
  EXPECT_THAT(shown, HasSubstr("--lr 3e-4"));
  EXPECT_THAT(shown, HasSubstr("keyring==23.0"));  // a package, not a key=value
  EXPECT_EQ(aerun::redacted_text(shown), shown);   // what is redacted stays as it is
}

TEST(SecretText, AnAuthorizationHeadersSchemeAndTokenAreRedactedTogether) {
  // The second adversarial pass: the scheme alone was taken for the value, the token left.
  for (const std::string line : {"curl -H \"Authorization: Bearer tok5ecret\" https://h/x",
                                 "curl -H 'authorization: Basic dXNlcjo1ZWNyZXQ=' https://h/x"}) {
    const std::string shown = redacted_command(line);
    EXPECT_THAT(shown, Not(HasSubstr("5ecret"))) << shown;
    EXPECT_THAT(shown, Not(HasSubstr("dXNlcjo1ZWNyZXQ"))) << shown;
    EXPECT_THAT(shown, HasSubstr("https://h/x"));
    EXPECT_THAT(aerun::redacted_text(line), Not(HasSubstr("ecret")));
  }
}

TEST(SecretText, KeysWithBlanksAroundTheSignOrInQuotesAreRedacted) {
  // A diff kept in the environment record: `API_KEY = "X"` and JSON's `"api_key": "X"` were shown.
  const std::string diff =
      "+API_KEY = \"k5ecret1\"\n+{\"api_key\": \"k5ecret2\"}\n"
      "+{\"token\":\"k5ecret3\"}\n+x = 1\n";
  const std::string shown = aerun::redacted_text(diff);
  EXPECT_THAT(shown, Not(HasSubstr("5ecret"))) << shown;
  EXPECT_THAT(shown, HasSubstr("+x = 1"));
  EXPECT_EQ(aerun::redacted_text(shown), shown);
}

TEST(SecretText, ANameChosenForSomethingElseIsSecretByItsWordsOnly) {
  for (const char* n : {"password", "hf_token", "HF_TOKEN", "apiKey", "api_key", "db_password",
                        "AWS_SECRET_ACCESS_KEY", "private-key", "credentials", "auth_token"})
    EXPECT_TRUE(aerun::secret_word_name(n)) << n;
  for (const char* n : {"max_tokens", "tokens_per_s", "tokenizer", "sort_key", "key", "author",
                        "monkey", "keep_ratio", "lr", "num_key_value_heads", "mean_token_accuracy",
                        "time_per_token", "token_acc"})
    EXPECT_FALSE(aerun::secret_word_name(n)) << n;
  EXPECT_EQ(aerun::shown_param("max_tokens", "4096"), "4096");
  EXPECT_THAT(aerun::shown_param("hf_token", "hf_5ecret"), HasSubstr("<redacted sha256:"));
}

TEST(SecretText, ALogLineKeepsItsErrorsAndLosesItsSecrets) {
  // A status reason quotes a log line: `token=X` goes, `KeyError: 'lr'` stays.
  const std::string reason = "RuntimeError: NCCL error token=tok5ecret HF_TOKEN=hf_5ecret";
  EXPECT_THAT(aerun::redacted_log_text(reason), Not(HasSubstr("5ecret")));
  EXPECT_THAT(aerun::redacted_log_text(reason), HasSubstr("RuntimeError: NCCL error token="));
  EXPECT_EQ(aerun::redacted_log_text("KeyError: 'lr'"), "KeyError: 'lr'");
  EXPECT_EQ(aerun::redacted_log_text("monkey: 3 max_tokens=4096"), "monkey: 3 max_tokens=4096");
}

// Issue 40's fourth pass: names, shapes and places the lists missed.
TEST(SecretText, MoreNamesAndTokenShapesOfTheFourthPass) {
  for (const char* n : {"passphrase", "ssh_key", "cookie", "auth", "basic_auth", "jwt",
                        "signing_key", "sslpassword", "X-Amz-Signature", "sig"})
    EXPECT_TRUE(aerun::secret_word_name(n)) << n;
  for (const char* n : {"auth_method", "author", "signal", "sigma", "cookie_count_per_s"})
    EXPECT_EQ(aerun::secret_word_name(n), std::string(n) == "cookie_count_per_s") << n;
  for (const char* v : {"pypi-AgEIcHlwaS5vcmcCJGY2NDk0ZTc3LWE0ZjAtNGI3Zi04ZmQ5",
                        "npm_abcdefghijklmnopqrstuvwxyz0123456789", "sk_live_abcdefghijklmnop1234",
                        "AIzaSyA1234567890abcdefghijklmnopqrstuv",
                        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijklmnop"})
    EXPECT_TRUE(aerun::known_token_shape(v)) << v;
  for (const char* v : {"pypi-simple", "npm_install", "sk_live", "AIza", "eyJ", "3.14e-3"})
    EXPECT_FALSE(aerun::known_token_shape(v)) << v;
}

TEST(SecretText, AValueOrACommandLosesTheSecretsItsKeysName) {
  const std::string url = "https://h.example.com/v1?api_key=PKEY3333&page=2";
  EXPECT_THAT(aerun::shown_param("url", url),
              AllOf(Not(HasSubstr("PKEY3333")), HasSubstr("h.example.com/v1?api_key="),
                    HasSubstr("&page=2")));
  EXPECT_THAT(aerun::shown_variable("DATA_URL", "https://d/x?token=QTOK1111&x=1"),
              Not(HasSubstr("QTOK1111")));
  const std::string cmd =
      "curl -u alice:CURLPW8888 -H \"X-Api-Key: HDR7777\" --json "
      "'{\"hf_token\": \"HFJSON9999\"}' \"postgres://h/x?sslpassword=SSL1212\"";
  const std::string shown = aerun::redacted_command(cmd);
  for (const char* s : {"CURLPW8888", "HDR7777", "HFJSON9999", "SSL1212"})
    EXPECT_THAT(shown, Not(HasSubstr(s))) << s;
  EXPECT_THAT(shown, AllOf(HasSubstr("curl -u alice:"), HasSubstr("X-Api-Key")));
  EXPECT_EQ(aerun::redacted_command("python -u train.py --lr=0.1 -u 3"),
            "python -u train.py --lr=0.1 -u 3");
}
