// Random willow instances. Every draw goes through uniform_below() rather than the standard
// distributions, whose algorithms differ between standard libraries: the same seed then gives the
// same instance everywhere, so a failing case can be reported as (shape, size, pattern, seed).
#include "core/willow/generators.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/random.hpp"

namespace gamebatch::willow {

std::string_view to_string(TreeShape shape) {
  switch (shape) {
    case TreeShape::random:
      return "random";
    case TreeShape::path:
      return "path";
    case TreeShape::star:
      return "star";
    case TreeShape::caterpillar:
      return "caterpillar";
    case TreeShape::broom:
      return "broom";
    case TreeShape::binary:
      return "binary";
    case TreeShape::prufer:
      return "prufer";
    case TreeShape::comb:
      return "comb";
    case TreeShape::tripod:
      return "tripod";
    case TreeShape::comb_spider:
      return "comb_spider";
    case TreeShape::lopsided_spider:
      return "lopsided_spider";
    case TreeShape::rich_teeth_spider:
      return "rich_teeth_spider";
  }
  return "unknown";
}

std::string_view to_string(CoinPattern pattern) {
  switch (pattern) {
    case CoinPattern::all_zero:
      return "all_zero";
    case CoinPattern::all_equal:
      return "all_equal";
    case CoinPattern::mixed:
      return "mixed";
  }
  return "unknown";
}

namespace {

using City = std::int32_t;
using Road = std::pair<City, City>;

City uniform_city_below(std::mt19937_64& rng, City bound) {
  return static_cast<City>(uniform_below(rng, static_cast<std::uint64_t>(bound)));
}

Coins uniform_coins(std::mt19937_64& rng, Coins low, Coins high) {
  const auto span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
  if (span == 0) {  // the whole 64-bit range
    return static_cast<Coins>(rng());
  }
  return low + static_cast<Coins>(uniform_below(rng, span));
}

// Each city v >= 1 hangs off a uniformly chosen earlier city.
std::vector<Road> random_recursive_tree(City city_count, std::mt19937_64& rng) {
  std::vector<Road> roads;
  for (City city = 1; city < city_count; ++city) {
    roads.emplace_back(uniform_city_below(rng, city), city);
  }
  return roads;
}

// A uniformly random labelled tree, decoded from a random Pruefer sequence. Its shapes differ
// from the recursive tree's (fewer deep chains near city 0, more even degrees).
std::vector<Road> pruefer_tree(City city_count, std::mt19937_64& rng) {
  if (city_count <= 2) {
    return random_recursive_tree(city_count, rng);
  }
  std::vector<City> sequence(static_cast<std::size_t>(city_count - 2));
  std::vector<City> degree(static_cast<std::size_t>(city_count), 1);
  for (City& city : sequence) {
    city = uniform_city_below(rng, city_count);
    ++degree[static_cast<std::size_t>(city)];
  }
  std::priority_queue<City, std::vector<City>, std::greater<>> leaves;
  for (City city = 0; city < city_count; ++city) {
    if (degree[static_cast<std::size_t>(city)] == 1) {
      leaves.push(city);
    }
  }
  std::vector<Road> roads;
  for (const City city : sequence) {
    const City leaf = leaves.top();
    leaves.pop();
    roads.emplace_back(leaf, city);
    if (--degree[static_cast<std::size_t>(city)] == 1) {
      leaves.push(city);
    }
  }
  const City last_a = leaves.top();
  leaves.pop();
  roads.emplace_back(last_a, leaves.top());
  return roads;
}

std::vector<Road> path_tree(City city_count) {
  std::vector<Road> roads;
  for (City city = 1; city < city_count; ++city) {
    roads.emplace_back(city - 1, city);
  }
  return roads;
}

std::vector<Road> star_tree(City city_count) {
  std::vector<Road> roads;
  for (City city = 1; city < city_count; ++city) {
    roads.emplace_back(0, city);
  }
  return roads;
}

// Spine 0..spine_length-1; every other city is a leaf on a random spine city.
std::vector<Road> caterpillar_tree(City city_count, std::mt19937_64& rng) {
  const City spine_length = 1 + uniform_city_below(rng, std::max<City>(1, city_count / 2));
  std::vector<Road> roads = path_tree(spine_length);
  for (City city = spine_length; city < city_count; ++city) {
    roads.emplace_back(uniform_city_below(rng, spine_length), city);
  }
  return roads;
}

// Handle 0..handle_length-1; all other cities are bristles on the handle's last city.
std::vector<Road> broom_tree(City city_count, std::mt19937_64& rng) {
  const City handle_length = 1 + uniform_city_below(rng, city_count);
  std::vector<Road> roads = path_tree(handle_length);
  for (City city = handle_length; city < city_count; ++city) {
    roads.emplace_back(handle_length - 1, city);
  }
  return roads;
}

// Heap numbering: city v's parent is (v-1)/2, so all levels but the last are full.
std::vector<Road> binary_tree(City city_count) {
  std::vector<Road> roads;
  for (City city = 1; city < city_count; ++city) {
    roads.emplace_back((city - 1) / 2, city);
  }
  return roads;
}

// The even cities in a path, each odd city a leaf on the even city before it.
std::vector<Road> comb_tree(City city_count) {
  std::vector<Road> roads;
  for (City city = 1; city < city_count; ++city)
    roads.emplace_back(city % 2 == 1 ? city - 1 : city - 2, city);
  return roads;
}

// Three combs joined at city 0, a leg of a third of the cities each: the shape the pruned
// search's lower bounds cut least (B far along one leg walks in and takes a third).
std::vector<Road> tripod_tree(City city_count) {
  std::vector<Road> roads;
  const City leg = std::max<City>(1, (city_count + 1) / 3);
  for (City city = 1; city < city_count; ++city) {
    const City offset = (city - 1) % leg;  // in its leg: spine cities even, each leaf odd
    roads.emplace_back(offset % 2 == 1 ? city - 1 : (offset == 0 ? 0 : city - 2), city);
  }
  return roads;
}

template <typename T>
void shuffle(std::vector<T>& items, std::mt19937_64& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    std::swap(items[i - 1], items[uniform_below(rng, i)]);
  }
}

void check_sizes(std::int32_t city_count, Coins max_coin) {
  if (city_count < 1) {
    throw std::invalid_argument("willow generator: need at least one city, got " +
                                std::to_string(city_count));
  }
  if (max_coin < 0) {
    throw std::invalid_argument("willow generator: max_coin must be >= 0, got " +
                                std::to_string(max_coin));
  }
}

// Hides the construction order: random city labels, road order and road orientation.
std::vector<City> hide_construction(std::vector<Road>& roads, City city_count,
                                    std::mt19937_64& rng) {
  std::vector<City> new_label(static_cast<std::size_t>(city_count));
  std::iota(new_label.begin(), new_label.end(), City{0});
  shuffle(new_label, rng);
  for (Road& road : roads) {
    road.first = new_label[static_cast<std::size_t>(road.first)];
    road.second = new_label[static_cast<std::size_t>(road.second)];
    if (one_in(rng, 2)) {
      std::swap(road.first, road.second);
    }
  }
  shuffle(roads, rng);
  return new_label;
}

// Builds a TreeRecipe's tree city by city (city 0 the hub), remembering each city's role and
// how far along its arm it lies for the coin layout.
class RecipeBuilder {
 public:
  RecipeBuilder(const TreeRecipe& recipe, City city_count, std::mt19937_64& rng)
      : recipe_(recipe), city_count_(city_count), rng_(rng) {
    roles_.push_back(Role{Kind::hub, 0.0});
  }

  void build() {
    const City rest = city_count_ - 1;
    const std::int64_t legs = recipe_.legs;
    // Shares: the first arm (100 + long) / 100 of each other's.
    const std::int64_t weight = 100 * legs + recipe_.long_arm_percent;
    City given = 0;
    for (std::int32_t arm = 0; arm < recipe_.legs; ++arm) {
      const std::int64_t share = arm == 0 ? 100 + recipe_.long_arm_percent : 100;
      City size = static_cast<City>(rest * share / weight);
      if (arm + 1 == recipe_.legs)
        size = rest - given;
      given += size;
      build_arm(size);
    }
  }

  std::vector<Road> take_roads() { return std::move(roads_); }

  std::vector<Coins> coins(Coins max_coin) {
    std::vector<Coins> coins;
    coins.reserve(roles_.size());
    for (const Role& role : roles_)
      coins.push_back(coin_of(role, max_coin));
    return coins;
  }

 private:
  enum class Kind { hub, spine, tooth };
  struct Role {
    Kind kind;
    double along;  // 0 at the hub, 1 at the arm's far end
  };

  City add(City parent, Kind kind, double along) {
    const auto city = static_cast<City>(roles_.size());
    roads_.emplace_back(parent, city);
    roles_.push_back(Role{kind, along});
    return city;
  }

  void build_arm(City size) {
    const City end = static_cast<City>(roles_.size()) + size;
    // The spine's length is an estimate (the arm ends where its cities do): at most 1.
    const auto along = [&](City spine_index, City spine_length) {
      return std::min(1.0, static_cast<double>(spine_index + 1) /
                               static_cast<double>(std::max<City>(1, spine_length)));
    };
    if (recipe_.arm == ArmKind::comb) {
      // Spine cities per tooth: 1 + the tooth's cities every gap-th spine city.
      const City tooth_cities = recipe_.nested_teeth ? 2 * recipe_.tooth : recipe_.tooth;
      const City spine_length =
          std::max<City>(1, size * recipe_.gap / (recipe_.gap + tooth_cities));
      City spine = 0;
      for (City index = 0; static_cast<City>(roles_.size()) < end; ++index) {
        spine = add(index == 0 ? 0 : spine, Kind::spine, along(index, spine_length));
        if ((index + 1) % recipe_.gap == 0)
          add_tooth(spine, end, along(index, spine_length));
      }
      return;
    }
    const City handle = std::max<City>(1, size / 2);
    std::vector<City> spine_cities;
    for (City index = 0; index < handle && static_cast<City>(roles_.size()) < end; ++index)
      spine_cities.push_back(
          add(index == 0 ? 0 : spine_cities.back(), Kind::spine, along(index, handle)));
    while (static_cast<City>(roles_.size()) < end) {
      const std::size_t at = recipe_.arm == ArmKind::broom
                                 ? spine_cities.size() - 1
                                 : uniform_below(rng_, spine_cities.size());
      add(spine_cities[at], Kind::tooth, roles_[static_cast<std::size_t>(spine_cities[at])].along);
    }
  }

  // A tooth on `spine`, as far as the arm's cities (up to `end`) go.
  void add_tooth(City spine, City end, double along) {
    City at = spine;
    for (City t = 0; t < recipe_.tooth && static_cast<City>(roles_.size()) < end; ++t) {
      at = add(at, Kind::tooth, along);
      if (recipe_.nested_teeth && static_cast<City>(roles_.size()) < end)
        add(at, Kind::tooth, along);
    }
  }

  Coins coin_of(const Role& role, Coins max_coin) {
    const auto draw = [&](Coins low, Coins high) {
      return low +
             static_cast<Coins>(uniform_below(rng_, static_cast<std::uint64_t>(high - low) + 1));
    };
    switch (recipe_.layout) {
      case CoinLayout::uniform:
        return draw(0, max_coin);
      case CoinLayout::spine_rich:
        return role.kind == Kind::tooth ? draw(0, max_coin / 10) : draw(max_coin / 2, max_coin);
      case CoinLayout::teeth_rich:
        return role.kind == Kind::tooth ? draw(max_coin / 2, max_coin) : draw(0, max_coin / 10);
      case CoinLayout::falling:
        return static_cast<Coins>(static_cast<double>(draw(0, max_coin)) *
                                  (1.0 - 0.9 * role.along));
      case CoinLayout::sparse:
        return one_in(rng_, 4) ? draw(max_coin / 2, max_coin) : 0;
    }
    return 0;
  }

  const TreeRecipe& recipe_;
  const City city_count_;
  std::mt19937_64& rng_;
  std::vector<Road> roads_;
  std::vector<Role> roles_;  // per city
};

// The recipes of the spiders (TreeShape), nullptr for every other shape.
const TreeRecipe* recipe_of(TreeShape shape) {
  static const TreeRecipe kCombSpider{5, ArmKind::comb, 1, 4, false, 0, CoinLayout::uniform};
  static const TreeRecipe kLopsided{4, ArmKind::comb, 1, 4, false, 50, CoinLayout::uniform};
  static const TreeRecipe kRichTeeth{4, ArmKind::comb, 1, 4, false, 0, CoinLayout::teeth_rich};
  switch (shape) {
    case TreeShape::comb_spider:
      return &kCombSpider;
    case TreeShape::lopsided_spider:
      return &kLopsided;
    case TreeShape::rich_teeth_spider:
      return &kRichTeeth;
    default:
      return nullptr;
  }
}

std::vector<Road> tree_of_shape(TreeShape shape, City city_count, std::mt19937_64& rng) {
  switch (shape) {
    case TreeShape::random:
      return one_in(rng, 4) ? pruefer_tree(city_count, rng)
                            : random_recursive_tree(city_count, rng);
    case TreeShape::path:
      return path_tree(city_count);
    case TreeShape::star:
      return star_tree(city_count);
    case TreeShape::caterpillar:
      return caterpillar_tree(city_count, rng);
    case TreeShape::broom:
      return broom_tree(city_count, rng);
    case TreeShape::binary:
      return binary_tree(city_count);
    case TreeShape::prufer:
      return pruefer_tree(city_count, rng);
    case TreeShape::comb:
      return comb_tree(city_count);
    case TreeShape::tripod:
      return tripod_tree(city_count);
    case TreeShape::comb_spider:
    case TreeShape::lopsided_spider:
    case TreeShape::rich_teeth_spider: {
      RecipeBuilder builder(*recipe_of(shape), city_count, rng);
      builder.build();
      return builder.take_roads();
    }
  }
  throw std::invalid_argument("unknown tree shape");
}

std::vector<Coins> draw_coins(CoinPattern pattern, City city_count, Coins max_coin,
                              std::mt19937_64& rng) {
  std::vector<Coins> coins(static_cast<std::size_t>(city_count), 0);
  switch (pattern) {
    case CoinPattern::all_zero:
      break;
    case CoinPattern::all_equal:
      std::fill(coins.begin(), coins.end(), uniform_coins(rng, 0, max_coin));
      break;
    case CoinPattern::mixed:
      if (one_in(rng, 3)) {
        // Skewed: mostly empty cities and a few rich ones, where greedy play goes wrong.
        for (Coins& amount : coins) {
          amount = one_in(rng, 4) ? uniform_coins(rng, max_coin / 2, max_coin) : 0;
        }
      } else {
        for (Coins& amount : coins) {
          amount = uniform_coins(rng, 0, max_coin);
        }
      }
      break;
  }
  return coins;
}
}  // namespace

Instance generate_instance(TreeShape shape, std::int32_t city_count, CoinPattern pattern,
                           Coins max_coin, std::mt19937_64& rng) {
  check_sizes(city_count, max_coin);
  if (const TreeRecipe* recipe = recipe_of(shape);
      recipe != nullptr && pattern == CoinPattern::mixed)
    return generate_recipe_instance(*recipe, city_count, max_coin, rng);
  std::vector<Road> roads = tree_of_shape(shape, city_count, rng);
  hide_construction(roads, city_count, rng);
  Instance instance;
  instance.coins = draw_coins(pattern, city_count, max_coin, rng);
  instance.roads = std::move(roads);
  return instance;
}

namespace {
constexpr std::string_view kArmNames[] = {"comb", "broom", "caterpillar"};
constexpr std::string_view kLayoutNames[] = {"uniform", "spine_rich", "teeth_rich", "falling",
                                             "sparse"};

template <std::size_t kCount>
std::int32_t index_of(const std::string_view (&names)[kCount], std::string_view name) {
  for (std::size_t i = 0; i < kCount; ++i) {
    if (names[i] == name)
      return static_cast<std::int32_t>(i);
  }
  throw std::invalid_argument("willow recipe: unknown value " + std::string(name));
}
}  // namespace

std::string describe(const TreeRecipe& recipe) {
  return "legs=" + std::to_string(recipe.legs) +
         " arm=" + std::string(kArmNames[static_cast<int>(recipe.arm)]) +
         " tooth=" + std::to_string(recipe.tooth) + " gap=" + std::to_string(recipe.gap) +
         " nested=" + std::to_string(recipe.nested_teeth ? 1 : 0) +
         " long=" + std::to_string(recipe.long_arm_percent) +
         " coins=" + std::string(kLayoutNames[static_cast<int>(recipe.layout)]);
}

TreeRecipe parse_recipe(std::string_view text) {
  TreeRecipe recipe;
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (word.empty())
      continue;
    const std::size_t equals = word.find('=');
    if (equals == std::string_view::npos)
      throw std::invalid_argument("willow recipe: expected name=value, got " + std::string(word));
    const std::string_view name = word.substr(0, equals);
    const std::string value(word.substr(equals + 1));
    const auto number = [&value] { return static_cast<std::int32_t>(std::stoi(value)); };
    if (name == "legs")
      recipe.legs = number();
    else if (name == "arm")
      recipe.arm = static_cast<ArmKind>(index_of(kArmNames, value));
    else if (name == "tooth")
      recipe.tooth = number();
    else if (name == "gap")
      recipe.gap = number();
    else if (name == "nested")
      recipe.nested_teeth = number() != 0;
    else if (name == "long")
      recipe.long_arm_percent = number();
    else if (name == "coins")
      recipe.layout = static_cast<CoinLayout>(index_of(kLayoutNames, value));
    else
      throw std::invalid_argument("willow recipe: unknown word " + std::string(name));
  }
  return recipe;
}

Instance generate_recipe_instance(const TreeRecipe& recipe, std::int32_t city_count, Coins max_coin,
                                  std::mt19937_64& rng) {
  check_sizes(city_count, max_coin);
  if (recipe.legs < 1 || recipe.tooth < 1 || recipe.gap < 1 || recipe.long_arm_percent < 0)
    throw std::invalid_argument("willow generator: invalid recipe " + describe(recipe));
  RecipeBuilder builder(recipe, city_count, rng);
  builder.build();
  Instance instance;
  instance.coins = builder.coins(max_coin);
  std::vector<Road> roads = builder.take_roads();
  const std::vector<City> new_label = hide_construction(roads, city_count, rng);
  // The coins go with the cities to their new labels.
  std::vector<Coins> labelled(instance.coins.size());
  for (std::size_t city = 0; city < labelled.size(); ++city)
    labelled[static_cast<std::size_t>(new_label[city])] = instance.coins[city];
  instance.coins = std::move(labelled);
  instance.roads = std::move(roads);
  return instance;
}

Instance to_official_labels(const Instance& instance) {
  if (const std::string problem = check_instance(instance); !problem.empty()) {
    throw std::invalid_argument("to_official_labels: invalid instance: " + problem);
  }
  const City city_count = instance.city_count();
  const auto count = static_cast<std::size_t>(city_count);

  // Adjacency in compressed form: neighbours of v are at [first_neighbour[v],
  // first_neighbour[v+1]).
  std::vector<std::size_t> first_neighbour(count + 1, 0);
  for (const auto& [from, to] : instance.roads) {
    ++first_neighbour[static_cast<std::size_t>(from) + 1];
    ++first_neighbour[static_cast<std::size_t>(to) + 1];
  }
  std::partial_sum(first_neighbour.begin(), first_neighbour.end(), first_neighbour.begin());
  std::vector<City> neighbours(first_neighbour.back());
  std::vector<std::size_t> next_slot(first_neighbour.begin(), first_neighbour.end() - 1);
  for (const auto& [from, to] : instance.roads) {
    neighbours[next_slot[static_cast<std::size_t>(from)]++] = to;
    neighbours[next_slot[static_cast<std::size_t>(to)]++] = from;
  }

  // Breadth-first from city 0: a parent is always discovered before its children, so labelling
  // in reverse discovery order gives every non-root city a parent with a larger label.
  constexpr City kUnseen = -1;
  std::vector<City> parent(count, kUnseen);
  std::vector<City> discovery_order;
  discovery_order.reserve(count);
  discovery_order.push_back(0);
  parent[0] = 0;
  for (std::size_t next = 0; next < discovery_order.size(); ++next) {
    const auto city = static_cast<std::size_t>(discovery_order[next]);
    for (std::size_t slot = first_neighbour[city]; slot < first_neighbour[city + 1]; ++slot) {
      const City neighbour = neighbours[slot];
      if (parent[static_cast<std::size_t>(neighbour)] == kUnseen) {
        parent[static_cast<std::size_t>(neighbour)] = static_cast<City>(city);
        discovery_order.push_back(neighbour);
      }
    }
  }
  std::vector<City> official_label(count);
  for (std::size_t rank = 0; rank < count; ++rank) {
    official_label[static_cast<std::size_t>(discovery_order[rank])] =
        city_count - 1 - static_cast<City>(rank);
  }

  Instance relabelled;
  relabelled.coins.resize(count);
  relabelled.roads.resize(count - 1);
  for (std::size_t city = 0; city < count; ++city) {
    const City label = official_label[city];
    relabelled.coins[static_cast<std::size_t>(label)] = instance.coins[city];
    if (label != city_count - 1) {
      relabelled.roads[static_cast<std::size_t>(label)] = {
          label, official_label[static_cast<std::size_t>(parent[city])]};
    }
  }
  return relabelled;
}

}  // namespace gamebatch::willow
