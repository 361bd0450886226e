#!/bin/sh
# cachedir_cli: the cache directory end to end.
#  - Loading traces in a writable directory writes nothing beside them
#    (real fixtures copied to a writable place, as root and as nobody).
#  - A trace replaced while prep reads it, or replaced by a capture of the
#    same size with its mtime set back, is never answered from the old
#    capture's cache.
#  - /dev/stdin is read without writing into /dev.
#  - SIGINT during a cache write leaves no temporary file; temporaries of
#    a dead writer, or idle for an hour, are swept; a live one is not.
#  - An unusable cache directory costs one warning, never the load.
#  - GPULENS_CACHE_MAX evicts the least recently used files.
#  - clean TRACE and clean --all; --no-cache writes nothing anywhere.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup
C="$XDG_CACHE_HOME/gpulens"
export TMPDIR="$TMPD/tmp"
mkdir "$TMPDIR"

# listing DIR: names, sizes and hashes of everything under DIR.
listing() {
	(cd "$1" && find . -print | LC_ALL=C sort | while read -r f; do
		if [ -f "$f" ]; then
			printf '%s %s\n' "$f" "$(md5sum <"$f")"
		else
			printf '%s\n' "$f"
		fi
	done)
}

# 1. Real profiles in a writable directory: every verb, nothing beside.
FX=${GPULENS_FIXTURES:-}
if [ -n "$FX" ] && [ -d "$FX" ]; then
	W="$TMPD/fx"
	mkdir "$W"
	for f in nsys/nsys-ai/mock.sqlite nsys/nsys-ai/mfu_2gpu_before.sqlite \
	    rocpd/rocmProfileData/mytrace.rpd.gz \
	    rocpd/rocmProfileData/matmul_result.rpd \
	    kineto/hta/amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz \
	    ncu/speedy_scan/profile.ncu-rep; do
		[ -f "$FX/$f" ] && cp "$FX/$f" "$W/"
	done
	chmod -R u+w,go+rX "$W"
	chmod 777 "$W"
	before=$(listing "$W")
	for t in "$W"/*; do
		case "$t" in
		*.ncu-rep) verbs="info launches rules" ;;
		*) verbs="info summary stats search nvtx gaps findings" ;;
		esac
		for v in $verbs; do
			"$G" "$v" "$t" >/dev/null 2>"$TMPD/err" ||
			    fail "$v $t: $(cat "$TMPD/err")"
		done
		case "$t" in
		*.ncu-rep) ;;
		*) "$G" prep "$t" >/dev/null 2>&1 || fail "prep $t" ;;
		esac
	done
	[ "$before" = "$(listing "$W")" ] ||
	    fail "loading wrote beside the traces: $(ls -A "$W")"
	# As an unprivileged user, with a cache directory of its own.
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
		NB="$TMPD/nobody"
		mkdir "$NB" && chown 65534:65534 "$NB" && chmod 755 "$TMPD"
		for t in "$W"/*.sqlite "$W"/*.gz; do
			XDG_CACHE_HOME="$NB" TMPDIR="$NB" setpriv --reuid=65534 \
			    --regid=65534 --clear-groups "$G" summary "$t" \
			    >/dev/null 2>"$TMPD/err" ||
			    fail "summary $t as nobody: $(cat "$TMPD/err")"
		done
		[ "$before" = "$(listing "$W")" ] ||
		    fail "loading as nobody wrote beside the traces"
		[ -n "$(ls -A "$NB/gpulens")" ] ||
		    fail "no cache written as nobody"
	fi
else
	echo "fixtures absent: the real-profile part is skipped"
fi

# 2. A trace replaced while prep reads it: the cache must answer for the
# file at the path afterwards, whichever capture prep read.
BIG="$TMPD/big.sqlite"
SMALL="$TMPD/small.sqlite"
T="$TMPD/t.sqlite"
"$G" demo --out "$BIG" --events 400000 --seed 5 >/dev/null 2>&1 || fail "demo big"
"$G" demo --out "$SMALL" --events 3000 --seed 6 >/dev/null 2>&1 || fail "demo small"
"$G" --no-cache info --json "$SMALL" | sed "s|$SMALL|$T|g" >"$TMPD/small.json" ||
    fail "info small"
for delay in 0.05 0.2 0.4; do
	"$G" clean "$T" >/dev/null
	cp "$BIG" "$T"
	"$G" prep "$T" >/dev/null 2>&1 &
	p=$!
	sleep "$delay"
	cp "$SMALL" "$T.new" && mv "$T.new" "$T"
	wait "$p"
	"$G" info --json "$T" >"$TMPD/got.json" 2>/dev/null || fail "info after swap"
	cmp -s "$TMPD/got.json" "$TMPD/small.json" ||
	    fail "replaced during prep ($delay s): the old capture answers"
done

# 3. Same size, mtime set back (cp -p, rsync -a): the new capture counts.
A="$TMPD/a.sqlite"
B="$TMPD/b.sqlite"
"$G" demo --out "$A" --events 20000 --seed 1 >/dev/null 2>&1 || fail "demo a"
"$G" demo --out "$B" --events 20000 --seed 2 >/dev/null 2>&1 || fail "demo b"
[ "$(wc -c <"$A")" = "$(wc -c <"$B")" ] || echo "note: sizes differ"
"$G" --no-cache stats --json "$B" >"$TMPD/wantb"
"$G" stats --json "$A" >/dev/null || fail "stats a"
touch -r "$A" "$B"
cp -p "$B" "$A"
"$G" stats --json "$A" >"$TMPD/gotb"
sed 's/b\.sqlite/a.sqlite/g' "$TMPD/wantb" >"$TMPD/wantb2"
cmp -s "$TMPD/wantb2" "$TMPD/gotb" ||
    fail "same size and mtime: the old capture's cache was used"

# 4. /dev/stdin: read, nothing written into /dev.
"$G" summary /dev/stdin <"$SMALL" >/dev/null 2>"$TMPD/err" ||
    fail "summary /dev/stdin: $(cat "$TMPD/err")"
[ ! -e /dev/.stdin.gpulens ] || fail "wrote /dev/.stdin.gpulens"

# 5. Temporaries. SIGINT while the cache is written leaves none.
for delay in 0.3 0.6 0.8 0.9 1.0; do
	"$G" clean "$BIG" >/dev/null
	"$G" prep "$BIG" >/dev/null 2>&1 &
	p=$!
	sleep "$delay"
	kill -INT "$p" 2>/dev/null
	wait "$p"
	[ -z "$(find "$C" -name '*.tmp-*')" ] ||
	    fail "SIGINT after $delay s left $(ls "$C")"
done
# A dead writer's temporary and an hour-old one are swept by the next
# write; a live writer's stays.
host=$(hostname 2>/dev/null | tr -c 'A-Za-z0-9\n' '_' | cut -c1-24)
[ -n "$host" ] || host=_
sh -c 'exit 0' &
dead=$!
wait "$dead"
mkdir -p "$C"
: >"$C/x.gpulens.tmp-$dead-$host-AbC123"
: >"$C/y.gpulens.Zz9876"
touch -d '2 hours ago' "$C/y.gpulens.Zz9876"
: >"$C/z.gpulens.tmp-$$-$host-QqQ111"
"$G" clean "$SMALL" >/dev/null
"$G" prep "$SMALL" >/dev/null 2>&1 || fail "prep small"
[ ! -e "$C/x.gpulens.tmp-$dead-$host-AbC123" ] || fail "dead writer's temporary kept"
[ ! -e "$C/y.gpulens.Zz9876" ] || fail "hour-old temporary kept"
[ -e "$C/z.gpulens.tmp-$$-$host-QqQ111" ] || fail "a live writer's temporary was removed"
rm -f "$C/z.gpulens.tmp-$$-$host-QqQ111"

# 6. An unusable cache directory: the answer, exit 0, one warning.
: >"$TMPD/notadir"
XDG_CACHE_HOME="$TMPD/notadir" "$G" summary --json "$SMALL" >"$TMPD/out" \
    2>"$TMPD/err" || fail "unusable cache directory: $(cat "$TMPD/err")"
n=$(grep -o 'cache not written' "$TMPD/out" | wc -l)
[ "$n" -eq 1 ] || fail "$n cache warnings: $(cat "$TMPD/out")"

# 7. GPULENS_CACHE_MAX: least recently used first.
"$G" clean --all >/dev/null
for s in 11 12 13; do
	"$G" demo --out "$TMPD/l$s.sqlite" --events 20000 --seed $s >/dev/null 2>&1
done
"$G" prep "$TMPD/l11.sqlite" "$TMPD/l12.sqlite" || fail "prep l11 l12"
one=$(du -k "$C"/l11.sqlite-*.gpulens | cut -f1)
sleep 1.1
"$G" info "$TMPD/l11.sqlite" >/dev/null	# l11 used after l12
sleep 1.1
GPULENS_CACHE_MAX="$((one * 5 / 2))K" "$G" prep "$TMPD/l13.sqlite" ||
    fail "prep l13"
ls "$C"/l11.sqlite-*.gpulens >/dev/null 2>&1 || fail "recently used l11 evicted"
ls "$C"/l13.sqlite-*.gpulens >/dev/null 2>&1 || fail "new l13 evicted"
ls "$C"/l12.sqlite-*.gpulens >/dev/null 2>&1 && fail "least recently used l12 kept"

# 8. clean --all empties the directory.
expect_rc 0 "$G" clean --all
grep -q "^removed [1-9]" "$TMPD/out" || fail "clean --all: $(cat "$TMPD/out")"
[ -z "$(ls -A "$C")" ] || fail "clean --all left $(ls -A "$C")"
expect_rc 2 "$G" clean --all "$SMALL"
expect_rc 2 "$G" clean

# 9. --no-cache writes nothing, anywhere, even for a compressed database.
rm -rf "$XDG_CACHE_HOME"
if [ -n "$FX" ] && [ -f "$FX/rocpd/rocmProfileData/mytrace.rpd.gz" ]; then
	expect_rc 0 "$G" --no-cache summary "$FX/rocpd/rocmProfileData/mytrace.rpd.gz"
	[ ! -e "$XDG_CACHE_HOME" ] || fail "--no-cache made $(find "$XDG_CACHE_HOME")"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "--no-cache left $(ls -A "$TMPDIR")"
fi
# (A compressed Nsight Systems export reads like the plain one.)
gzip -c "$SMALL" >"$TMPD/s.sqlite.gz"
expect_rc 0 "$G" --no-cache stats --json "$TMPD/s.sqlite.gz"
sed "s|s.sqlite.gz|small.sqlite|g" "$TMPD/out" >"$TMPD/gz.json"
expect_rc 0 "$G" --no-cache stats --json "$SMALL"
sed "s|$TMPD/||g" "$TMPD/out" >"$TMPD/plain.json"
sed -i "s|$TMPD/||g" "$TMPD/gz.json"
cmp -s "$TMPD/gz.json" "$TMPD/plain.json" || fail "a gzipped export reads differently: $(diff "$TMPD/gz.json" "$TMPD/plain.json" | cut -c1-300)"
[ ! -e "$XDG_CACHE_HOME" ] || fail "--no-cache made $(find "$XDG_CACHE_HOME")"
[ -z "$(ls -A "$TMPDIR")" ] || fail "--no-cache left $(ls -A "$TMPDIR")"
expect_rc 2 "$G" --no-cache prep "$SMALL"

# 10. prep --beside writes next to the trace; clean removes it.
expect_rc 0 "$G" prep --beside "$SMALL"
[ -s "$TMPD/.small.sqlite.gpulens" ] || fail "prep --beside wrote nothing"
GPULENS_TIMING=1 "$G" info "$SMALL" >/dev/null 2>"$TMPD/err"
grep -q "^timing: cache-read" "$TMPD/err" || fail "the cache beside was not read"
expect_rc 0 "$G" clean "$SMALL"
[ ! -e "$TMPD/.small.sqlite.gpulens" ] || fail "clean left the cache beside"
pass
