#pragma once

#include "io/problem.hpp"

namespace gamebatch::io::willow {

// willow's entry in the registry.
const Problem& problem();

}  // namespace gamebatch::io::willow
