# Bash completion for aerun: subcommands, their flags and fixed values, case files, table and
# plot names (from the case files) and case names (from the store). The words come from
# `aerun __complete ...`, so they follow the installed aerun. Installed as
# share/bash-completion/completions/aerun; to try it from a checkout:
#   source scripts/aerun-completion.bash

_aerun() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local aerun=${COMP_WORDS[0]} sub="" db=() cases=() i w
  COMPREPLY=()
  # The subcommand, and the --db / --cases already given (so names come from the same store and
  # case folder the command will read).
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    case $w in
      --db) db=(--db "${COMP_WORDS[i + 1]}"); ((i++)); continue ;;
      --cases) cases=(--cases "${COMP_WORDS[i + 1]}"); ((i++)); continue ;;
      -*) continue ;;
    esac
    [[ -z $sub ]] && sub=$w
  done
  local IFS=$'\n'
  if [[ -z $sub ]]; then
    if [[ $prev == --db ]]; then
      COMPREPLY=($(compgen -f -- "$cur"))
    elif [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W "--db"$'\n'"--help"$'\n'"--version" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$("$aerun" __complete subcommands 2>/dev/null)" -- "$cur"))
    fi
    return 0
  fi
  # The value of an option: its fixed values, a path, or a case name.
  if [[ $prev == -* ]] &&
    "$aerun" __complete valued "$sub" 2>/dev/null | grep -qxF -- "$prev"; then
    case $prev in
      --db | --cases | --out | --html | --hostfile | --log | --dir | -o)
        COMPREPLY=($(compgen -f -- "$cur"))
        ;;
      --case)
        COMPREPLY=($(compgen -W "$("$aerun" __complete cases "${db[@]}" 2>/dev/null)" -- "$cur"))
        [[ $sub == ingest ]] && COMPREPLY+=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur"))
        ;;
      *)
        COMPREPLY=($(compgen -W "$("$aerun" __complete values "$sub" "${prev#--}" 2>/dev/null)" -- "$cur"))
        ;;
    esac
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$("$aerun" __complete flags "$sub" 2>/dev/null; "$aerun" __complete valued "$sub" 2>/dev/null)" -- "$cur"))
    return 0
  fi
  case $sub in
    case)  # case files and folders
      COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur"))
      ;;
    table | plot)  # table names; plot names and the cases that have plots
      COMPREPLY=($(compgen -W "$("$aerun" __complete "${sub}s" "${cases[@]}" 2>/dev/null)" -- "$cur"))
      ;;
    *)
      COMPREPLY=($(compgen -f -- "$cur"))
      ;;
  esac
  return 0
}
complete -o filenames -F _aerun aerun
