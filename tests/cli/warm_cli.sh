#!/bin/sh
# warm_cli.sh: a warm load (the model mapped from the cache) answers every
# verb exactly as a load that parses the trace (--no-cache), on generated
# nsys and Kineto traces; a cache whose arrays are damaged, cut or moved is
# refused, the trace parsed again, the cache rewritten, and the answers are
# the same.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup python3

"$G" demo --out "$TMPD/n.sqlite" --events 20000 --gpus 2 --seed 7 \
    --plant all >/dev/null 2>&1 || fail "demo nsys"
"$G" demo --out "$TMPD/k.json" --events 5000 --gpus 2 --seed 3 \
    --format kineto >/dev/null 2>&1 || fail "demo kineto"

# verbs T: every verb of a trace, one per line, TRACE and KID for the
# trace and a kernel's id.
verbs() {
	cat <<'V'
info TRACE
summary TRACE
stats TRACE --type kernel
stats TRACE --type api
stats TRACE --type kernel --group-by name,device
gaps TRACE --scope device
timeline TRACE --buckets 50
overlap TRACE
nvtx TRACE
nvtx --tree TRACE
iters TRACE
search TRACE --type kernel --limit 40
search TRACE --from 1ms --to 3ms --limit 40
inspect TRACE KID
correlate TRACE KID
launch TRACE
graphs TRACE
streams TRACE
memcpy TRACE
comm TRACE
mpi TRACE
queue TRACE
flops TRACE
hardware TRACE
phases TRACE
window TRACE
findings TRACE
export --to csv TRACE
V
}

# run_all T TAG [--no-cache]: every verb's output to $TMPD/TAG.N
run_all() {
	t=$1 tag=$2; shift 2
	kid=$("$G" --no-cache search "$t" --type kernel --limit 1 --json |
	    sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p' | head -n 1)
	[ -n "$kid" ] || kid=0
	i=0
	verbs | while read -r line; do
		i=$((i + 1))
		cmd=$(printf '%s\n' "$line" | sed "s|TRACE|$t|; s|KID|$kid|")
		# shellcheck disable=SC2086
		"$G" "$@" $cmd --json >"$TMPD/$tag.$i" 2>/dev/null
		echo "rc=$?" >>"$TMPD/$tag.$i"
	done
}

# same TAG1 TAG2 T: every verb's answers equal
same() {
	i=0
	verbs | while read -r line; do
		i=$((i + 1))
		cmp -s "$TMPD/$1.$i" "$TMPD/$2.$i" ||
		    fail "$3: '$line' differs between $1 and $2:" \
		    "$(diff "$TMPD/$1.$i" "$TMPD/$2.$i" | head -6)"
	done || exit 1
}

# warm T: fails unless the next load of T is a warm one
warm() {
	GPULENS_TIMING=1 "$G" info "$1" >/dev/null 2>"$TMPD/e" || fail "info $1"
	GPULENS_TIMING=1 "$G" summary "$1" >/dev/null 2>"$TMPD/e" ||
	    fail "summary $1"
	grep -q "^timing: cache-read" "$TMPD/e" || fail "$1: no warm load"
	! grep -q "^timing: read" "$TMPD/e" || fail "$1: parsed again"
}

# damage T OFFSET-EXPR: flips a byte of T's cache at a python offset
# expression of n (the file's size) and h (the head's end)
damage() {
	c=$(ls "$XDG_CACHE_HOME"/gpulens/"$(basename "$1")"-*.gpulens)
	python3 - "$c" "$2" <<'PY'
import struct, sys
p, expr = sys.argv[1], sys.argv[2]
b = bytearray(open(p, "rb").read())
n = len(b)
h = 144 + struct.unpack_from("<Q", b, 112)[0]
if expr == "cut":
    b = b[:n - 4096]
else:
    b[eval(expr)] ^= 0x5a
open(p, "wb").write(bytes(b))
PY
}

for t in "$TMPD/n.sqlite" "$TMPD/k.json"; do
	b=$(basename "$t")
	run_all "$t" "cold-$b" --no-cache
	"$G" prep "$t" >/dev/null || fail "prep $t"
	warm "$t"
	run_all "$t" "warm-$b"
	same "cold-$b" "warm-$b" "$b"
	# Damaged arrays (past the head), a cut file, a damaged head:
	# refused, parsed again, rewritten, same answers.
	for d in "h + (n - h) // 2" "n - 1" "h + 70" cut "h - 3"; do
		damage "$t" "$d"
		GPULENS_TIMING=1 "$G" summary --json "$t" >"$TMPD/o" \
		    2>"$TMPD/e" || fail "$b: summary with a damaged cache ($d)"
		grep -q "^timing: read" "$TMPD/e" ||
		    fail "$b: damaged cache ($d) was trusted"
		cmp -s "$TMPD/o" "$TMPD/cold-$b.2" ||
		    { echo "rc=0" >>"$TMPD/o"; cmp -s "$TMPD/o" "$TMPD/cold-$b.2"; } ||
		    fail "$b: rebuilt answer differs ($d)"
		warm "$t"
	done
	run_all "$t" "again-$b"
	same "cold-$b" "again-$b" "$b (rebuilt)"
done
pass
