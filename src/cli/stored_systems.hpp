// What a store opened by this process learns of systems (issue 41): the profiles that name the
// hosts of rows stored before systems were (the schema v15 migration).
#pragma once

#include <string>

namespace aerun::cli {

// Store::set_system_of_host over the profiles of these folders (system_folders(option)), read
// when a store first needs them; a profile that does not load stops the migration with its error.
void name_stored_hosts_by(const std::string& systems_option);

}  // namespace aerun::cli
