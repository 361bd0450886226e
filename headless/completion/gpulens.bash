# bash completion for gpulens: verbs, options, option values (--type,
# --sort, --scope, --format, ...) and file names, all as the gpulens being
# completed describes them (`gpulens complete`).
_gpulens()
{
	local cur=${COMP_WORDS[COMP_CWORD]} line files=0 out IFS=$'\n'

	out=$("${COMP_WORDS[0]}" complete "${COMP_WORDS[@]:1:COMP_CWORD}" \
	    2>/dev/null) || return 0
	COMPREPLY=()
	for line in $out; do
		if [[ $line == @files ]]; then
			files=1
		else
			COMPREPLY+=("$line")
		fi
	done
	if ((files)); then
		compopt -o filenames 2>/dev/null
		COMPREPLY+=($(compgen -f -- "$cur"))
	fi
	return 0
}
complete -F _gpulens gpulens
