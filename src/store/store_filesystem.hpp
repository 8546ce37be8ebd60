// Which file system a store lies on, and whether SQLite's WAL mode may be used there.
#pragma once

#include <string>

namespace aerun {

// The file system of a store's folder, by statfs(2)'s f_type.
struct StoreFilesystem {
  std::string name;      // "nfs", "lustre", "gpfs", ... or "" for a local one
  bool network = false;  // shared between hosts: WAL cannot work there (sqlite.org/wal.html)
};

// The file system of the folder that holds `db_path`. AERUN_TEST_FILESYSTEM=NAME (a name of the
// table in store_filesystem.cpp, or "local") stands in for statfs: a test hook, documented in
// docs/store.md, since no network file system can be mounted in a test here.
StoreFilesystem store_filesystem(const std::string& db_path);

// Whether POSIX advisory locks (fcntl F_SETLK, what SQLite's rollback journal relies on) work in
// the folder of the store at `path` (tried on a file of its own there): an NFS mount without
// lockd answers ENOLCK. AERUN_TEST_FILESYSTEM=NAME,nolock
// stands in for a file system without them.
bool posix_locks_work(const std::string& path);

}  // namespace aerun
