// libFuzzer target: any bytes as task.yaml of a CMS package (io::recognise_package)
// are read or refused with io::UsageError, never another exception or a crash; what reads is
// sound (tests/fuzz/package_reader_support.hpp says what that means).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/package_reader_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = gamebatch::fuzz;
  try {
    fuzz::check_package_reader(fuzz::PackageFile::task_yaml, fuzz::as_text(data, size),
                               fuzz::ScratchDirectory::path());
  } catch (const fuzz::PropertyViolation& violation) {
    fuzz::fail(std::string("task_yaml: ") + violation.what());
  }
  return 0;
}
