#pragma once

#include "io/problem.hpp"

namespace gamebatch::io::boigame {

// boigame's entry in the registry.
const Problem& problem();

}  // namespace gamebatch::io::boigame
