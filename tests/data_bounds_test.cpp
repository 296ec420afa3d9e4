// pipeline/data_bounds: which ends of a limit the warnings name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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
            std::vector<std::string>{"group small: N reaches 3..80 of 2..80"});
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

}  // namespace
}  // namespace gamebatch::pipeline
