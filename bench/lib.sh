# bench/lib.sh: what the benchmarks share; sourced by every bench/*.sh
# script (BENCH_NAME, the name messages give, is the script's file name):
#
#   die MSG...            the message on stderr, exit 2
#   bench_reps DEFAULT    sets REPS to BENCH_REPS (default DEFAULT); dies
#                         unless it is a positive integer
#   bench_binary          sets GPULENS (default ./gpulens, then the one in
#                         the source tree, then gpulens in PATH) and here
#                         (the source tree)
#   bench_dir PREFIX      sets DIR (BENCH_DIR, kept; else a new mktemp
#                         directory, removed at exit unless BENCH_KEEP=1)
#                         and KEEP
#   bench_rss [optional]  defines rss_run OUT CMD... (peak RSS in KiB into
#                         OUT, with GNU time or the bench/rss helper) and
#                         sets RSS_HOW; without a way to measure it, dies,
#                         or with "optional" writes 0
#   bench_timed LABEL CMD...  runs CMD under rss_run, its output in
#                         $DIR/LABEL.out and .err (a failure ends the run
#                         with its errors); sets T (seconds) and K (KiB)
#   bench_machine         prints the machine and load lines of a report
#   now, elapsed A B, median V..., rss_of FILE, to_int 1eN, columns [-l]
#                         clock, arithmetic and table helpers
#   bench_verbs [all], verb_args LINE TRACE KID
#                         the verbs timed on a cached trace (VERB_LIST)

BENCH_NAME=${0##*/}
die() { echo "$BENCH_NAME: $*" >&2; exit 2; }

bench_reps() {
	REPS=${BENCH_REPS:-$1}
	case $REPS in ''|*[!0-9]*|0) die "BENCH_REPS must be a positive integer";; esac
}

# The benchmarks measure computing: stored verb answers (gpulens(1),
# Answers) are bypassed unless asked for (bench_1e8.sh measures them apart).
: "${GPULENS_ANSWERS:=0}"
export GPULENS_ANSWERS

bench_binary() {
	here=$(cd "$(dirname "$0")/.." && pwd)
	if [ -z "${GPULENS:-}" ]; then
		if [ -x ./gpulens ]; then GPULENS=./gpulens
		elif [ -x "$here/gpulens" ]; then GPULENS=$here/gpulens
		else GPULENS=$(command -v gpulens) || die "no gpulens: build it or set GPULENS"
		fi
	fi
	[ -x "$GPULENS" ] || die "$GPULENS is not executable"
}

bench_dir() {
	if [ -n "${BENCH_DIR:-}" ]; then
		DIR=$BENCH_DIR
		mkdir -p "$DIR" || die "cannot create $DIR"
		KEEP=1
	else
		DIR=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || die "mktemp"
		KEEP=${BENCH_KEEP:-0}
	fi
	trap '[ "$KEEP" = 1 ] || rm -rf "$DIR"' EXIT
	trap 'exit 130' INT TERM
}

# Peak RSS: GNU time, else our helper (next to the binary in a VPATH
# build, or in the source tree), else nothing.
bench_rss() {
	local h
	RSS_HELPER=
	for h in "$(dirname "$GPULENS")/bench/rss" ./bench/rss "$here/bench/rss"; do
		if [ -x "$h" ]; then RSS_HELPER=$h; break; fi
	done
	if /usr/bin/time -f %M -o /dev/null true >/dev/null 2>&1; then
		RSS_HOW="/usr/bin/time -f %M"
		rss_run() { local o=$1; shift; /usr/bin/time -f %M -o "$o" "$@"; }
	elif [ -n "$RSS_HELPER" ]; then
		RSS_HOW="$RSS_HELPER"
		rss_run() { "$RSS_HELPER" -o "$@"; }
	elif [ "${1:-}" = optional ]; then
		RSS_HOW="not measured (no GNU time, bench/rss not built)"
		rss_run() { local o=$1; shift; echo 0 >"$o"; "$@"; }
	else
		die "no way to measure peak RSS (no GNU time, bench/rss not built)"
	fi
}

bench_timed() {
	local label=$1 t0 t1
	shift
	t0=$(now)
	if ! rss_run "$DIR/$label.rss" "$@" >"$DIR/$label.out" 2>"$DIR/$label.err"; then
		echo "$BENCH_NAME: '$*' failed:" >&2
		cat "$DIR/$label.err" >&2
		exit 2
	fi
	t1=$(now)
	T=$(elapsed "$t0" "$t1")
	K=$(rss_of "$DIR/$label.rss")
}

bench_machine() {
	local cpu mem
	cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
	[ -n "$cpu" ] || cpu=$(uname -p)
	mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
	echo "machine:  $(nproc 2>/dev/null || echo '?') CPUs, ${cpu:-unknown CPU}, ${mem:-? memory}, $(uname -sr)"
	echo "load:     $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') (1, 5, 15 min)"
}

now() {
	if [ -n "${EPOCHREALTIME:-}" ]; then echo "${EPOCHREALTIME/,/.}"
	else date +%s.%N
	fi
}
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", b - a }'; }
# median of the arguments (mean of the middle two for an even count)
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
	    END { if (NR == 0) print "nan"
	          else if (NR % 2) printf "%.6f\n", v[(NR + 1) / 2]
	          else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# last line of an RSS file (GNU time prefixes a status line on failure)
rss_of() { tail -n 1 "$1" | tr -dc '0-9'; }
to_int() { awk -v x="$1" 'BEGIN { if (x !~ /^[0-9.]+([eE][0-9]+)?$/) exit 1; printf "%.0f\n", x }'; }
# columns [-l]: stdin's whitespace-separated fields right-aligned in
# columns (with -l, the first column left-aligned)
columns() {
	local first='%*s'
	[ "${1:-}" = -l ] && first='%-*s'
	awk -v first="$first" '{ for (i = 1; i <= NF; i++) { c[NR, i] = $i
	    if (length($i) > w[i]) w[i] = length($i) } n = NR; if (NF > nf) nf = NF }
	    END { for (r = 1; r <= n; r++) { line = ""
	    for (i = 1; i <= nf; i++) line = line sprintf(i == 1 ? first : "  %*s", w[i], c[r, i])
	    print line } }'
}

# The verbs timed on a cached trace, TRACE and KID (a kernel's row id)
# standing for their values; those marked "+" only bench_1e8.sh times.
VERB_LIST=(
	"info TRACE"
	"summary TRACE"
	"stats TRACE --type kernel"
	"stats TRACE --type api"
	"stats TRACE --type kernel --group-by name,device"
	"nvtx TRACE"
	"iters TRACE"
	"gaps TRACE --scope device"
	"timeline TRACE --buckets 100"
	"overlap TRACE"
	"search TRACE --type kernel --limit 50"
	"inspect TRACE KID"
	"correlate TRACE KID"
	"launch TRACE"
	"+streams TRACE"
	"memcpy TRACE"
	"comm TRACE"
	"+queue TRACE"
	"hardware TRACE"
	"+phases TRACE"
	"+window TRACE"
	"+findings TRACE"
	"+stats TRACE --group-by nvtx-path"
	"+stats TRACE --group-by iter"
	"+stats TRACE --type kernel --group-by name,iter"
	"+stats TRACE --group-by nvtx-path,iter"
	"+nvtx TRACE --tree"
	"+launch TRACE --group-by none"
	"+graphs TRACE"
	"+flops TRACE"
	"+ranks TRACE"
)
# bench_verbs [all]: sets VERBS to VERB_LIST without the "+" ones, or
# with "all" to every one (the mark dropped)
bench_verbs() {
	local v
	VERBS=()
	for v in "${VERB_LIST[@]}"; do
		case $v in
		+*) [ "${1:-}" = all ] && VERBS+=("${v#+}");;
		*) VERBS+=("$v");;
		esac
	done
}
# verb_args LINE TRACE KID: sets cmd to the words of LINE (a VERBS entry)
# and args to them with TRACE and KID replaced by the values given
verb_args() {
	local a
	read -r -a cmd <<<"$1"
	args=()
	for a in "${cmd[@]}"; do
		case $a in
		TRACE) args+=("$2");;
		KID) args+=("$3");;
		*) args+=("$a");;
		esac
	done
}
