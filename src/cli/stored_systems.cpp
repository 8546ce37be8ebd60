#include "cli/stored_systems.hpp"

#include <memory>
#include <optional>

#include "aerun/case/system_catalog.hpp"
#include "aerun/store/store.hpp"

namespace aerun::cli {

void name_stored_hosts_by(const std::string& systems_option) {
  auto catalog = std::make_shared<std::optional<SystemCatalog>>();
  Store::set_system_of_host([systems_option, catalog](const std::string& host) {
    if (!*catalog) *catalog = load_system_catalog(system_folders(systems_option));
    return system_named_by_host(**catalog, host);
  });
}

}  // namespace aerun::cli
