#include "tools/support/solve_lines.hpp"

#include <cstdio>

namespace gamebatch::cli {

void print_summary_line(const std::string& prefix, const pipeline::RunSummary& summary) {
  std::fprintf(stderr, "%s%s\n", prefix.c_str(), pipeline::summary_line(summary).c_str());
}

void print_job_done(const pipeline::JobDone& done) {
  print_summary_line(std::string(done.progress_shown ? "\r\033[K" : "") + "job " +
                         std::to_string(done.number) + " (" + done.job->problem + "): ",
                     done.summary);
}

}  // namespace gamebatch::cli
