#include "tools/cli.hpp"

int main(int argc, char** argv) {
  return gamebatch::cli::run_cli(argc, argv);
}
