#include "store/store_filesystem.hpp"

#include <fcntl.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "aerun/util/unique_fd.hpp"

namespace aerun {

namespace {

// The file systems a cluster shares between hosts, by their statfs magic numbers (linux/magic.h
// and each file system's own headers).
struct NetworkFs {
  unsigned long magic;
  const char* name;
};
constexpr NetworkFs kNetwork[] = {
    {0x6969, "nfs"},         // NFS_SUPER_MAGIC
    {0x0bd00bd0, "lustre"},  // LL_SUPER_MAGIC (lustre/include/lustre_user.h)
    {0x47504653, "gpfs"},    // GPFS_SUPER_MAGIC ("GPFS")
    {0x00c36400, "cephfs"},  // CEPH_SUPER_MAGIC
    {0xff534d42, "cifs"},    // CIFS_SUPER_MAGIC
    {0xfe534d42, "smb2"},    // SMB2_SUPER_MAGIC
    {0x517b, "smb"},         // SMB_SUPER_MAGIC
    {0x19830326, "beegfs"},  // BEEGFS_MAGIC (fhgfs)
    {0x01021997, "9p"},      // V9FS_MAGIC
    {0x65735546, "fuse"},    // FUSE_SUPER_MAGIC (sshfs, gcsfuse, s3fs, ...)
    {0x013111a8, "ibrix"},   // IBRIX_SUPER_MAGIC
    {0x5346414f, "afs"},     // AFS_FS_MAGIC
    {0xaad7aaea, "panfs"},   // PANFS_SUPER_MAGIC
    {0x61756673, "aufs"},    // AUFS_SUPER_MAGIC: layered over anything
    {0x7461636f, "ocfs2"},   // OCFS2_SUPER_MAGIC: a cluster file system
    {0x01161970, "gfs2"},    // GFS2_MAGIC
    {0x564c, "ncp"},         // NCP_SUPER_MAGIC
};

// AERUN_TEST_FILESYSTEM's name, and whether it says ",nolock".
std::string test_filesystem(bool* nolock) {
  const char* e = std::getenv("AERUN_TEST_FILESYSTEM");
  std::string v = e ? e : "";
  const auto comma = v.find(',');
  if (nolock) *nolock = comma != std::string::npos && v.substr(comma + 1) == "nolock";
  return v.substr(0, comma);
}

}  // namespace

StoreFilesystem store_filesystem(const std::string& db_path) {
  if (db_path.empty() || db_path == ":memory:") return {};
  if (const std::string t = test_filesystem(nullptr); !t.empty()) {
    if (t == "local") return {};
    return {t, true};
  }
  auto dir = std::filesystem::absolute(db_path).parent_path();
  struct statfs s {};
  if (::statfs(dir.c_str(), &s) != 0) return {};
  const auto magic = static_cast<unsigned long>(s.f_type) & 0xffffffffUL;
  for (const NetworkFs& n : kNetwork)
    if (n.magic == magic) return {n.name, true};
  return {};
}

bool posix_locks_work(const std::string& path) {
  bool nolock = false;
  if (!test_filesystem(&nolock).empty() && nolock) return false;
  // A file of its own beside the store: closing a descriptor drops all of a process's POSIX locks
  // on that file, so the store itself (which SQLite may hold locked) is never the one tried.
  const std::string probe = path + ".lockcheck-" + std::to_string(::getpid());
  const UniqueFd fd(::open(probe.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (fd.get() < 0) return true;  // the folder cannot be written: SQLite will say why
  ::unlink(probe.c_str());        // the open descriptor is enough to lock
  struct flock l {};
  l.l_type = F_WRLCK;
  l.l_whence = SEEK_SET;
  l.l_start = 0x7fff0000;
  l.l_len = 1;
  if (::fcntl(fd.get(), F_SETLK, &l) != 0)
    return errno != ENOLCK && errno != ENOSYS && errno != EOPNOTSUPP && errno != EINVAL;
  l.l_type = F_UNLCK;
  ::fcntl(fd.get(), F_SETLK, &l);
  return true;
}

}  // namespace aerun
