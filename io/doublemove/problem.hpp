#pragma once

#include <memory>

#include "core/doublemove/state_table.hpp"
#include "io/problem.hpp"

namespace gamebatch::io::doublemove {

// doublemove's entry in the registry. Its artefacts are the state tables of the process-wide
// store (gamebatch::doublemove::default_store()), named "states n=<n>".
const Problem& problem();

// The table an artefact from the cache holds, when it is sound: named exactly "states n=<n>" for
// a supported n, of this build's table version, not larger than the cache keeps, and decoding
// (checksum and the table's own checks) to a table of that n. nullptr otherwise.
std::shared_ptr<const gamebatch::doublemove::StateTable> decode_table_artefact(
    const Artefact& artefact);

}  // namespace gamebatch::io::doublemove
