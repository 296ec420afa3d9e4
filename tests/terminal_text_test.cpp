// pipeline/report/terminal_text: what a terminal could act on is escaped, readable text is kept.
#include "pipeline/report/terminal_text.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace gamebatch::pipeline {
namespace {

TEST(TerminalText, KeepsPrintableTextNewlinesTabsAndUtf8) {
  for (const std::string text :
       {"Case #1: 42\n", "a\tb\n", "caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80", ""}) {
    EXPECT_TRUE(is_terminal_safe(text)) << text;
    EXPECT_EQ(terminal_safe(text), text);
  }
}

TEST(TerminalText, EscapesControlsAndBrokenUtf8) {
  EXPECT_EQ(terminal_safe("\x1b]0;title\a\x1b[2J"), R"(\x1b]0;title\x07\x1b[2J)");
  EXPECT_EQ(terminal_safe(std::string("a\0b", 3)), R"(a\x00b)");
  EXPECT_EQ(terminal_safe("line\r\n"), "line\\x0d\n");  // \r would overwrite the line
  EXPECT_EQ(terminal_safe("\x7f"), R"(\x7f)");
  EXPECT_EQ(terminal_safe("\xc2\x9b"
                          "31m"),
            R"(\xc2\x9b31m)");                                  // C1 CSI, as UTF-8
  EXPECT_EQ(terminal_safe("\xff\xfe"), R"(\xff\xfe)");          // not UTF-8
  EXPECT_EQ(terminal_safe("\xe6\xbc"), R"(\xe6\xbc)");          // cut short
  EXPECT_EQ(terminal_safe("\xc0\xaf"), R"(\xc0\xaf)");          // overlong '/'
  EXPECT_EQ(terminal_safe("\xed\xa0\x80"), R"(\xed\xa0\x80)");  // a surrogate
  EXPECT_FALSE(is_terminal_safe("\x1b"));
}

// What write_terminal_safe puts in a file, read back.
std::string written(std::string_view text) {
  std::FILE* file = std::tmpfile();
  if (file == nullptr)
    return "tmpfile failed";
  write_terminal_safe(file, text);
  std::rewind(file);
  std::string back;
  for (int c; (c = std::fgetc(file)) != EOF;)
    back.push_back(static_cast<char>(c));
  std::fclose(file);
  return back;
}

TEST(TerminalText, WritesSafeTextAsItIsAndEscapesTheRest) {
  EXPECT_EQ(written("Case #1:\nanswer: 6\n"), "Case #1:\nanswer: 6\n");
  EXPECT_EQ(written("caf\xc3\xa9\t\xe6\xbc\xa2\n"), "caf\xc3\xa9\t\xe6\xbc\xa2\n");
  EXPECT_EQ(written("a\x1b[2Jb\r\n"), R"(a\x1b[2Jb\x0d)"
                                      "\n");
  EXPECT_EQ(written(std::string("a\0b", 3)), R"(a\x00b)");
  EXPECT_EQ(written(""), "");
}

}  // namespace
}  // namespace gamebatch::pipeline
