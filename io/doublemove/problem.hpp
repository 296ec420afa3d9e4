#pragma once

#include "io/problem.hpp"

namespace gamebatch::io::doublemove {

// doublemove's entry in the registry. Its artefacts are the state tables of the process-wide
// store (gamebatch::doublemove::default_store()), named "states n=<n>".
const Problem& problem();

}  // namespace gamebatch::io::doublemove
