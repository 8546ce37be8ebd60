// Reading hostfiles: PBS nodefiles, plain lists, Open MPI `slots=` and MPICH `host:N` files.
#include "aerun/cluster/hostfile.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cctype>
#include <cerrno>
#include <cstring>

#include <sstream>
#include <unordered_map>

#include "aerun/util/error.hpp"
#include "aerun/util/unique_fd.hpp"

namespace aerun {

namespace {

// Bounds no real machine reaches: a hostfile of 100,000 hosts is about 3 MiB.
constexpr size_t kMaxHostfileBytes = 64u << 20;
constexpr long long kMaxSlots = 10'000'000;

bool is_ipv4(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.') return false;
  return true;
}

// The host's first DNS label ("x1.hsn.example" -> "x1"); an IPv4 address stays whole.
std::string_view short_name(std::string_view h) {
  if (is_ipv4(h)) return h;
  return h.substr(0, h.find('.'));
}

// Same host: equal, or one is a short name and the other an FQDN starting with it.
bool same_host(std::string_view a, std::string_view b) {
  if (a == b) return true;
  const bool a_short = a.find('.') == std::string_view::npos;
  const bool b_short = b.find('.') == std::string_view::npos;
  if (a_short == b_short || is_ipv4(a) || is_ipv4(b)) return false;
  return short_name(a) == short_name(b);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

int parse_slots(std::string_view digits, const SourceLoc& loc) {
  if (digits.empty() || digits.size() > 6)
    throw InputError(loc, "hostfile", fmt::format("bad slot count '{}'", digits));
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      throw InputError(loc, "hostfile", fmt::format("bad slot count '{}'", digits));
  const int n = std::stoi(std::string(digits));
  if (n < 1) throw InputError(loc, "hostfile", "a slot count must be at least 1");
  return n;
}

// A host name: no whitespace, no '#', no '='.
void check_name(std::string_view name, const SourceLoc& loc) {
  if (name.empty()) throw InputError(loc, "hostfile", "missing host name");
  for (char c : name)
    if (std::isspace(static_cast<unsigned char>(c)) || c == '=' || c == ':' || c == '[' || c == ']')
      throw InputError(loc, "hostfile", fmt::format("'{}' is not a host name", name));
}

}  // namespace

std::vector<std::string> Hostfile::names() const {
  std::vector<std::string> out;
  for (const auto& h : hosts) out.push_back(h.name);
  return out;
}

std::string to_string(HostfileFormat f) {
  switch (f) {
    case HostfileFormat::OpenMpi:
      return "openmpi";
    case HostfileFormat::Mpich:
      return "mpich";
    case HostfileFormat::Plain:
      break;
  }
  return "plain";
}

Hostfile parse_hostfile(std::string_view text, const std::string& file) {
  Hostfile hf;
  std::unordered_map<std::string, std::vector<size_t>> by_short;
  long long total_slots = 0;
  bool seen_openmpi = false, seen_mpich = false;
  int line_no = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(start, end - start);
    ++line_no;
    start = end + 1;
    if (const size_t hash = raw.find('#'); hash != std::string_view::npos)
      raw = raw.substr(0, hash);
    const std::string_view line = trim(raw);
    if (line.empty()) {
      if (end == text.size()) break;
      continue;
    }
    const int col = static_cast<int>(line.data() - raw.data()) + 1;
    const SourceLoc loc{file, line_no, col};
    std::string_view name = line;
    int slots = 1;
    const size_t space = line.find_first_of(" \t");
    if (space != std::string_view::npos) {  // Open MPI: `host slots=N [max_slots=M]`
      name = line.substr(0, space);
      std::istringstream rest{std::string(line.substr(space))};
      std::string word;
      bool has_slots = false;
      while (rest >> word) {
        if (word.rfind("slots=", 0) == 0) {
          slots = parse_slots(std::string_view(word).substr(6), loc);
          has_slots = true;
        } else if (word.rfind("max_slots=", 0) == 0 || word.rfind("max-slots=", 0) == 0) {
          parse_slots(std::string_view(word).substr(10), loc);
        } else {
          throw InputError(
              loc, "hostfile",
              fmt::format("unexpected '{}' after the host name (expected slots=N)", word));
        }
      }
      if (!has_slots) throw InputError(loc, "hostfile", "expected slots=N after the host name");
      seen_openmpi = true;
    } else if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
      name = line.substr(0, colon);  // MPICH: `host:N`
      slots = parse_slots(line.substr(colon + 1), loc);
      seen_mpich = true;
    }
    check_name(name, loc);
    if (seen_openmpi && seen_mpich)
      throw InputError(loc, "hostfile", "mixes Open MPI 'slots=N' and MPICH 'host:N' lines");
    // Slots add up in 64 bits, within a bound no machine reaches (issue 40: 2,200 lines of
    // `a:999999` made a negative count).
    total_slots += slots;
    if (total_slots > kMaxSlots)
      throw InputError(loc, "hostfile",
                       fmt::format("more than {} slots in all: not a real machine's", kMaxSlots));
    // The hosts seen so far with this short name (one, usually): a lookup, not a scan of every
    // host (100,000 lines took 48 s).
    std::vector<size_t>& same_short = by_short[std::string(short_name(name))];
    bool merged = false;
    for (const size_t i : same_short)
      if (same_host(hf.hosts[i].name, name)) {
        hf.hosts[i].slots += slots;
        merged = true;
        break;
      }
    if (!merged) {
      same_short.push_back(hf.hosts.size());
      hf.hosts.push_back({std::string(name), slots});
    }
    if (end == text.size()) break;
  }
  hf.format = seen_openmpi ? HostfileFormat::OpenMpi
              : seen_mpich ? HostfileFormat::Mpich
                           : HostfileFormat::Plain;
  return hf;
}

Hostfile read_hostfile(const std::string& path) {
  // A regular file of at most kMaxHostfileBytes (issue 40: PBS_NODEFILE=/dev/zero read until
  // memory ran out; a FIFO blocked forever).
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0)
    throw InputError(SourceLoc{path, 0, 0}, "hostfile",
                     std::string("cannot read hostfile: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
    throw InputError(SourceLoc{path, 0, 0}, "hostfile",
                     "not a regular file (a device, FIFO or socket): a hostfile lists hosts");
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0)
      throw InputError(SourceLoc{path, 0, 0}, "hostfile",
                       std::string("cannot read hostfile: ") + std::strerror(errno));
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > kMaxHostfileBytes)
      throw InputError(
          SourceLoc{path, 0, 0}, "hostfile",
          fmt::format("larger than {} MiB: not a list of hosts", kMaxHostfileBytes >> 20));
  }
  Hostfile hf = parse_hostfile(text, path);
  hf.path = path;
  if (hf.hosts.empty()) throw InputError(SourceLoc{path, 0, 0}, "hostfile", "lists no host");
  return hf;
}

}  // namespace aerun
