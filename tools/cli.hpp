// The gamebatch command line: main() only calls run_cli.
#pragma once

namespace gamebatch::cli {

// Registers every command (tools/support/command.hpp), parses the command line, and runs the
// command it names. Returns the exit status.
int run_cli(int argc, char** argv);

}  // namespace gamebatch::cli
