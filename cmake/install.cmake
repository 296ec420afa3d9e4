# Install rules and packaging (see issue 12): `cmake --install BUILD --prefix P` installs
#   P/bin/gamebatch, P/libexec/gamebatch/gamebatch-box (the sandbox's keeper), P/share/man/man1/gamebatch.1, P/share/bash-completion/completions/gamebatch,
#   P/share/gamebatch/configs/ (configs/*.toml and configs/demo/),
#   P/share/gamebatch/cluster/ (tools/cluster/: *.sh, *.sbatch, *.md);
# `cpack -G DEB` in the build directory packs the same tree under /usr as
# gamebatch_VERSION_ARCH.deb. tests/install/ checks both.
include(GNUInstallDirs)

set(GAMEBATCH_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/gamebatch)

install(TARGETS gamebatch RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# io::sandbox_helper finds it at ../libexec/gamebatch/ from the gamebatch executable.
install(TARGETS gamebatch-box RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/gamebatch)

# The man page is made from the built binary's --help texts, so it says what the program says.
set(GAMEBATCH_MAN_PAGE ${PROJECT_BINARY_DIR}/man/gamebatch.1)
add_custom_command(
  OUTPUT ${GAMEBATCH_MAN_PAGE}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
  COMMAND bash ${PROJECT_SOURCE_DIR}/tools/man/help_to_man.sh $<TARGET_FILE:gamebatch>
          ${PROJECT_VERSION} ${CMAKE_INSTALL_FULL_DATADIR}/gamebatch ${GAMEBATCH_MAN_PAGE}
  DEPENDS gamebatch ${PROJECT_SOURCE_DIR}/tools/man/help_to_man.sh
          ${PROJECT_SOURCE_DIR}/tools/man/help_to_roff.awk
  COMMENT "Writing the man page gamebatch(1) from gamebatch --help"
  VERBATIM)
add_custom_target(gamebatch_man_page ALL DEPENDS ${GAMEBATCH_MAN_PAGE})

# The page names the installed configs and scripts (its string Gd): write it for the prefix
# actually installed to (cpack installs to /usr, `cmake --install --prefix P` to P), not the
# configured one.
if(IS_ABSOLUTE ${CMAKE_INSTALL_DATADIR})
  set(gamebatch_installed_datadir "${GAMEBATCH_INSTALL_DATADIR}")
else()
  set(gamebatch_installed_datadir "\${CMAKE_INSTALL_PREFIX}/${GAMEBATCH_INSTALL_DATADIR}")
endif()
if(IS_ABSOLUTE ${CMAKE_INSTALL_MANDIR})
  set(gamebatch_man1_dir "${CMAKE_INSTALL_MANDIR}/man1")
else()
  set(gamebatch_man1_dir "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man1")
endif()
install(CODE "set(gamebatch_man_page [[${GAMEBATCH_MAN_PAGE}]])
  set(gamebatch_man1_dir \"${gamebatch_man1_dir}\")
  set(gamebatch_datadir \"${gamebatch_installed_datadir}\")")
install(CODE [[
  if(IS_ABSOLUTE "${gamebatch_man1_dir}")
    set(gamebatch_man1_dir "$ENV{DESTDIR}${gamebatch_man1_dir}")
  endif()
  get_filename_component(gamebatch_datadir "${gamebatch_datadir}" ABSOLUTE)  # --prefix rel
  message(STATUS "Installing: ${gamebatch_man1_dir}/gamebatch.1")
  file(READ "${gamebatch_man_page}" page)
  string(REGEX REPLACE "\n\\.ds Gd [^\n]*" "\n.ds Gd ${gamebatch_datadir}" page "${page}")
  file(MAKE_DIRECTORY "${gamebatch_man1_dir}")
  file(WRITE "${gamebatch_man1_dir}/gamebatch.1" "${page}")
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${gamebatch_man1_dir}/gamebatch.1")
]])

# Hand-written; tests/install/ fails when a subcommand's --help gains an option it lacks.
install(FILES ${PROJECT_SOURCE_DIR}/tools/completion/gamebatch.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME gamebatch)

file(GLOB gamebatch_configs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/configs/*.toml)
install(FILES ${gamebatch_configs} DESTINATION ${GAMEBATCH_INSTALL_DATADIR}/configs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/demo
        DESTINATION ${GAMEBATCH_INSTALL_DATADIR}/configs)

# By pattern, at install time: scripts added to tools/cluster/ need no change here. Git keeps
# no empty directory, so a checkout may lack it.
if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/tools/cluster)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/cluster/
          DESTINATION ${GAMEBATCH_INSTALL_DATADIR}/cluster
          USE_SOURCE_PERMISSIONS
          FILES_MATCHING
          PATTERN "*.sh"
            PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                        WORLD_READ WORLD_EXECUTE
          PATTERN "*.sbatch"
          PATTERN "*.md")
endif()

# The Debian package. dpkg-shlibdeps (package dpkg-dev) turns the binary's shared libraries
# into Depends, so the list follows whatever the build links.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gamebatch)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT
    "gamebatch maintainers <maintainers@users.noreply.a-seed-feaa631a.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "exact answers for large test sets of two-player game problems")
# Lines as the control file shows them (CPack indents each one).
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "For problem setters and judges who prepare test data by the thousand:"
  "gamebatch reads many input files of a two-player game problem (willow,"
  "doublemove, wallgame, boigame), solves their cases in parallel with exact"
  "solvers and writes each file's answer file. A content-keyed answer cache"
  "makes a rerun after an edit cost only the cases that changed. Large sets"
  "can be split over the machines of a cluster: Slurm job arrays (shards) or"
  "one MPI job.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # gamebatch_0.2.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libclang is loaded at run time (io/mutation/libclang_api.hpp), so dpkg-shlibdeps cannot see it:
# the package that holds the library CMake found is named here (CPack adds shlibdeps' list).
file(REAL_PATH ${GAMEBATCH_LIBCLANG_LIBRARY} gamebatch_libclang_file)
execute_process(COMMAND dpkg-query -S ${gamebatch_libclang_file} OUTPUT_VARIABLE gamebatch_libclang_owner
                RESULT_VARIABLE gamebatch_dpkg_status ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(gamebatch_dpkg_status EQUAL 0 AND gamebatch_libclang_owner MATCHES "^([^:]+):")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS ${CMAKE_MATCH_1})
endif()
# Homepage: from project(... HOMEPAGE_URL) when the project names one (CPack's default).
if(GAMEBATCH_HAVE_MPI)
  # solve --mpi is launched with mpirun; without it gamebatch still runs on one machine.
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS openmpi-bin)
endif()
# The cluster scripts submit Slurm jobs.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS slurm-client)
# include(CPack) also adds package_source: keep build trees and Git's store out of it.
set(CPACK_SOURCE_IGNORE_FILES "/\\.git/" "/build[^/]*/")
include(CPack)
