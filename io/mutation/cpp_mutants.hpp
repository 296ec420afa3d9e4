// io/mutation: the room of mutants of a C++ source. Its theory of operation.
//
// What it is for. `gamebatch strength` asks which wrong solutions a package's tests let through;
// the mutants of its accepted solutions are such solutions, each the accepted program with one
// small change at one place (an operator replaced, a constant moved by one, a condition negated,
// min and max swapped, an increment removed), as mutation testing makes them. This room finds the
// places with a real C++ parser (libclang: the solution's own syntax tree and the types of its
// expressions, never regular expressions) and writes two kinds of source from them:
// - the mutant schema (cpp_mutants.hpp, this file, the room's one public header): every mutation
//   point compiled in at once, each replaced by a choice made at run time, so that all the mutants
//   of a source cost one compile. The program reads GAMEBATCH_MUTANT once (kMutantVariable): 0 or
//   unset runs the original, k runs mutant k. Operands are evaluated once and in the original's
//   order of operations (a choice is a call whose arguments are the operands); && and || keep
//   their short circuit.
// - one mutant alone: the original text with one edit, for the diff a person reads and for the
//   tests that a schema's mutant k behaves as the mutant compiled on its own.
//
// Where nothing is mutated. Only code in function bodies that run at run time: not in constant
// expressions (constexpr and consteval functions and variables, const variables' initialisers,
// array bounds, template arguments, case labels, enumerators, static_assert, if constexpr), not in
// macro expansions, not in other files than the source, and only on operands whose types make
// every replacement valid (arithmetic types; % on integers). What is left out is counted.
//
// What it must never depend on: the other rooms of io/, pipeline/, tools/. It uses libclang and
// the standard library; libclang is loaded with dlopen when a source is first parsed
// (libclang_api.hpp, private to the room), so that no other command carries all of LLVM.
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gamebatch::io {

// The environment variable a mutant schema reads its mutant from.
inline constexpr const char* kMutantVariable = "GAMEBATCH_MUTANT";

enum class MutationOperator {
  relational,         // ROR: < <= > >= == != replaced by each other
  arithmetic,         // AOR: + - * / % replaced by each other
  assignment,         // ASR: += -= *= /= %= replaced by each other
  logical,            // LCR: && and || swapped
  constant,           // CRP: an integer constant c to 0, 1, -1, c + 1, c - 1
  negated_condition,  // NEG: the condition of if, while, for, do and ?: negated
  min_max,            // MMS: std::min and std::max swapped
  increment,          // INC: ++ and -- removed, or swapped for each other
};

inline constexpr MutationOperator kAllMutationOperators[] = {
    MutationOperator::relational, MutationOperator::arithmetic, MutationOperator::assignment,
    MutationOperator::logical,    MutationOperator::constant,   MutationOperator::negated_condition,
    MutationOperator::min_max,    MutationOperator::increment};

// "ROR", "AOR", "ASR", "LCR", "CRP", "NEG", "MMS", "INC".
std::string_view short_name(MutationOperator op);
// One line for reports: "relational operator replaced".
std::string_view description(MutationOperator op);

// One mutant: one edit of the source.
struct SourceMutant {
  int id = 0;  // 1-based; what GAMEBATCH_MUTANT selects
  MutationOperator op = MutationOperator::relational;
  std::size_t line = 0;    // 1-based, of the edit's start
  std::size_t column = 0;  // 1-based, in bytes
  std::size_t begin = 0;   // byte offsets of the text replaced
  std::size_t end = 0;
  std::string original;     // the text replaced: "<", "100005", "i++"
  std::string replacement;  // what replaces it in this mutant alone: "<=", "100006", "(void)0"
};

struct MutantSchema {
  // The schema's source: the prelude that reads GAMEBATCH_MUTANT, then the original source with
  // every mutation point replaced by its run-time choice (a #line directive keeps the original's
  // line numbers in the compiler's messages).
  std::string source;
  std::vector<SourceMutant> mutants;  // ordered by id, which follows the source
  // Mutation points not made, and why: "12 constants in constant expressions", ...
  std::vector<std::string> left_out;
};

// The source could not be parsed as C++: what() says why (libclang's first error).
class MutationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MutationOptions {
  // Arguments for the parser besides the file and the standard, as the compiler would get them.
  std::vector<std::string> parser_arguments{"-x", "c++"};
  // The language standards tried in turn: the first the source parses in without an error is
  // taken (C++17's standard headers parse in about half the time of C++20's, and the mutation
  // points of a source are the same in both; the schema is compiled as its source is).
  std::vector<std::string> standards{"-std=gnu++17", "-std=gnu++20"};
  // Lines (1-based) whose mutation points are left out: where a schema did not compile.
  std::vector<std::size_t> lines_left_out;
};

// The mutants of the C++ source `text`, read as the file `path` (its directory is where its own
// includes are found). Deterministic: the same text gives the same mutants, numbered in source
// order. Throws MutationError when libclang cannot parse it.
MutantSchema make_mutant_schema(const std::filesystem::path& path, std::string_view text,
                                const MutationOptions& options = {});

// The source of mutant `mutant` alone: `text` with its one edit.
std::string single_mutant_source(std::string_view text, const SourceMutant& mutant);

// The lines a compiler's messages about `file_name` put errors on ("NAME:LINE:COLUMN: error:"),
// for leaving their mutation points out of a schema that did not compile.
std::vector<std::size_t> error_lines(std::string_view compiler_output, std::string_view file_name);

}  // namespace gamebatch::io
