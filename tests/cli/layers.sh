#!/bin/sh
#
# layers: the build's layers stay layers.
#
#   util < model < report < analysis < sources, synth < tui, headless
#
# 1. Includes: a file includes project headers only from its own layer or a
#    lower one, each spelt with its layer ("model/lane.h"); tui and headless
#    do not include each other (headless/main.c, the entry, is the one file
#    that sees both), sources and synth neither.
# 2. Symbols: every project symbol a layer's library leaves undefined is
#    defined in that library or a lower one (nm over the built libraries),
#    so a call upward fails here even where the link order would hide it.
#
# Environment: GPULENS (the built binary; the libraries lie beside it),
# GPULENS_SRCDIR.
set -u
src=${GPULENS_SRCDIR:-.}
bin=${GPULENS:-./gpulens}
build=$(dirname "$bin")
fails=0

rank() {
	case $1 in
	util) echo 0 ;;
	model) echo 1 ;;
	report) echo 2 ;;
	analysis) echo 3 ;;
	sources|synth) echo 4 ;;
	tui|headless) echo 5 ;;
	main) echo 6 ;;
	*) echo 99 ;;
	esac
}

# The layer of a file (path under the top) or of an include spelling.
layer_of() {
	case $1 in
	src/*/*) p=${1#src/}; echo "${p%%/*}" ;;
	util/*|model/*|report/*|analysis/*) echo "${1%%/*}" ;;
	sources/synth/*) echo synth ;;
	sources/*) echo sources ;;
	tui/*) echo tui ;;
	headless/main.c) echo main ;;
	headless/*) echo headless ;;
	*) echo unknown ;;
	esac
}

cd "$src" || exit 99
nfiles=0
for f in src/*/*.[ch] sources/*.[ch] sources/synth/*.[ch] tui/*.[ch] \
    headless/*.[ch]; do
	[ -f "$f" ] || continue
	nfiles=$((nfiles + 1))
	from=$(layer_of "$f")
	rf=$(rank "$from")
	for inc in $(sed -n 's/^#[ 	]*include[ 	]*"\([^"]*\)".*/\1/p' "$f"); do
		[ "$inc" = config.h ] && continue
		to=$(layer_of "$inc")
		if [ "$to" = unknown ]; then
			echo "FAIL: $f includes \"$inc\" without its layer"
			fails=$((fails + 1))
			continue
		fi
		rt=$(rank "$to")
		if [ "$rt" -gt "$rf" ] || { [ "$rt" -eq "$rf" ] &&
		    [ "$to" != "$from" ] && [ "$from" != main ]; }; then
			echo "FAIL: $f ($from) includes $inc ($to)"
			fails=$((fails + 1))
		fi
	done
done
echo "checked the includes of $nfiles files"

if ! command -v nm >/dev/null 2>&1; then
	echo "note: nm is not installed: the symbol check is skipped"
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX") || exit 99
	trap 'rm -rf "$tmp"' EXIT
	for l in util model report analysis sources synth tui headless; do
		a=$build/lib$l.a
		if [ ! -f "$a" ]; then
			echo "FAIL: $a is missing"
			fails=$((fails + 1))
			continue
		fi
		nm -g --defined-only "$a" 2>/dev/null |
		    awk 'NF == 3 { print $3 }' | sort -u >"$tmp/def.$l"
		nm -g --undefined-only "$a" 2>/dev/null |
		    awk 'NF >= 2 { print $NF }' | sort -u >"$tmp/und.$l"
	done
	cat "$tmp"/def.* | sort -u >"$tmp/alldefs"
	for l in util model report analysis sources synth tui headless; do
		[ -f "$tmp/und.$l" ] || continue
		r=$(rank "$l")
		: >"$tmp/ok"
		for k in util model report analysis sources synth tui headless; do
			rk=$(rank "$k")
			if [ "$k" = "$l" ] || [ "$rk" -lt "$r" ]; then
				cat "$tmp/def.$k" >>"$tmp/ok"
			fi
		done
		sort -u "$tmp/ok" -o "$tmp/ok"
		# Project symbols (defined in some layer) not allowed here.
		comm -12 "$tmp/und.$l" "$tmp/alldefs" | comm -23 - "$tmp/ok" \
		    >"$tmp/bad"
		while read -r sym; do
			owner=$(grep -lx "$sym" "$tmp"/def.* | head -n 1)
			echo "FAIL: lib$l.a uses $sym from ${owner##*/def.}"
			fails=$((fails + 1))
		done <"$tmp/bad"
	done
	echo "checked the symbols of the eight layer libraries"
fi

if [ "$fails" -ne 0 ]; then
	echo "$fails layer violation(s)"
	exit 1
fi
echo "ok: the layers hold"
