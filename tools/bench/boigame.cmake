# boigame benchmark programs; see boigame_bench.sh for how they are used.

# Writes boigame inputs of a given shape, placement and size with the project's own generators.
add_executable(make_boigame_case ${CMAKE_CURRENT_LIST_DIR}/make_boigame_case.cpp)
target_link_libraries(make_boigame_case PRIVATE gamebatch_core gamebatch_io CLI11::CLI11
                                                gamebatch_warnings)
gamebatch_quick_to_build(make_boigame_case)

# The analysis' DP written straightforwardly: a standalone program (official format on stdin,
# answers on stdout) that uses no project code, the baseline gamebatch is measured against.
add_executable(boigame_baseline ${CMAKE_CURRENT_LIST_DIR}/boigame_baseline.cpp)
target_link_libraries(boigame_baseline PRIVATE gamebatch_warnings)
