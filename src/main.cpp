// aerun: expand, launch, collect and tabulate the experiments of a paper.
#include "cli/app.hpp"

int main(int argc, char** argv) {
  return aerun::cli::main(argc, argv);
}
