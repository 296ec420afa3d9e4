#pragma once

#include "io/problem.hpp"

namespace gamebatch::io::wallgame {

// wallgame's entry in the registry.
const Problem& problem();

}  // namespace gamebatch::io::wallgame
