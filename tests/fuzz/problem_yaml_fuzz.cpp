// libFuzzer target: any bytes as problem.yaml of a Kattis package (io::recognise_package,
// io::parse_kattis_metadata) are read or refused with io::UsageError, never another exception or a
// crash; what reads is sound (tests/fuzz/package_reader_support.hpp says what that means).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/package_reader_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = gamebatch::fuzz;
  try {
    fuzz::check_package_reader(fuzz::PackageFile::problem_yaml, fuzz::as_text(data, size),
                               fuzz::ScratchDirectory::path());
  } catch (const fuzz::PropertyViolation& violation) {
    fuzz::fail(std::string("problem_yaml: ") + violation.what());
  }
  return 0;
}
