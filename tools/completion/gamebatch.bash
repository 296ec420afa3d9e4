# shellcheck shell=bash
# Bash completion for gamebatch(1), installed as share/bash-completion/completions/gamebatch.
# Only bash builtins: it works with or without the bash-completion package.
#
# The options mirror tools/*.cpp (solve and run share add_run_settings_options in
# solve_command.cpp). tests/install/install_test.sh checks them, and every value list here,
# against each subcommand's --help, so an option added there fails the test until added here.

_gamebatch_commands="solve run gen cache table validate validator check stress strength build
  explain draw"
_gamebatch_cache_commands="stats trim export import merge verify"
_gamebatch_games="willow doublemove wallgame boigame"
# Settings of solve and run. --mpi exists only in a build with the MPI mode.
_gamebatch_settings_flags="--no-cache --strict-cache -q --quiet --mpi"
_gamebatch_settings_valued="-j --jobs --cache --checkpoint --cache-min-solve-us --memory-budget
  --report --html --shard"
_gamebatch_gen_valued="--count --seed -o --out --cases-per-file -j --jobs"
_gamebatch_gen_willow="--cities --shape --coins --max-coin"
_gamebatch_gen_doublemove="--n --k --pattern"
_gamebatch_gen_wallgame="--height --width --costs --digits"
_gamebatch_gen_boigame="--size --shape --density --placement"
# The limits of check's and stress's solutions.
_gamebatch_judge_valued="-s --solution --time-limit --memory-limit --output-limit -j --jobs
  --sandbox-bind --sandbox-disk --max-processes --languages"
# Their sandbox's flags.
_gamebatch_judge_flags="--no-sandbox --sandbox-info"

# Sets flags (options without a value) and valued (options taking one) of a (sub)command.
_gamebatch_options() {
  flags="-h --help"
  valued=""
  case $1 in
    "") flags+=" --version" ;;
    solve)
      flags+=" $_gamebatch_settings_flags"
      valued="-p --problem -o --out --layout $_gamebatch_settings_valued"
      ;;
    run)
      flags+=" $_gamebatch_settings_flags"
      valued=$_gamebatch_settings_valued
      ;;
    validate)
      flags+=" --lenient --invalid --no-cache $_gamebatch_judge_flags"
      valued="-p --problem --layout -o --out --cache --report --html --time-limit --memory-limit
        --output-limit -j --jobs --sandbox-bind --sandbox-disk --max-processes --languages"
      ;;
    validator) valued="--limits" ;;
    explain) valued="-p --problem --case -j --jobs --svg" ;;
    draw) valued="-p --problem --case -o --out -j --jobs" ;;
    check)
      flags+=" --no-cache --all-runs $_gamebatch_judge_flags"
      valued="-p --problem $_gamebatch_judge_valued --cache --report --html --layout"
      ;;
    build)
      flags+=" --no-cache $_gamebatch_judge_flags"
      valued="--time-limit --memory-limit --output-limit -j --jobs --sandbox-bind --sandbox-disk
        --max-processes --languages --cache --report --html --layout"
      ;;
    strength)
      flags+=" --fill --select --all-runs --no-cache $_gamebatch_judge_flags"
      valued="-p --problem --select-out --select-seconds --stress-cases --search-cases --mutants
        --seed --time-limit --memory-limit --output-limit -j --jobs --sandbox-bind --sandbox-disk
        --max-processes --languages --cache --report --html --layout"
      ;;
    gen | stress)
      if [[ $1 == gen ]]; then
        valued=$_gamebatch_gen_valued
      else
        flags+=" $_gamebatch_judge_flags"
        valued="-p --problem $_gamebatch_judge_valued --count --seed -o --out --html --package
          --group"
      fi
      case $2 in
        willow) valued+=" $_gamebatch_gen_willow" ;;
        doublemove) valued+=" $_gamebatch_gen_doublemove" ;;
        wallgame) valued+=" $_gamebatch_gen_wallgame" ;;
        boigame) valued+=" $_gamebatch_gen_boigame" ;;
        *)
          valued+=" $_gamebatch_gen_willow $_gamebatch_gen_doublemove $_gamebatch_gen_wallgame"
          valued+=" --size --density --placement"
          ;;
      esac
      ;;
    "cache trim") valued="--max-size" ;;
    "cache export") valued="--format -o --output" ;;
    table) valued="--max-n --format --jobs -j" ;;
  esac
}

_gamebatch_words() {
  mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur")
}

_gamebatch_files() {
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen "${@:--f}" -- "$cur")
}

# The values of an option's argument; returns 1 when the option takes none.
_gamebatch_value() {
  local command=$1 game=$2 option=$3
  case $option in
    -p | --problem) _gamebatch_words "$_gamebatch_games" ;;
    -o | --out) _gamebatch_files -d ;;
    --cache | --report | --html | --output | --sandbox-bind | --languages) _gamebatch_files ;;
    --layout)
      if [[ $command == build ]]; then
        _gamebatch_words "kattis cms"
      else
        _gamebatch_words "kattis polygon cms"
      fi
      ;;
    --package | --select-out) _gamebatch_files -d ;;
    --format)
      if [[ $command == table ]]; then
        _gamebatch_words "cpp json csv"
      else
        _gamebatch_words "jsonl bundle"
      fi
      ;;
    --shape)
      case $game in
        willow) _gamebatch_words "random path star caterpillar broom binary mixed" ;;
        boigame) _gamebatch_words "open sparse dense snake maze mixed" ;;
        *) _gamebatch_words "random path star caterpillar broom binary open sparse dense snake maze
                             mixed" ;;
      esac
      ;;
    --coins) _gamebatch_words "all_zero all_equal mixed" ;;
    --pattern) _gamebatch_words "uniform loops repeats forest ending mixed" ;;
    --costs) _gamebatch_words "uniform all_zero all_nine all_equal low sparse columns mixed" ;;
    --placement) _gamebatch_words "corners random mixed" ;;
    *) COMPREPLY=() ;;  # a number, a size, a range: nothing to offer
  esac
}

_gamebatch() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" cword=$COMP_CWORD
  ((cword > 0)) && prev=${COMP_WORDS[cword - 1]}
  # "--opt=VALUE" reaches us as --opt, =, VALUE ('=' breaks words).
  if [[ $cur == "=" ]]; then
    cur="" prev=${COMP_WORDS[cword - 1]}
  elif [[ $prev == "=" ]] && ((cword > 1)); then
    prev=${COMP_WORDS[cword - 2]}
    ((cword--))
  fi
  COMPREPLY=()

  # What the words before this one say: the (sub)command, gen's game, the positionals so far.
  local command="" game="" word flags valued i skip=0 dashdash=0
  local -a positionals=()
  _gamebatch_options ""
  for ((i = 1; i < cword; i++)); do
    word=${COMP_WORDS[i]}
    if ((skip)); then
      skip=0
    elif ((dashdash)) || [[ $word != -* ]]; then
      [[ $word == "=" ]] && continue
      if [[ -z $command ]]; then
        command=$word
      elif [[ $command == cache && ${#positionals[@]} -eq 0 ]]; then
        command="cache $word"
      else
        positionals+=("$word")
        [[ $command == gen && ${#positionals[@]} -eq 1 ]] && game=$word
      fi
      _gamebatch_options "$command" "$game"
    elif [[ $word == -- ]]; then
      dashdash=1
    elif [[ " $valued " == *" $word "* && ${COMP_WORDS[i + 1]} != "=" ]]; then
      skip=1
      # stress takes its game from --problem, and then only that game's options.
      if [[ $command == stress && ($word == -p || $word == --problem) ]]; then
        game=${COMP_WORDS[i + 1]}
        _gamebatch_options "$command" "$game"
      fi
    elif [[ " $valued " == *" $word "* ]]; then
      ((i++, skip = 1))  # --opt = VALUE
    fi
  done

  if ((!dashdash)) && [[ " $valued " == *" $prev "* ]]; then
    _gamebatch_value "$command" "$game" "$prev"
    return 0
  fi
  if ((!dashdash)) && [[ $cur == -* ]]; then
    _gamebatch_words "$flags $valued"
    return 0
  fi
  # A positional argument; where none is left, the options.
  local first=$((${#positionals[@]} == 0))
  case $command in
    "") _gamebatch_words "$_gamebatch_commands" ;;
    cache) _gamebatch_words "$_gamebatch_cache_commands" ;;
    solve | validate | check | "cache import" | "cache merge") _gamebatch_files ;;
    build | strength)
      if ((first)); then
        _gamebatch_files -d
      else
        _gamebatch_words "$flags $valued"
      fi
      ;;
    run)
      if ((first)); then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -d -- "$cur"; compgen -f -X '!*.toml' -- "$cur")
      else
        _gamebatch_words "$flags $valued"
      fi
      ;;
    stress) _gamebatch_words "$flags $valued" ;;
    gen)
      if ((first)); then
        _gamebatch_words "$_gamebatch_games"
      else
        _gamebatch_words "$flags $valued"
      fi
      ;;
    validator)
      if ((first)); then
        _gamebatch_words "$_gamebatch_games"
      else
        _gamebatch_words "$flags $valued"
      fi
      ;;
    table)
      if ((first)); then
        _gamebatch_words "doublemove"  # the only game with a table
      else
        _gamebatch_words "$flags $valued"
      fi
      ;;
    "cache stats" | "cache verify" | "cache export" | "cache trim")
      if ((first)); then
        _gamebatch_files
      else
        _gamebatch_words "$flags $valued"
      fi
      ;;
  esac
  return 0
}

complete -F _gamebatch gamebatch
