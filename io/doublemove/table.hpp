// `gamebatch table doublemove`: the k = 0 answers for n = 1..max_n as text a problem setter pastes
// into a reference solution (the k = 0 subtask is answered from such a table).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/doublemove/doublemove.hpp"

namespace gamebatch::io::doublemove {

enum class TableFormat { cpp, json, csv };

// "cpp", "json" or "csv"; nullopt for anything else.
std::optional<TableFormat> parse_table_format(std::string_view name);

// The k = 0 answers for n = 1..max_n (1 <= max_n <= kMaxN, else std::invalid_argument), element
// n - 1 for n. Builds each table once, in parallel, and drops it before the next (tables already
// in the process-wide store are reused), so memory stays that of the largest.
std::vector<gamebatch::doublemove::Value> k0_answers(int max_n);

// The answers as text:
//  cpp:  a C++17 header on its own (include guard, <cstdint>): `kDoublemoveK0Answers`, a
//        constexpr array indexed by n (entry 0 unused) of std::uint64_t up to max_n = 63, beyond
//        that of {high, low} 64-bit halves; a comment says what it is and which gamebatch made it.
//  json: {"game", "what", "generator", "answers": [{"n": 1, "answer": 4}, ...]}, exact integers.
//  csv:  a header line "n,answer", then one line per n.
// `gamebatch_version` is the version string of the generating program, e.g. "0.1.0".
std::string k0_table(int max_n, TableFormat format, std::string_view gamebatch_version);
// The same from answers already computed (answers[n - 1] for n).
std::string format_k0_table(const std::vector<gamebatch::doublemove::Value>& answers,
                            TableFormat format, std::string_view gamebatch_version);

}  // namespace gamebatch::io::doublemove
