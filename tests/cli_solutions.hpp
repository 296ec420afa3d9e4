// The programs the end-to-end tests run as users' solutions (tests/solutions/), by path.
#pragma once

#include <string>

namespace gamebatch::testing {

inline const std::string kReference = GAMEBATCH_REFERENCE_SOLUTION;  // gamebatch's own solvers
inline const std::string kWrong = GAMEBATCH_WRONG_SOLUTION;          // a wrong answer per game
inline const std::string kFaulty = GAMEBATCH_FAULTY_SOLUTION;        // misbehaves on request

}  // namespace gamebatch::testing
