# bash completion for carillon-nse, generated from its option declarations: carillon-nse completions bash
# Use: source <(carillon-nse completions bash), or save it as
# ~/.local/share/bash-completion/completions/carillon-nse

_carillon_nse_reply() {
    mapfile -t COMPREPLY < <(compgen "$@" -- "$cur")
}

_carillon_nse() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=
    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
    # --name=VALUE: bash splits the word at '=' (COMP_WORDBREAKS); VALUE is completed for --name.
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    COMPREPLY=()
    if (( COMP_CWORD == 1 )); then
        _carillon_nse_reply -W 'process check replay drain open present scan batches upload readback summary merge doctor completions help --help --version'
        return 0
    fi
    case ${COMP_WORDS[1]} in
    help)
        (( COMP_CWORD == 2 )) && _carillon_nse_reply -W 'process check replay drain open present scan batches upload readback summary merge doctor completions'
        ;;
    process)
        case $prev in
        --container|--attachments|--record) _carillon_nse_reply -d; return 0 ;;
        --ca-file|--report|--app|--bundle|--summary) _carillon_nse_reply -f; return 0 ;;
        --budget|--max-bytes|--user-agent|--accept-language|--header|--expire-after|--jobs|--fail-on|--app-name|--shard|--record-inline) return 0 ;;
        --tls-minimum) _carillon_nse_reply -W '1.0 1.1 1.2 1.3'; return 0 ;;
        --format) _carillon_nse_reply -W 'json text junit'; return 0 ;;
        --shard-by) _carillon_nse_reply -W 'position image'; return 0 ;;
        esac
        if [[ $cur == -* ]]; then
            _carillon_nse_reply -W '--container --attachments --ca-file --budget --max-bytes --tls-minimum --no-forward-secrecy --user-agent --accept-language --header --expire-after --jobs --recursive --format --fail-on --report --app-name --app --lines --no-share --shard --shard-by --bundle --summary --record --record-inline --record-keep-secrets --help'
        else
            _carillon_nse_reply -f
        fi
        ;;
    check)
        case $prev in
        --attachments|--record) _carillon_nse_reply -d; return 0 ;;
        --ca-file|--report|--app|--bundle|--summary) _carillon_nse_reply -f; return 0 ;;
        --budget|--max-bytes|--user-agent|--accept-language|--header|--expire-after|--jobs|--fail-on|--app-name|--shard|--record-inline) return 0 ;;
        --tls-minimum) _carillon_nse_reply -W '1.0 1.1 1.2 1.3'; return 0 ;;
        --format) _carillon_nse_reply -W 'json text junit'; return 0 ;;
        --shard-by) _carillon_nse_reply -W 'position image'; return 0 ;;
        esac
        _carillon_nse_reply -W '--attachments --ca-file --budget --max-bytes --tls-minimum --no-forward-secrecy --user-agent --accept-language --header --expire-after --jobs --format --fail-on --report --app-name --app --no-share --shard --shard-by --bundle --summary --record --record-inline --record-keep-secrets --help'
        ;;
    replay)
        case $prev in
        --payload|--chain|--ca-file|--report|--app) _carillon_nse_reply -f; return 0 ;;
        --url|--entry|--at|--match-ignore-query|--budget|--max-bytes|--expire-after|--user-agent|--fail-on|--app-name) return 0 ;;
        --format) _carillon_nse_reply -W 'json text'; return 0 ;;
        --tls-minimum) _carillon_nse_reply -W '1.0 1.1 1.2 1.3'; return 0 ;;
        --attachments) _carillon_nse_reply -d; return 0 ;;
        esac
        if [[ $cur == -* ]]; then
            _carillon_nse_reply -W '--payload --url --entry --list --at --latin1-bodies --chain --match-ignore-query --check --format --budget --max-bytes --tls-minimum --no-forward-secrecy --ca-file --expire-after --user-agent --fail-on --attachments --report --app-name --app --help'
        else
            _carillon_nse_reply -f
        fi
        ;;
    drain)
        case $prev in
        --container|--queue) _carillon_nse_reply -d; return 0 ;;
        esac
        _carillon_nse_reply -W '--container --queue --help'
        ;;
    open)
        case $prev in
        --queue) _carillon_nse_reply -d; return 0 ;;
        --at) return 0 ;;
        esac
        if [[ $cur == -* ]]; then
            _carillon_nse_reply -W '--queue --at --help'
        else
            _carillon_nse_reply -f
        fi
        ;;
    present)
        case $prev in
        --queue) _carillon_nse_reply -d; return 0 ;;
        --at) return 0 ;;
        esac
        if [[ $cur == -* ]]; then
            _carillon_nse_reply -W '--queue --at --suppress --help'
        else
            _carillon_nse_reply -f
        fi
        ;;
    scan)
        case $prev in
        --queue) _carillon_nse_reply -d; return 0 ;;
        esac
        if [[ $cur == -* ]]; then
            _carillon_nse_reply -W '--queue --help'
        else
            _carillon_nse_reply -f
        fi
        ;;
    batches)
        case $prev in
        --queue) _carillon_nse_reply -d; return 0 ;;
        esac
        _carillon_nse_reply -W '--queue --help'
        ;;
    upload)
        case $prev in
        --queue) _carillon_nse_reply -d; return 0 ;;
        --endpoint|--max-attempts|--deadline) return 0 ;;
        --key-file|--ca-file|--sent-log) _carillon_nse_reply -f; return 0 ;;
        esac
        _carillon_nse_reply -W '--queue --endpoint --key-file --ca-file --max-attempts --deadline --sent-log --help'
        ;;
    readback)
        case $prev in
        --endpoint|--message|--max-attempts|--deadline) return 0 ;;
        --sent-log|--key-file|--ca-file) _carillon_nse_reply -f; return 0 ;;
        --format) _carillon_nse_reply -W 'json text'; return 0 ;;
        esac
        _carillon_nse_reply -W '--endpoint --message --sent-log --opens --key-file --ca-file --format --max-attempts --deadline --help'
        ;;
    summary)
        if [[ $cur == -* ]]; then
            _carillon_nse_reply -W '--help'
        else
            _carillon_nse_reply -W 'merge'
        fi
        ;;
    merge)
        case $prev in
        --lines|--summary|--report) _carillon_nse_reply -f; return 0 ;;
        --format) _carillon_nse_reply -W 'json junit'; return 0 ;;
        --fail-on) return 0 ;;
        esac
        if [[ $cur == -* ]]; then
            _carillon_nse_reply -W '--lines --summary --report --format --fail-on --help'
        else
            _carillon_nse_reply -f
        fi
        ;;
    doctor)
        case $prev in
        --format) _carillon_nse_reply -W 'json text'; return 0 ;;
        --at) return 0 ;;
        esac
        if [[ $cur == -* ]]; then
            _carillon_nse_reply -W '--format --at --help'
        else
            _carillon_nse_reply -f
        fi
        ;;
    completions)
        if [[ $cur == -* ]]; then
            _carillon_nse_reply -W '--help'
        else
            _carillon_nse_reply -W 'bash zsh fish'
        fi
        ;;
    esac
    return 0
}

complete -o filenames -F _carillon_nse carillon-nse
