// Accepted (multi-file C++): interface of the Willow solver in solve.cpp.
#pragma once

#include <vector>

// coins[i]: coins of city i; links[i] (i < N-1): the city joined to city i,
// both 0-based. Returns max over A's start of min over B's start of the game
// value for A.
long long willow_answer(const std::vector<int>& coins, const std::vector<int>& links);
