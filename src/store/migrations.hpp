// The store's schema as an ordered list of migrations: version N is the N-th entry.
#pragma once

#include <string_view>
#include <vector>

namespace aerun {

namespace sqlite {
class Database;
}

// One schema change. Later work appends migrations; never edit an applied one.
struct Migration {
  int version;
  std::string_view description;
  std::string_view sql;
  // What SQL alone cannot do, run after it in the same transaction (nullptr: nothing).
  void (*code)(sqlite::Database&) = nullptr;
};

const std::vector<Migration>& store_migrations();

}  // namespace aerun
