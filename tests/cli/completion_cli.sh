#!/bin/sh
# completion_cli: `gpulens complete` and the bash completion script built
# on it offer the verbs, a verb's options (those its parser accepts), the
# values of --type, --sort (the verb's JSON fields), --scope, --format,
# --to and --min-confidence, the schemas' verbs, and file names where a
# trace goes; the zsh script parses where zsh is installed.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
S="$GPULENS_SRCDIR/headless/completion"

has() {	# has WORD: the last output holds the line WORD
	grep -qx -- "$1" "$TMPD/out" || fail "no '$1' in: $(tr '\n' ' ' <"$TMPD/out")"
}
hasnt() {
	grep -qx -- "$1" "$TMPD/out" && fail "'$1' offered: $(tr '\n' ' ' <"$TMPD/out")"
	return 0
}
expect_rc 0 "$G" complete ""
has stats; has summary; has mcp; has @files; hasnt complete
expect_rc 0 "$G" complete st
has stats; hasnt summary
expect_rc 0 "$G" complete --no
has --no-cache; has --no-color; has --no-progress
expect_rc 0 "$G" complete --li
has --list-keys
expect_rc 0 "$G" complete --su
has --summaries
expect_rc 0 "$G" complete stats --
has --type; has --group-by; has --sort; has --help; hasnt --tree; hasnt --scope
expect_rc 0 "$G" complete nvtx --t
has --tree; has --tid
expect_rc 0 "$G" complete stats --type ""
has kernel; has memcpy; has comm; has nvtx; hasnt @files
expect_rc 0 "$G" complete stats --sort ""
has total_ns; has count; has name
expect_rc 0 "$G" complete gaps --scope ""
has stream; has device; has all
expect_rc 0 "$G" complete stats --format ""
has table; has json; has csv
expect_rc 0 "$G" complete export --to ""
has perfetto; has csv
expect_rc 0 "$G" complete findings --min-confidence ""
has low; has medium; has high
expect_rc 0 "$G" complete findings --m
has --min-confidence
expect_rc 0 "$G" complete prep --
has --beside
expect_rc 0 "$G" complete schema ""
has stats; has nvtx; hasnt mcp; hasnt demo
expect_rc 0 "$G" complete stats --limit ""
[ -s "$TMPD/out" ] && fail "--limit N offered: $(cat "$TMPD/out")"
expect_rc 0 "$G" complete stats x.sqlite ""
has @files
# Every option offered for every verb is one its parser accepts: it fails
# on a missing trace, never on an unknown option.
for v in $("$G" complete "" | grep -v '^@'); do
	case "$v" in demo|mcp|recipes|schema|prep|clean) continue ;; esac
	for o in $("$G" complete "$v" --); do
		[ "$o" = --help ] && continue
		"$G" "$v" "$o" >/dev/null 2>"$TMPD/err"
		grep -qi "unknown option\|not an option\|does not take" "$TMPD/err" &&
		    fail "$v offers $o but refuses it: $(cat "$TMPD/err")"
	done
done

# The bash script.
if command -v bash >/dev/null 2>&1; then
	cat >"$TMPD/t.bash" <<EOS
compopt() { :; }
complete() { :; }
. "$S/gpulens.bash"
COMP_WORDS=("$G" stats --ty); COMP_CWORD=2; _gpulens
printf '%s\n' "\${COMPREPLY[@]}" >"$TMPD/b1"
COMP_WORDS=("$G" gaps --scope ""); COMP_CWORD=3; _gpulens
printf '%s\n' "\${COMPREPLY[@]}" >"$TMPD/b2"
cd "$TMPD" && : >trace-one.sqlite
COMP_WORDS=("$G" summary trace-); COMP_CWORD=2; _gpulens
printf '%s\n' "\${COMPREPLY[@]}" >"$TMPD/b3"
EOS
	bash "$TMPD/t.bash" || fail "the bash script failed"
	[ "$(cat "$TMPD/b1")" = "--type" ] || fail "bash: stats --ty: $(cat "$TMPD/b1")"
	[ "$(tr '\n' ' ' <"$TMPD/b2")" = "stream device all " ] ||
	    fail "bash: gaps --scope: $(cat "$TMPD/b2")"
	[ "$(cat "$TMPD/b3")" = "trace-one.sqlite" ] ||
	    fail "bash: file names: $(cat "$TMPD/b3")"
fi
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$S/_gpulens" || fail "the zsh script does not parse"
fi
pass
