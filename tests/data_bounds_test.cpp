// pipeline/data_bounds: which ends of a limit the warnings name.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/files/generate.hpp"
#include "pipeline/package/data_bounds.hpp"

namespace gamebatch::pipeline {
namespace {

ParameterBounds bounds(std::string parameter, std::int64_t low, std::int64_t high,
                       std::int64_t limit_low, std::int64_t limit_high) {
  ParameterBounds result;
  result.parameter = std::move(parameter);
  result.low = low;
  result.high = high;
  result.limit_low = limit_low;
  result.limit_high = limit_high;
  result.limit_owner = "the statement";
  return result;
}

TEST(DataBounds, WarnsOfEachLimitEndNoTestReaches) {
  GroupBounds group;
  group.group = "small";
  group.tests = 4;
  group.parameters = {bounds("N", 3, 80, 2, 80), bounds("C", 0, 10'000, 0, 10'000)};
  EXPECT_EQ(bounds_warnings({group}),
            std::vector<std::string>{"group small: N reaches 3..80 of 2..80; no test has N = 2"});
}

TEST(DataBounds, ACaseCountWithNoStatementLimitIsNoLimitToReach) {
  // doublemove's and wallgame's T: the statement names no limit, gamebatch reads up to 10^9.
  GroupBounds group;
  group.group = "full";
  group.tests = 3;
  group.parameters = {bounds("T", 3, 8, 1, 1'000'000'000), bounds("n", 1, 35, 1, 35)};
  EXPECT_TRUE(bounds_warnings({group}).empty());
  // The sample's examples are small on purpose.
  group.group = "sample";
  group.parameters = {bounds("n", 1, 4, 1, 35)};
  EXPECT_TRUE(bounds_warnings({group}).empty());
}

TEST(DataBounds, AnEndTheOtherLimitsTieOutOfReachIsNoEndToReach) {
  // doublemove's k <= n + 1: where n <= 4, k = 5 is the top of the statement's 0..36 a test can
  // reach. Tests reaching it draw no warning; tests stopping at 3 are told the end they can reach.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gb-bounds-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto group_of = [&](std::int64_t top_k) {
    io::DoublemoveGenOptions options;
    options.n = {1, 4};
    options.declarations = io::IntRange{0, top_k};
    const std::filesystem::path file = dir / ("k" + std::to_string(top_k) + ".in");
    std::ofstream(file) << io::generate_file_text(options, 1, 1, 200);
    return GroupTests{"tiny", {file}, {{"n", 1, 4, "group tiny"}}};
  };
  const std::vector<GroupBounds> reaching = data_bounds("doublemove", {group_of(5)});
  ASSERT_EQ(reaching.size(), 1u);
  EXPECT_TRUE(bounds_warnings(reaching).empty()) << bounds_warnings(reaching).front();
  const std::vector<std::string> short_of_it =
      bounds_warnings(data_bounds("doublemove", {group_of(3)}));
  EXPECT_EQ(short_of_it,
            std::vector<std::string>{
                "group tiny: k reaches 0..3 of 0..36 (at most 5 within the other limits); no "
                "test has k = 5"});
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gamebatch::pipeline
