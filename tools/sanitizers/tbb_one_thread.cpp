// Compiled into every program of a ThreadSanitizer build (GAMEBATCH_SANITIZE=thread, see the
// top-level CMakeLists.txt): oneTBB runs its tasks on one thread, whatever --jobs says.
//
// Debian's libtbb is not instrumented, so ThreadSanitizer cannot see how it hands a task (and the
// message inside it) to another thread, recycles a task's memory, or tells a waiting thread that
// the tasks have ended: with TBB's worker threads it reports each of those as a data race, in
// every flow graph and parallel_for (hundreds per test). With one thread none of that happens,
// and what ThreadSanitizer checks is how our own threads (cache checkpoints, the progress line,
// the judge's runs, the MPI thread, test threads) meet the work done in TBB tasks. Races between
// two TBB tasks are out of its reach either way (that needs an instrumented oneTBB).
#include <oneapi/tbb/global_control.h>

namespace {

// The smallest max_allowed_parallelism alive wins over the ones a program sets for --jobs.
const tbb::global_control one_tbb_thread(tbb::global_control::max_allowed_parallelism, 1);

}  // namespace
