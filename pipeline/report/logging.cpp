#include "pipeline/report/logging.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "pipeline/report/terminal_text.hpp"

namespace gamebatch::pipeline {
namespace {

// Log lines carry other people's text (a compiler's messages, a solution's name, an input's
// path): the message is made terminal-safe before the stderr sink formats it.
class TerminalSafeSink final : public spdlog::sinks::sink {
 public:
  explicit TerminalSafeSink(std::shared_ptr<spdlog::sinks::sink> inner)
      : inner_(std::move(inner)) {}

  void log(const spdlog::details::log_msg& message) override {
    const std::string_view payload(message.payload.data(), message.payload.size());
    if (is_terminal_safe(payload)) {
      inner_->log(message);
      return;
    }
    const std::string safe = terminal_safe(payload);
    spdlog::details::log_msg copy = message;
    copy.payload = spdlog::string_view_t(safe.data(), safe.size());
    inner_->log(copy);
  }
  void flush() override { inner_->flush(); }
  void set_pattern(const std::string& pattern) override { inner_->set_pattern(pattern); }
  void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override {
    inner_->set_formatter(std::move(formatter));
  }

 private:
  std::shared_ptr<spdlog::sinks::sink> inner_;
};

}  // namespace

void set_up_logging() {
  auto logger = std::make_shared<spdlog::logger>(
      "gamebatch",
      std::make_shared<TerminalSafeSink>(std::make_shared<spdlog::sinks::stderr_sink_mt>()));
  logger->set_pattern(kLogPattern);
  spdlog::set_default_logger(logger);
}

}  // namespace gamebatch::pipeline
