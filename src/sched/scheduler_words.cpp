// scheduler_words (scheduler_client.hpp).
#include "aerun/sched/scheduler_client.hpp"
#include "aerun/util/secret_text.hpp"

namespace aerun {

std::string scheduler_words(std::string_view text) {
  constexpr size_t kMax = 1024;
  std::string out = redacted_log_text(text);
  if (out.size() <= kMax) return out;
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  out.resize(cut);
  return out + "…";
}

}  // namespace aerun
