#include "aerun/util/created_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "aerun/util/error.hpp"

namespace aerun {

namespace {

// create_file's work on the entry name of the folder dir (AT_FDCWD: name is a path); shown names
// the file in errors.
UniqueFd create_at(int dir, const char* name, const std::string& shown, CreateMode how,
                   mode_t mode) {
  const auto fail = [&](const std::string& why) {
    throw SystemError("cannot write " + shown + ": " + why);
  };
  for (int attempt = 0; attempt < 3; ++attempt) {
    struct stat st {};
    if (::fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISDIR(st.st_mode)) fail(std::strerror(EISDIR));
      if ((!S_ISREG(st.st_mode) || st.st_nlink > 1) && ::unlinkat(dir, name, 0) != 0 &&
          errno != ENOENT)
        fail(std::string("it is not a regular file of aerun's and cannot be replaced: ") +
             std::strerror(errno));
    }
    // Not truncated at open: a file that another name links to is seen first (fstat), then left.
    const int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK |
                      (how == CreateMode::Append ? O_APPEND : 0);
    UniqueFd fd(::openat(dir, name, flags, mode));
    if (fd.get() < 0)
      fail(errno == ELOOP ? std::string("a link was put there (not followed)")
                          : std::string(std::strerror(errno)));
    // O_NONBLOCK only kept a FIFO put there between the two calls from blocking the open.
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) fail("not a regular file");
    if (st.st_nlink > 1) continue;  // a hard link put there meanwhile: removed, and again
    if (how == CreateMode::Truncate && ::ftruncate(fd.get(), 0) != 0) fail(std::strerror(errno));
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    return fd;
  }
  fail("other names keep being linked to it");
  return UniqueFd();  // not reached
}

}  // namespace

UniqueFd create_file(const std::string& path, CreateMode how, mode_t mode, const char* what) {
  return create_at(AT_FDCWD, path.c_str(), what ? std::string(what) + " " + path : path, how, mode);
}

UniqueFd create_own_file(const std::string& path, int own_levels, CreateMode how, mode_t mode,
                         const char* what) {
  if (own_levels <= 0) return create_file(path, how, mode, what);
  const std::filesystem::path p(path);
  const UniqueFd dir = open_own_directory(p.parent_path().string(), own_levels);
  return create_at(dir.get(), p.filename().c_str(), what ? std::string(what) + " " + path : path,
                   how, mode);
}

UniqueFd open_own_directory(const std::string& path, int own_levels) {
  namespace fs = std::filesystem;
  const auto fail = [&](const std::string& why) {
    throw SystemError("cannot create " + path + ": " + why);
  };
  fs::path base = fs::absolute(fs::path(path)).lexically_normal();
  while (!base.empty() && base.filename().empty() && base != base.root_path())
    base = base.parent_path();  // a trailing '/'
  std::vector<std::string> own;
  for (int i = 0; i < own_levels && base.has_relative_path(); ++i) {
    own.insert(own.begin(), base.filename().string());
    base = base.parent_path();
  }
  std::error_code ec;
  fs::create_directories(base, ec);  // the user's folders, as the user made them
  if (ec) fail(ec.message());
  UniqueFd dir(::open(base.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) fail(std::strerror(errno));
  for (const std::string& name : own) {
    int fd = -1;
    for (int attempt = 0; attempt < 4 && fd < 0; ++attempt) {
      fd = ::openat(dir.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd >= 0) break;
      if (errno == ENOENT) {
        if (::mkdirat(dir.get(), name.c_str(), 0755) != 0 && errno != EEXIST)
          fail(std::strerror(errno));
      } else if (errno == ELOOP || errno == ENOTDIR) {  // a link or a file: not aerun's folder
        // A link, a FIFO or a socket holds nothing: removed. A file or a device is never removed:
        // it may be the user's (a store named `logs` beside aerun.db was deleted, issue 40).
        struct stat st {};
        if (::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            !S_ISLNK(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode))
          fail(name +
               " is a file, not a folder (aerun makes its own folder there and never "
               "removes a file it did not write: move it, or use another --db)");
        if (::unlinkat(dir.get(), name.c_str(), 0) != 0 && errno != ENOENT)
          fail("cannot replace " + name + " (not a folder of aerun's): " + std::strerror(errno));
      } else {
        fail(std::strerror(errno));
      }
    }
    if (fd < 0) fail("a link keeps being put at " + name + " (not followed)");
    dir = UniqueFd(fd);
  }
  return dir;
}

void make_own_directory(const std::string& path, int own_levels) {
  open_own_directory(path, own_levels);
}

void write_created_file(const std::string& path, std::string_view text, const char* what,
                        int own_levels, mode_t exact_mode) {
  UniqueFd fd = create_own_file(path, own_levels, CreateMode::Truncate, 0644, what);
  if (exact_mode != 0 && ::fchmod(fd.get(), exact_mode) != 0)
    throw SystemError(std::string("cannot write ") + what + " " + path + ": " +
                      std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw SystemError(std::string("cannot write ") + what + " " + path + ": " +
                        std::strerror(n < 0 ? errno : ENOSPC));
    done += static_cast<size_t>(n);
  }
  if (::close(fd.release()) != 0)
    throw SystemError(std::string("cannot write ") + what + " " + path + ": " +
                      std::strerror(errno));
}

}  // namespace aerun
