// `gamebatch stress -p GAME --solution S`: random cases until the solution fails, then the failing
// case shrunk (the engine: pipeline/stress_job.hpp).
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "io/files/generate.hpp"
#include "pipeline/judge/judge.hpp"
#include "pipeline/judge/stress_job.hpp"
#include "pipeline/package/game_options.hpp"
#include "pipeline/programs/run_setup.hpp"
#include "pipeline/report/terminal_text.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"

namespace gamebatch::cli {
namespace {

constexpr int kExitCounterexample = 1;

// The search's settings as the options set them; the judge's marks which options were given,
// and the game options are checked against the game once parsing ends.
struct StressArguments {
  pipeline::StressJobSettings settings;
  JudgeOptions judge;
  pipeline::GameOptionArguments game_options;
};

// What `stress --help` says after the options.
constexpr const char* kStressHelp =
    "Case k is what `gamebatch gen GAME --seed S --cases-per-file 1` writes as file k, with\n"
    "the same game options; each is solved exactly and given alone to the solution (stdin),\n"
    "--jobs at a time, until one fails (any verdict but AC; the first in case order, so the\n"
    "result is the same for every --jobs). The failing case is then shrunk: the game\n"
    "proposes smaller variants (willow: fewer cities, lower coins; wallgame: fewer rows and\n"
    "columns, lower digits; doublemove: smaller n, fewer declarations, smaller values;\n"
    "boigame: smaller boards, fewer black squares), and the first that still fails with the\n"
    "same verdict replaces it, until none does. Variants leave the statement's limits only\n"
    "if the failing case did. The result goes to DIR/counterexample.in with its exact answer\n"
    "in DIR/counterexample.ans, and is printed with the solution's output.\n"
    "Example: gamebatch stress -p willow --solution ./wrong --cities 20..40 --count 500\n"
    "Ctrl-C (or SIGTERM) ends the runs in progress: it reports the cases judged in order, or\n"
    "the smallest failing case found when it was shrinking.\n"
    "Exit status: 1 a counterexample was found (or the source does not compile), 0 none in\n"
    "N cases, 2 usage error, 130 (143) interrupted by SIGINT (SIGTERM).";

CLI::App* add_stress_command(CLI::App& app, StressArguments& arguments) {
  CLI::App* stress = app.add_subcommand(
      "stress", "Run a solution on random cases until it fails, then shrink the failing case");
  stress->footer(kStressHelp);
  add_problem_option(*stress, arguments.settings.problem, "The game:");
  stress
      ->add_option("--solution,-s", arguments.settings.solution,
                   "The solution: a source file or directory (compiled once, as check does), or\n"
                   "a shell command")
      ->required()
      ->type_name("SOURCE|CMD");
  stress->add_option("--count", arguments.settings.count, "Cases to try at most")
      ->type_name("N")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, io::kMaxGeneratedFiles));
  stress->add_option("--seed", arguments.settings.seed, "Seed of the random cases (0 to 2^64 - 1)")
      ->type_name("S")
      ->capture_default_str()
      ->check(CLI::Validator(pipeline::seed_problem, "S"));
  stress
      ->add_option("--out,-o", arguments.settings.out_dir,
                   "Directory for counterexample.in and counterexample.ans (created if missing)")
      ->type_name("DIR")
      ->capture_default_str();
  add_html_option(*stress, arguments.settings.html_file,
                  "Write a self-contained HTML page to FILE: the seed, the cases tried, the\n"
                  "counterexample before and after shrinking with the solution's output, and\n"
                  "the shrunk one drawn with its optimal play");
  add_judge_options(*stress, arguments.judge);
  CLI::Option* package =
      stress
          ->add_option("--package", arguments.settings.package,
                       "A problem package whose plan (gamebatch.toml) holds --group")
          ->type_name("PACKAGE")
          ->check(CLI::ExistingDirectory);
  stress
      ->add_option("--group", arguments.settings.group,
                   "Draw the cases within this group's limits (and the groups including it),\n"
                   "and shrink within them: where a partial solution fails its subtask")
      ->type_name("NAME")
      ->needs(package);
  package->needs("--group");
  pipeline::add_game_options(*stress, arguments.game_options);
  stress->callback([&arguments] {
    io::GenerateOptions options;  // case k is file k of this set, one case each
    options.seed = arguments.settings.seed;
    options.file_count = arguments.settings.count;
    options.out_dir = arguments.settings.out_dir;
    arguments.settings.game =
        pipeline::checked_generate_options(arguments.settings.problem, arguments.game_options,
                                           std::move(options))
            .game;
  });
  return stress;
}

// The game options given on the command line, by name without dashes, for the page.
nlohmann::json given_game_options(const pipeline::GameOptionArguments& arguments) {
  nlohmann::json given = nlohmann::json::object();
  for (const pipeline::GameOption& option : arguments.registered) {
    if (option.option != nullptr && option.option->count() > 0)
      given[option.name.substr(option.name.find_first_not_of('-'))] =
          option.option->as<std::string>();
  }
  return given;
}

std::string with_final_newline(std::string text) {
  if (!text.empty() && text.back() != '\n')
    text += '\n';
  return text;
}

// No case failed: how many passed.
int print_passed(const pipeline::StressResult& result, std::uint64_t seed, bool page_written,
                 const pipeline::CommandClock& clock) {
  std::printf(result.interrupted ? "stress: interrupted after %lld cases, all passed (seed %llu)\n"
                                 : "stress: the solution passed all %lld cases (seed %llu)\n",
              static_cast<long long>(result.cases_run), static_cast<unsigned long long>(seed));
  std::fprintf(stderr, "stress: %s%s\n", pipeline::time_text(clock.elapsed()).c_str(),
               result.interrupted ? " (interrupted)" : "");
  if (!page_written)
    return kExitUsage;
  return std::fflush(stdout) == 0 ? kExitSolved : kExitRejected;
}

// The failing case, how it was shrunk, and the shrunk case with its answers and the solution's
// output; its files are written first.
int print_counterexample(const pipeline::StressJob& stress, const pipeline::StressResult& result,
                         std::uint64_t seed, bool page_written,
                         const pipeline::CommandClock& clock) {
  const bool written = stress.write_counterexample();
  const pipeline::FailingCase& shrunk = *result.shrunk;
  std::printf("stress: case %lld of seed %llu fails: %s\n",
              static_cast<long long>(*result.failing_case_number),
              static_cast<unsigned long long>(seed),
              pipeline::terminal_safe(pipeline::describe(result.first_failure->verdict)).c_str());
  std::printf("%s in %zu steps (%zu smaller cases run) to a case that fails: %s\n",
              result.interrupted ? "shrinking interrupted: shrunk" : "shrunk", result.shrink_steps,
              result.shrink_candidates_run,
              pipeline::terminal_safe(pipeline::describe(shrunk.verdict)).c_str());
  std::printf("== input%s\n%s", written ? (" (" + stress.input_path().string() + ")").c_str() : "",
              pipeline::terminal_safe(with_final_newline(shrunk.input)).c_str());
  std::printf("== expected%s\n%s",
              written ? (" (" + stress.answer_path().string() + ")").c_str() : "",
              pipeline::terminal_safe(stress.counterexample_answers()).c_str());
  std::printf("== the solution's output\n%s",
              pipeline::terminal_safe(with_final_newline(shrunk.output)).c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "stress: %lld cases run, %s%s\n", static_cast<long long>(result.cases_run),
               pipeline::time_text(clock.elapsed()).c_str(),
               result.interrupted ? " (interrupted)" : "");
  return page_written ? kExitCounterexample : kExitUsage;
}

int run_stress(const StressArguments& arguments) {
  const pipeline::CommandClock clock;  // the summary line's time: compiling included
  pipeline::StressJobSettings settings = arguments.settings;
  settings.judge = arguments.judge.parsed();
  settings.game_options = given_game_options(arguments.game_options);
  pipeline::StressJob stress(std::move(settings));
  if (const pipeline::Outcome prepared = stress.prepare(); prepared != pipeline::Outcome::done) {
    if (const std::optional<std::string>& error = stress.compile_error()) {
      std::printf("stress: %s does not compile (CE):\n%s",
                  pipeline::terminal_safe(arguments.settings.solution).c_str(),
                  pipeline::terminal_safe(with_final_newline(*error)).c_str());
      std::fflush(stdout);
      return kExitCounterexample;
    }
    return exit_status(prepared);
  }
  const pipeline::StressResult& result = stress.run();
  // Exit status 1 says a counterexample was found, so a page that cannot be written is a 2.
  const bool page_written = arguments.settings.html_file.empty() || stress.write_page();
  if (!result.shrunk)
    return print_passed(result, arguments.settings.seed, page_written, clock);
  return print_counterexample(stress, result, arguments.settings.seed, page_written, clock);
}

}  // namespace

std::unique_ptr<Command> make_stress_command() {
  return std::make_unique<CommandOf<StressArguments, add_stress_command, run_stress>>();
}

}  // namespace gamebatch::cli
