#include "aerun/sched/scheduler_client.hpp"

#include <cstdlib>
#include <sstream>

#include "aerun/sched/scheduler_backend.hpp"

namespace aerun {

const JobReport* QueryResult::find(const std::string& job_id) const {
  for (const auto& j : jobs)
    if (j.job_id == job_id) return &j;
  return nullptr;
}

std::optional<long> setting_number(const std::string& listing, const std::string& name) {
  std::istringstream in(listing);
  std::string line;
  while (std::getline(in, line)) {
    const size_t at = line.find_first_not_of(" \t");
    if (at == std::string::npos || line.compare(at, name.size(), name) != 0) continue;
    size_t i = line.find_first_not_of(" \t", at + name.size());
    if (i == std::string::npos || line[i] != '=') continue;
    i = line.find_first_not_of(" \t", i + 1);
    if (i == std::string::npos) continue;
    size_t end = line.find_last_not_of(" \t\r") + 1;
    const std::string value = line.substr(i, end - i);
    if (value.empty() || value.size() > 18 ||
        value.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return std::stol(value);
  }
  return std::nullopt;
}

ArrayLimit array_limit(SchedulerClient* client, const std::string& queue) {
  if (const char* v = std::getenv("AERUN_MAX_ARRAY_SIZE"); v && *v) {
    const std::string text = v;
    // Slurm's own bound on MaxArraySize; PBS's is lower still.
    if (text.size() > 7 || text.find_first_not_of("0123456789") != std::string::npos ||
        std::stol(text) > 4000001)
      throw InputError(SourceLoc{"AERUN_MAX_ARRAY_SIZE", 0, 0}, "AERUN_MAX_ARRAY_SIZE",
                       "'" + text + "' is no array size (a whole number 0..4000001; 0: no arrays)");
    return {std::stoi(text), "AERUN_MAX_ARRAY_SIZE=" + text};
  }
  return client ? client->array_limit(queue) : ArrayLimit{};
}

std::unique_ptr<SchedulerClient> make_scheduler_client(Scheduler s) {
  return scheduler_backend(s).client();
}

}  // namespace aerun
