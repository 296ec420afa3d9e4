# doublemove benchmark drivers (included from tools/bench/CMakeLists.txt). See doublemove_bench.sh.

# Times the state tables (n = 1..35 against a hash-map minimax, then one table per n upwards).
add_executable(doublemove_table_bench doublemove_table_bench.cpp)
target_link_libraries(doublemove_table_bench PRIVATE gamebatch_core CLI11::CLI11
                                                     gamebatch_warnings)

# Writes doublemove inputs (many random cases of one n) with the project's generators and format.
add_executable(make_doublemove_case make_doublemove_case.cpp)
target_link_libraries(make_doublemove_case PRIVATE gamebatch_core gamebatch_io CLI11::CLI11
                                                   gamebatch_warnings)
gamebatch_quick_to_build(make_doublemove_case)

# Writes doublemove late cases (games still running, few declarations left). See
# doublemove_late_bench.sh.
add_executable(make_doublemove_late_case make_doublemove_late_case.cpp)
target_link_libraries(make_doublemove_late_case PRIVATE gamebatch_core gamebatch_io CLI11::CLI11
                                                        gamebatch_warnings)
gamebatch_quick_to_build(make_doublemove_late_case)
