// The end shared by the make_*_case programs: the generated input goes to --output or stdout.
#pragma once

#include <fstream>
#include <iostream>
#include <string>

namespace gamebatch::bench {

// Writes text to out_path, or to stdout when out_path is empty. A failure is reported on stderr as
// "PROGRAM: cannot write ..."; the result is the program's exit status (0 written, 1 not).
inline int write_case_file(const std::string& program, const std::string& out_path,
                           const std::string& text) {
  if (out_path.empty()) {
    std::cout << text;
    std::cout.flush();
    if (!std::cout) {
      std::cerr << program << ": cannot write to stdout\n";
      return 1;
    }
    return 0;
  }
  std::ofstream out(out_path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::cerr << program << ": cannot write '" << out_path << "'\n";
    return 1;
  }
  return 0;
}

}  // namespace gamebatch::bench
