#include "aerun/util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "aerun/util/error.hpp"
#include "aerun/util/unique_fd.hpp"

namespace aerun {

void write_file_atomic(const std::string& path, std::string_view text) {
  // A new file of a name nobody could guess (mkstemp: O_CREAT | O_EXCL, so never through a link
  // put there), made readable as the file it replaces was.
  std::string tmp = path + ".aerun-tmp-XXXXXX";
  bool made = false;
  auto fail = [&](const char* what, int err) {
    if (made) ::unlink(tmp.c_str());
    throw SystemError("cannot write " + path + " (" + what + "): " + std::strerror(err));
  };
  {
    UniqueFd fd(::mkostemp(tmp.data(), O_CLOEXEC));
    if (fd.get() < 0) fail("create", errno);
    made = true;
    ::fchmod(fd.get(), 0644);
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("write", n < 0 ? errno : ENOSPC);
      done += static_cast<size_t>(n);
    }
    if (::close(fd.release()) != 0) fail("close", errno);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("rename", errno);
}

}  // namespace aerun
