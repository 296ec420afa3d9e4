#include "io/files/shard.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace gamebatch::io {
namespace {

TEST(ShardTest, ParsesIndexOfCount) {
  EXPECT_EQ(parse_shard("1/1"), (Shard{1, 1}));
  EXPECT_EQ(parse_shard("3/7"), (Shard{3, 7}));
  for (const char* bad : {"", "0/3", "4/3", "3", "/3", "1/", "a/b", "1/3x", "-1/3", "1 /3", "1/0"})
    EXPECT_FALSE(parse_shard(bad)) << bad;
}

TEST(ShardTest, SlurmArrayTaskMapsToOneBasedShard) {
  EXPECT_FALSE(shard_from_slurm({}));
  EXPECT_FALSE(shard_from_slurm({{"SLURM_ARRAY_TASK_ID", "3"}}));
  EXPECT_EQ(shard_from_slurm({{"SLURM_ARRAY_TASK_ID", "0"},
                              {"SLURM_ARRAY_TASK_MIN", "0"},
                              {"SLURM_ARRAY_TASK_COUNT", "4"}}),
            (Shard{1, 4}));
  EXPECT_EQ(shard_from_slurm({{"SLURM_ARRAY_TASK_ID", "12"},
                              {"SLURM_ARRAY_TASK_MIN", "10"},
                              {"SLURM_ARRAY_TASK_COUNT", "3"}}),
            (Shard{3, 3}));
  // An array with gaps (--array=1,5,9: COUNT 3, ID 9) has no contiguous numbering.
  EXPECT_THROW(shard_from_slurm({{"SLURM_ARRAY_TASK_ID", "9"},
                                 {"SLURM_ARRAY_TASK_MIN", "1"},
                                 {"SLURM_ARRAY_TASK_COUNT", "3"}}),
               std::invalid_argument);
  EXPECT_THROW(shard_from_slurm({{"SLURM_ARRAY_TASK_ID", "x"},
                                 {"SLURM_ARRAY_TASK_MIN", "1"},
                                 {"SLURM_ARRAY_TASK_COUNT", "3"}}),
               std::invalid_argument);
}

TEST(ShardTest, PartIsStableAcrossMachines) {
  // XXH3-64 of the text: pinned, so that a change of the hash (which would move inputs between
  // the shards of a cluster run half done) is noticed.
  EXPECT_EQ(shard_part("", 1), 0u);
  std::vector<std::size_t> parts;
  for (const char* name : {"a.in", "b.in", "sets/willow/001.in", "x/y/z.in"})
    parts.push_back(shard_part(name, 97));
  EXPECT_EQ(parts, (std::vector<std::size_t>{2, 15, 21, 80}));
}

TEST(ShardTest, ShardsPartitionTheInputs) {
  std::vector<InputFile> files;
  for (int k = 0; k < 300; ++k) {
    const std::string name = "dir/" + std::to_string(k) + ".in";
    files.push_back({"/somewhere/" + name, "/out/" + name, name});
  }
  const InputList inputs(files);
  std::set<std::string> seen;
  std::size_t total = 0;
  for (std::size_t index = 1; index <= 3; ++index) {
    InputList part = inputs;
    select_shard(part, Shard{index, 3});
    EXPECT_GT(part.size(), 60u);  // about 100 each
    total += part.size();
    for (std::size_t k = 0; k < part.size(); ++k)
      EXPECT_TRUE(seen.insert(part[k].relative.string()).second) << part[k].relative;
  }
  EXPECT_EQ(total, inputs.size());
  InputList all = inputs;
  select_shard(all, Shard{1, 1});
  EXPECT_EQ(all.size(), inputs.size());
}

TEST(ShardTest, EachShardHasItsOwnCacheFile) {
  EXPECT_EQ(shard_cache_name("/c/answers.cache", Shard{2, 5}), "/c/answers.cache.shard-2-of-5");
}

}  // namespace
}  // namespace gamebatch::io
