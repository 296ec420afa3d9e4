// The engine of `gamebatch explain`: a file's cases read as solve reads them, and the optimal play
// of one case (or of each) as its game tells it (io::Problem::explain, core/GAME/play.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "pipeline/engines.hpp"

namespace gamebatch::pipeline {

struct ExplainSettings {
  std::string problem;                     // the game's name
  std::string path;                        // one input file
  std::optional<std::size_t> case_number;  // 1-based; unset: every case in turn
  int jobs = 0;                            // threads at most; 0: all cores
  std::string svg_file;  // explain --svg / draw -o: the case's picture (one case only); empty: none
};

// Draws the case (settings.case_number, default 1) into settings.svg_file, written whole or not
// at all. Usage error (nothing written) as explain_cases, and for a file that cannot be written;
// failed when the case cannot be drawn.
Outcome draw_case(const ExplainSettings& settings);

// Explains the case(s) and, with svg_file, draws the one case as draw_case does, from the same
// solve as its text (checked before anything is explained); `on_case` hears each
// explained case's text ("Case #K:" on its own line, then its lines) in case order. The text is the
// same for every `jobs`. Returns usage_error when nothing was explained (an unreadable file, a file
// that is no input of the game, a case number out of range), failed when some case could not be
// (too large to reconstruct); what went wrong is logged as an error.
Outcome explain_cases(const ExplainSettings& settings,
                      const std::function<void(const std::string& text)>& on_case);

}  // namespace gamebatch::pipeline
