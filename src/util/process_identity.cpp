#include "aerun/util/process_identity.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace aerun {

namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

long long process_start_ticks(int pid) {
  if (pid <= 0) return 0;
  const std::string stat = read_line("/proc/" + std::to_string(pid) + "/stat");
  // pid (comm) state ppid ... : comm may hold spaces and parentheses; fields follow the last ')'.
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) return std::stoll(field);
  return 0;
}

const ProcessIdentity& self_identity() {
  static const ProcessIdentity self = [] {
    ProcessIdentity id;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) id.host = host;
    id.pid = static_cast<int>(getpid());
    id.start_ticks = process_start_ticks(id.pid);
    id.boot_id = read_line("/proc/sys/kernel/random/boot_id");
    return id;
  }();
  return self;
}

bool provably_dead(const ProcessIdentity& owner) {
  const ProcessIdentity& self = self_identity();
  if (owner.host.empty() || owner.host != self.host || owner.pid <= 0) return false;
  if (!owner.boot_id.empty() && !self.boot_id.empty() && owner.boot_id != self.boot_id)
    return true;  // this host rebooted since
  const long long now = process_start_ticks(owner.pid);
  if (now == 0) return true;                                  // no such process
  return owner.start_ticks != 0 && now != owner.start_ticks;  // the pid was reused
}

std::vector<int> pipe_holders(int read_fd) {
  std::vector<int> out;
  struct stat st {};
  if (read_fd < 0 || ::fstat(read_fd, &st) != 0 || !S_ISFIFO(st.st_mode)) return out;
  const std::string want = "pipe:[" + std::to_string(st.st_ino) + "]";
  namespace fs = std::filesystem;
  std::error_code ec;
  const int self = ::getpid();
  for (fs::directory_iterator p("/proc", ec), end; !ec && p != end; p.increment(ec)) {
    const std::string name = p->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const int pid = std::stoi(name);
    if (pid == self) continue;
    std::error_code fe;
    for (fs::directory_iterator f(p->path() / "fd", fe), fend; !fe && f != fend; f.increment(fe)) {
      std::error_code le;
      if (fs::read_symlink(f->path(), le).string() == want) {
        out.push_back(pid);
        break;
      }
    }
  }
  return out;
}

}  // namespace aerun
