# wallgame benchmark tools (included from tools/bench/CMakeLists.txt; see wallgame_bench.sh).

# Writes wallgame inputs of random boards with the project's own generators and format.
add_executable(make_wallgame_case ${CMAKE_CURRENT_LIST_DIR}/make_wallgame_case.cpp)
target_link_libraries(make_wallgame_case PRIVATE gamebatch_core gamebatch_io CLI11::CLI11
                                                 gamebatch_warnings)
gamebatch_quick_to_build(make_wallgame_case)
