// The command floor's support unit, part 3: the lines solve and run print at a run's end.
#pragma once

#include <string>

#include "pipeline/solve/solve_jobs.hpp"

namespace gamebatch::cli {

// One line on stderr: "PREFIXfiles: F cases: C solved: S cached: H rejected: R time: T s".
void print_summary_line(const std::string& prefix, const pipeline::RunSummary& summary);

// "job N (GAME): files: ..." for each job of a run of several, erasing the progress line first.
void print_job_done(const pipeline::JobDone& done);

// Both, as a run of jobs tells them: each job's line, then the total's.
inline const pipeline::SolveJobsListener solve_lines{
    print_job_done, [](const pipeline::RunSummary& total) { print_summary_line("", total); }};

}  // namespace gamebatch::cli
