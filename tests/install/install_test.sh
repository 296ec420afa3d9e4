#!/usr/bin/env bash
# The installed gamebatch, end to end (cmake/install.cmake). Run by ctest:
#   install_test.sh tree BUILD_DIR SOURCE_DIR GAMEBATCH        cmake --install to a temporary
#       prefix: every file there, the man page renders cleanly, the completion loads and
#       completes, and the installed binary answers the installed demo set as the build's does
#   install_test.sh deb BUILD_DIR SOURCE_DIR GAMEBATCH         cpack -G DEB: control fields,
#       contents, Depends covering every library the binary needs; the extracted binary answers
#       the demo set as the build's does
#   install_test.sh completion BUILD_DIR SOURCE_DIR GAMEBATCH  the completion script offers
#       every option, subcommand and value list that each --help prints, and no other
# Environment: CMAKE, CPACK (default: from PATH). Installs nothing on the system; everything it
# writes is under one temporary directory, removed at exit.
set -euo pipefail

if [ $# -ne 4 ]; then
  echo "usage: $0 tree|deb|completion BUILD_DIR SOURCE_DIR GAMEBATCH" >&2
  exit 2
fi
mode=$1
build_dir=$2
source_dir=$3
gamebatch=$4
cmake=${CMAKE:-cmake}
cpack=${CPACK:-cpack}
completion_source=$source_dir/tools/completion/gamebatch.bash

work=$(mktemp -d "${TMPDIR:-/tmp}/gamebatch-install-$mode.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

need() {
  command -v "$1" >/dev/null ||
    fail "$1 is not installed (Debian package $2; tools/dev.sh installs it)"
}

# Solves a copy of DEMO_DIR with BINARY into OUT (answers beside the inputs, no cache).
solve_demo() {
  local binary=$1 demo_dir=$2 out=$3
  [ -d "$demo_dir" ] || fail "no demo set at $demo_dir"
  cp -r "$demo_dir" "$out"
  "$binary" solve --problem willow --no-cache --quiet "$out" 2>"$out.log" ||
    fail "'$binary solve --problem willow --no-cache $out' exited with $?: $(cat "$out.log")"
}

# The installed binary's answers to the installed demo set must be the build's, byte for byte.
compare_with_build() {
  local binary=$1 installed_demo=$2
  solve_demo "$gamebatch" "$source_dir/configs/demo/willow" "$work/answers-build"
  solve_demo "$binary" "$installed_demo" "$work/answers-installed"
  local inputs answers
  inputs=$(find "$work/answers-build" -name '*.in' | wc -l)
  answers=$(find "$work/answers-build" -name '*.ans' | wc -l)
  if [ "$inputs" -eq 0 ] || [ "$answers" -ne "$inputs" ]; then
    fail "the build's binary wrote $answers answer files for $inputs inputs"
  fi
  # The inputs too: the installed demo set is the source's.
  diff -r "$work/answers-build" "$work/answers-installed" >&2 ||
    fail "$binary answers the installed demo set differently from $gamebatch"
  echo "ok: $binary answers $inputs demo files as the build does"
}

# What the completion SCRIPT offers for a command line WORDS... (the last word is the one being
# completed), sorted, one per line. Runs in $work, so file names do not leak in.
completions() {
  local script=$1
  shift
  (cd "$work" && bash --norc --noprofile -c '
    script=$1
    shift
    source "$script" || exit 1
    function=$(complete -p gamebatch 2>/dev/null | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
    [ -n "$function" ] || { echo "$script defines no completion for gamebatch" >&2; exit 1; }
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    "$function" gamebatch "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}"
  ' completions "$script" "$@") | sed '/^$/d' | sort -u
}

one_line() {
  tr '\n' ' ' <<<"$1" | sed 's/ *$//'
}

expect_completion() {
  local script=$1 expected=$2
  shift 2
  local got
  got=$(completions "$script" "$@")
  [ "$got" = "$expected" ] ||
    fail "completing '$*' offers '$(one_line "$got")', expected '$(one_line "$expected")'"
}

expect_file() {
  [ -f "$1" ] || fail "not installed: $1"
}

check_tree() {
  local prefix=$work/prefix
  "$cmake" --install "$build_dir" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    fail "cmake --install failed: $(cat "$work/install.log")"

  local data=$prefix/share/gamebatch man_page=$prefix/share/man/man1/gamebatch.1
  local completion=$prefix/share/bash-completion/completions/gamebatch
  [ -x "$prefix/bin/gamebatch" ] || fail "not installed: $prefix/bin/gamebatch"
  local box=$prefix/libexec/gamebatch/gamebatch-box
  [ -x "$box" ] || fail "not installed: $box (the sandbox's keeper)"
  # The installed gamebatch finds its own keeper, not the build tree's.
  local info
  info=$(env -u GAMEBATCH_BOX "$prefix/bin/gamebatch" check --sandbox-info 2>&1) || true
  grep -qF "helper: $box" <<<"$info" || fail "the installed gamebatch does not find $box: $info"
  expect_file "$man_page"
  expect_file "$completion"
  cmp -s "$completion" "$completion_source" || fail "$completion is not $completion_source"
  local config script installed
  for config in "$source_dir"/configs/*.toml; do
    installed=$data/configs/${config##*/}
    cmp -s "$config" "$installed" || fail "not installed: $installed"
  done
  diff -r "$source_dir/configs/demo" "$data/configs/demo" >&2 ||
    fail "$data/configs/demo differs from configs/demo"
  for script in "$source_dir"/tools/cluster/*.sh "$source_dir"/tools/cluster/*.sbatch \
    "$source_dir"/tools/cluster/*.md; do
    [ -e "$script" ] || continue  # the pattern matched nothing
    installed=$data/cluster/${script##*/}
    cmp -s "$script" "$installed" || fail "not installed: $installed"
    if [[ $script == *.sh ]]; then
      [ -x "$installed" ] || fail "$installed lost its executable bit"
    fi
  done
  echo "ok: binary, man page, completion, configs, demo sets and cluster scripts installed"

  # The page names the prefix installed to, and man renders it without a warning.
  grep -qxF ".ds Gd $data" "$man_page" ||
    fail "$man_page does not name $data: $(grep '^\.ds Gd' "$man_page")"
  need man man-db
  local warnings
  warnings=$(MANWIDTH=80 man --warnings -l "$man_page" 2>&1 >/dev/null) ||
    fail "man -l $man_page failed: $warnings"
  [ -z "$warnings" ] || fail "man --warnings -l $man_page warns: $warnings"
  # No `| grep -q` on a running producer: with pipefail its SIGPIPE would fail the test.
  local rendered
  rendered=$(MANWIDTH=80 man -l "$man_page" 2>/dev/null)
  grep -q -- "--problem" <<<"$rendered" || fail "$man_page does not render solve's --problem"
  echo "ok: the man page renders without warnings"

  expect_completion "$completion" solve gamebatch so
  expect_completion "$completion" --problem gamebatch solve --pro
  echo "ok: the installed completion loads and completes"

  compare_with_build "$prefix/bin/gamebatch" "$data/configs/demo/willow"
}

# The package names of a Depends line ("a (>= 1), b | c") one per line.
depends_names() {
  tr ',|' '\n' | sed 's/(.*//; s/:any//; s/[[:space:]]//g; /^$/d'
}

# The paths under which dpkg may know the library FILE (as ldd prints it): bookworm merged /lib
# into /usr/lib, but packages still name /lib paths (or the reverse), and FILE may be a link.
dpkg_paths_of() {
  local file=$1 real
  real=$(readlink -f "$file")
  printf '%s\n' "$file" "${file#/usr}" "/usr$file" "$real" "${real#/usr}" "/usr$real"
}

check_deb() {
  need dpkg-deb dpkg
  need dpkg-shlibdeps dpkg-dev
  need objdump binutils
  # cpack first builds the target preinstall (everything). The suite runs on a built tree, and
  # a rebuild here would swap the binary under the tests running beside this one: with the
  # Makefile generator, MAKEFLAGS=n makes that step a dry run.
  MAKEFLAGS=n "$cpack" -G DEB --config "$build_dir/CPackConfig.cmake" -B "$work/cpack" \
    >"$work/cpack.log" 2>&1 ||
    fail "cpack -G DEB failed: $(cat "$work/cpack.log")"
  local version architecture deb
  version=$("$gamebatch" --version | awk '{print $2}')
  architecture=$(dpkg --print-architecture)
  deb=$work/cpack/gamebatch_${version}_$architecture.deb
  [ -f "$deb" ] || fail "cpack made no $deb: $(ls "$work/cpack")"

  local field
  for field in Package Version Architecture Maintainer Section Description Depends; do
    [ -n "$(dpkg-deb -f "$deb" "$field")" ] || fail "$deb has no $field field"
  done
  [ "$(dpkg-deb -f "$deb" Package)" = gamebatch ] || fail "$deb is not package gamebatch"
  [ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "$deb is not version $version"
  local depends
  depends=$(dpkg-deb -f "$deb" Depends)
  if grep -q 'NEEDED.*libmpi' <<<"$(objdump -p "$gamebatch")"; then
    grep -qx openmpi-bin <<<"$(depends_names <<<"$(dpkg-deb -f "$deb" Recommends)")" ||
      fail "$deb does not recommend openmpi-bin (the MPI mode needs mpirun)"
  fi
  echo "ok: $deb: Depends: $depends"

  local contents path
  contents=$(dpkg-deb -c "$deb")
  for path in usr/bin/gamebatch usr/libexec/gamebatch/gamebatch-box usr/share/man/man1/gamebatch.1 \
    usr/share/bash-completion/completions/gamebatch usr/share/gamebatch/configs/willow.toml \
    usr/share/gamebatch/configs/demo.toml usr/share/gamebatch/configs/demo/willow/sample.in; do
    grep -q " \./$path\$" <<<"$contents" || fail "$deb lacks /$path"
  done
  grep -q '^-rwxr-xr-x .* \./usr/bin/gamebatch$' <<<"$contents" ||
    fail "/usr/bin/gamebatch is not mode 755 in $deb"

  local root=$work/root
  dpkg-deb -x "$deb" "$root"
  local binary=$root/usr/bin/gamebatch
  grep -qx '\.ds Gd /usr/share/gamebatch' "$root/usr/share/man/man1/gamebatch.1" ||
    fail "the packaged man page does not name /usr/share/gamebatch"

  # Every library the binary links must come from a package it depends on.
  local names soname library path package provides line
  local -A library_of owner_of
  names=$(depends_names <<<"$depends")
  for soname in $(objdump -p "$binary" | awk '$1 == "NEEDED" {print $2}'); do
    library=$(ldd "$binary" | awk -v soname="$soname" '$1 == soname && $2 == "=>" {print $3}')
    [[ $library == /* ]] || fail "ldd finds no $soname for $binary"
    library_of[$soname]=$library
  done
  # And those it loads when first needed (libclang: io/mutation/libclang_api.hpp), whose sonames
  # it holds as strings.
  local loaded
  loaded=$(strings -n 8 "$binary" | grep -E '^libclang[-0-9.]*\.so(\.[0-9]+)*$' | sort -u || true)
  [ -n "$loaded" ] || fail "$binary names no libclang soname to load"
  for soname in $loaded; do
    library=$(ldconfig -p | awk -v soname="$soname" '$1 == soname {print $NF; exit}')
    [[ $library == /* ]] || fail "ldconfig finds no $soname, which $binary loads"
    library_of[$soname]=$library
  done
  # One dpkg -S for all (each call reads the whole database); it fails for the paths it lacks.
  while IFS= read -r line; do
    [[ $line == *": /"* ]] || continue
    package=${line%%:*}
    owner_of[${line#*: }]=${package%%,*}
  done < <(for library in "${library_of[@]}"; do dpkg_paths_of "$library"; done |
    sort -u | xargs dpkg -S 2>/dev/null || true)
  for soname in "${!library_of[@]}"; do
    package=""
    while read -r path; do
      package=${owner_of[$path]:-$package}
    done < <(dpkg_paths_of "${library_of[$soname]}")
    [ -n "$package" ] || fail "no installed package owns ${library_of[$soname]} ($soname)"
    # The package, or a name it provides (libspdlog1.10 provides libspdlog1.10-fmt9).
    provides=$(dpkg-query -W -f='${Provides}' "$package" | depends_names)
    printf '%s\n' "$package" "$provides" | grep -qxF -f - <(echo "$names") ||
      fail "$soname comes from package $package, which Depends ($depends) does not name"
  done
  echo "ok: every library gamebatch needs comes from a package in Depends"

  compare_with_build "$binary" "$root/usr/share/gamebatch/configs/demo/willow"
}

# The option names (-x, --xyz) that `gamebatch WORDS... --help` prints, sorted.
help_options() {
  "$gamebatch" "$@" --help | awk '
    /^[^ ].*:$/ { in_options = ($0 != "Positionals:" && $0 != "Subcommands:") }
    in_options && /^  -/ {
      count = split($1, names, ",")
      for (i = 1; i <= count; i++) print names[i]
    }
  ' | sort -u
}

# The subcommands that `gamebatch WORDS... --help` lists, sorted.
help_subcommands() {
  "$gamebatch" "$@" --help | awk '
    /^[^ ].*:$/ { in_list = ($0 == "Subcommands:") }
    in_list && /^  [a-z]/ { print $1 }
  ' | sort
}

# "NAME<TAB>a,b,c" for each option or positional whose head shows a value list ":{a,b,c}".
help_value_lists() {
  "$gamebatch" "$@" --help | awk '
    /^  [^ ]/ && match($0, /:[{][^}]*[}]/) {
      count = split($1, names, ",")
      print names[count] "\t" substr($0, RSTART + 2, RLENGTH - 3)
    }'
}

check_completion_against_help() {
  local script=$completion_source
  local -a commands=("")
  local command sub
  expect_completion "$script" "$(help_subcommands)" gamebatch ""
  for command in $(help_subcommands); do
    commands+=("$command")
    if [ -n "$(help_subcommands "$command")" ]; then
      expect_completion "$script" "$(help_subcommands "$command")" gamebatch "$command" ""
    fi
    for sub in $(help_subcommands "$command"); do
      commands+=("$command $sub")
    done
  done

  local words help_set offered missing extra
  for command in "${commands[@]}"; do
    read -r -a words <<<"$command"
    help_set=$(help_options "${words[@]}")
    offered=$(completions "$script" gamebatch "${words[@]}" -)
    missing=$(comm -23 <(echo "$help_set") <(echo "$offered"))
    # --mpi is offered always; only a build with the MPI mode has it.
    extra=$(comm -13 <(echo "$help_set") <(echo "$offered") | grep -vx -- --mpi || true)
    [ -z "$missing" ] || fail "'gamebatch $command --help' prints $(one_line "$missing")," \
      "which the completion does not offer: add it to $script"
    [ -z "$extra" ] || fail "the completion offers $(one_line "$extra") for" \
      "'gamebatch $command', whose --help does not print it"

    local name values first_positional
    first_positional=$("$gamebatch" "${words[@]}" --help |
      awk '/^Positionals:/ { getline; print $1 }')
    while IFS=$'\t' read -r name values; do
      [ -n "$name" ] || continue
      local expected
      expected=$(tr ',' '\n' <<<"$values" | sort)
      if [[ $name == -* ]]; then
        expect_completion "$script" "$expected" gamebatch "${words[@]}" "$name" ""
      elif [ "$name" = "$first_positional" ]; then
        expect_completion "$script" "$expected" gamebatch "${words[@]}" ""
      else
        fail "cannot check the values of '$name' of 'gamebatch $command' (not the first positional)"
      fi
    done < <(help_value_lists "${words[@]}")
  done
  echo "ok: the completion offers exactly the subcommands, options and value lists of every --help"

  # gen's game options: each game gets its own (its name starts a line of the option's
  # description: "willow: random|path|...") and their values.
  local games option game list
  games=$(help_value_lists gen | awk -F'\t' '$1 == "GAME" { gsub(/,/, " ", $2); print $2 }')
  [ -n "$games" ] || fail "'gamebatch gen --help' lists no games"
  local game_options
  game_options=$("$gamebatch" gen --help | awk '
    /^[^ ].*:$/ { in_group = ($0 ~ /^Game options/) }
    !in_group { next }
    /^  -/ { option = $1 }
    /^  / && option != "" {
      text = substr($0, 31)
      if (match(text, /^[a-z]+: /)) {
        game = substr(text, 1, RLENGTH - 2)
        rest = substr(text, RLENGTH + 1)
        values = match(rest, /^[a-z_]+([|][a-z_]+)+/) ? substr(rest, 1, RLENGTH) : ""
        print option "\t" game "\t" values
      }
    }')
  [ -n "$game_options" ] || fail "'gamebatch gen --help' shows no game options"
  for game in $games; do
    offered=$(completions "$script" gamebatch gen "$game" --)
    while read -r option; do
      if awk -F'\t' -v o="$option" -v g="$game" '$1 == o && $2 == g { found = 1 }
                                                  END { exit !found }' <<<"$game_options"; then
        grep -qx -- "$option" <<<"$offered" ||
          fail "completing 'gamebatch gen $game --' does not offer $option"
      elif grep -qx -- "$option" <<<"$offered"; then
        fail "completing 'gamebatch gen $game --' offers $option, an option of other games"
      fi
    done < <(cut -f1 <<<"$game_options" | sort -u)
  done
  while IFS=$'\t' read -r option game list; do
    [ -n "$list" ] || continue
    expect_completion "$script" "$(tr '|' '\n' <<<"$list" | sort)" \
      gamebatch gen "$game" "$option" ""
  done <<<"$game_options"
  echo "ok: gen's game options and their values follow the game"

  # A few by hand: words after '=', the file positionals, the end of options.
  expect_completion "$script" "$(printf '%s\n' boigame doublemove wallgame willow)" \
    gamebatch solve --problem = ""
  expect_completion "$script" wallgame gamebatch solve -p wa
  mkdir -p "$work/sets/willow"
  touch "$work/sets/a.toml" "$work/sets/b.in"
  expect_completion "$script" "$(printf '%s\n' sets/a.toml sets/willow)" gamebatch run sets/
  expect_completion "$script" sets/a.toml gamebatch run sets/a
  expect_completion "$script" "$(printf '%s\n' sets/a.toml sets/b.in sets/willow)" \
    gamebatch solve -p willow -- sets/
  expect_completion "$script" sets/willow gamebatch solve --out sets/
  expect_completion "$script" "" gamebatch solve --jobs ""
  echo "ok: values after '=', files, directories, numbers"
}

case $mode in
  tree) check_tree ;;
  deb) check_deb ;;
  completion) check_completion_against_help ;;
  *) fail "unknown mode $mode" ;;
esac
