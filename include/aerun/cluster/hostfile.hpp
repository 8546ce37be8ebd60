// Hostfiles as schedulers and MPI libraries write them: PBS nodefiles (one line per rank slot, so
// hosts repeat), plain lists, Open MPI (`host slots=N`) and MPICH (`host:N`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace aerun {

// How a hostfile spells its hosts; decides which launchers can read it as it is.
enum class HostfileFormat {
  Plain,    // one host per line, repeated once per slot (PBS nodefiles) or listed once
  OpenMpi,  // `host slots=N [max_slots=M]` (also DeepSpeed's format)
  Mpich,    // `host:N`
};

// One distinct host and how many slots the file gives it.
struct HostEntry {
  std::string name;  // as first written (an FQDN stays an FQDN)
  int slots = 1;     // lines naming it (plain), or the sum of its slots=/:N counts
};

// A hostfile read into unique hosts, in order of first appearance.
struct Hostfile {
  std::string path;  // where it was read from ("" for text)
  HostfileFormat format = HostfileFormat::Plain;
  std::vector<HostEntry> hosts;

  std::vector<std::string> names() const;
};

// Reads hostfile text. `#` starts a comment; blank lines are skipped; surrounding whitespace is
// ignored. A short name and an FQDN whose first label is that name are the same host
// (`x3005c0s13b0n0` and `x3005c0s13b0n0.hsn.cm.polaris.alcf.anl.gov`); the first spelling is
// kept. Mixing `slots=` and `:N` lines is an error. Throws InputError "file:line:col: hostfile:
// message" for a bad line.
Hostfile parse_hostfile(std::string_view text, const std::string& file = "hostfile");

// Reads the file at `path` (InputError when it cannot be read or holds no host).
Hostfile read_hostfile(const std::string& path);

// "plain" | "openmpi" | "mpich".
std::string to_string(HostfileFormat f);

}  // namespace aerun
