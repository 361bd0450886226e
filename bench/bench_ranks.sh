#!/usr/bin/env bash
# bench_ranks.sh: `gpulens ranks` and `gpulens comm` of a job of many small
# ranks, from the ranks' summaries against merging every rank's model.
#
# Run by hand from the source tree after building (not part of make check):
#
#     bench/bench_ranks.sh                       # 1024 ranks, 3 runs
#     BENCH_RANKS=256 BENCH_REPS=1 bench/bench_ranks.sh
#
# It writes a job of BENCH_RANKS ranks (gpulens demo --format kineto
# --gpus RANKS --rank R --events BENCH_EVENTS, one file each), preps it
# (gpulens prep --jobs 2: caches and rank summaries), then measures, warm
# (every cache and summary there), R times each, and reports medians of
# wall clock and peak RSS (GNU time's %M, else bench/rss):
#
#   full       gpulens VERB --full --json DIR   (every model loaded and
#              merged)
#   summaries  gpulens VERB --summaries --json DIR   (summaries only)
# for VERB ranks and comm (BENCH_VERBS),
# both on the whole job and on its first BENCH_SMALL ranks (a directory of
# links), so that the memory each further rank costs is
#   (RSS(RANKS) - RSS(SMALL)) / (RANKS - SMALL).
#
# Targets, each PASS or FAIL, per verb: the summaries' answer equals the
# merged one (rows and auxiliary data); summaries faster than full; the summaries'
# memory grows by at most BENCH_KB_PER_RANK KiB per rank (default 6: "a few
# KB"; most of it is the answer itself, a row of 22 fields per rank).
# Exit status 1 if a target fails, 2 on errors. The machine's load is
# printed with the results.
#
# Environment:
#   GPULENS        the binary (default ./gpulens, then gpulens in PATH)
#   BENCH_RANKS    ranks in the job (default 1024, at most 1024)
#   BENCH_SMALL    ranks of the smaller job (default 128)
#   BENCH_EVENTS   events per rank (default 300)
#   BENCH_REPS     repetitions (default 3)
#   BENCH_VERBS    the verbs measured (default "ranks comm")
#   BENCH_DIR      where the job goes (default a mktemp directory, removed
#                  at the end unless BENCH_KEEP=1; a given one is kept)
set -u
set -o pipefail

. "$(dirname "$0")/lib.sh"
bench_binary
GPULENS=$(cd "$(dirname "$GPULENS")" && pwd)/$(basename "$GPULENS")
RANKS=${BENCH_RANKS:-1024}
SMALL=${BENCH_SMALL:-128}
EVENTS=${BENCH_EVENTS:-300}
REPS=${BENCH_REPS:-3}
VERBS=${BENCH_VERBS:-ranks comm}
KBMAX=${BENCH_KB_PER_RANK:-6}
for v in RANKS SMALL EVENTS REPS KBMAX; do
	case ${!v} in ''|*[!0-9]*|0) die "BENCH_$v must be a positive integer";; esac
done
[ "$RANKS" -le 1024 ] || die "BENCH_RANKS is at most 1024"
[ "$SMALL" -lt "$RANKS" ] || die "BENCH_SMALL must be below BENCH_RANKS"
command -v python3 >/dev/null || die "python3 is needed to compare the answers"

bench_dir gpulens-rbench
bench_rss

export XDG_CACHE_HOME=$DIR/cache
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN
JOB=$DIR/job$RANKS
SJOB=$DIR/job$SMALL
if [ ! -f "$JOB/rank$((RANKS - 1)).json" ]; then
	echo "writing $RANKS ranks of $EVENTS events ..." >&2
	mkdir -p "$JOB" || die "mkdir $JOB"
	r=0
	while [ $r -lt "$RANKS" ]; do
		"$GPULENS" demo --format kineto --gpus "$RANKS" --rank $r \
		    --events "$EVENTS" --out "$JOB/rank$r.json" >/dev/null ||
		    die "demo --rank $r"
		r=$((r + 1))
	done
fi
rm -rf "$SJOB"
mkdir -p "$SJOB" || die "mkdir $SJOB"
r=0
while [ $r -lt "$SMALL" ]; do
	ln -s "$JOB/rank$r.json" "$SJOB/rank$r.json" || die "ln"
	r=$((r + 1))
done
t0=$(date +%s.%N)
"$GPULENS" prep --jobs 2 --json "$JOB" >"$DIR/prep.json" || die "prep failed"
t1=$(date +%s.%N)
PREP_S=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
PREP_W=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['data']['rows']; \
print(sum(x['action'] == 'written' for x in r))" "$DIR/prep.json")

# measure NAME VERB MODE DIR: R runs; sets MED_S and MED_KB, keeps the
# answer.
measure() {
	local name=$1 verb=$2 mode=$3 dir=$4 i s e
	: >"$DIR/$name.s"; : >"$DIR/$name.kb"
	for i in $(seq "$REPS"); do
		s=$(date +%s.%N)
		rss_run "$DIR/$name.rss" "$GPULENS" "$verb" "$mode" --limit 0 \
		    --json "$dir" >"$DIR/$name.json" ||
		    die "$verb $mode $dir failed"
		e=$(date +%s.%N)
		python3 -c "print($e - $s)" >>"$DIR/$name.s"
		tail -n 1 "$DIR/$name.rss" >>"$DIR/$name.kb"
	done
	MED_S=$(sort -g "$DIR/$name.s" | awk '{v[NR]=$1} END {printf "%.3f", v[int((NR+1)/2)]}')
	MED_KB=$(sort -g "$DIR/$name.kb" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
}

per() { python3 -c "print(f'{($1 - $2) / ($3 - $4):.2f}')"; }
mib() { python3 -c "print(f'{$1 / 1024:.1f}')"; }
rc=0
verdict() {	# verdict NAME OK DETAIL
	if [ "$2" = 1 ]; then echo "PASS  $1 ($3)"; else echo "FAIL  $1 ($3)"; rc=1; fi
}

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); prep --jobs 2 of the job: $PREP_S s ($PREP_W caches written, the rest reused)"
for VERB in $VERBS; do
measure "$VERB.full_big" "$VERB" --full "$JOB";       FB_S=$MED_S; FB_KB=$MED_KB
measure "$VERB.sum_big" "$VERB" --summaries "$JOB";   SB_S=$MED_S; SB_KB=$MED_KB
measure "$VERB.full_small" "$VERB" --full "$SJOB";    FS_S=$MED_S; FS_KB=$MED_KB
measure "$VERB.sum_small" "$VERB" --summaries "$SJOB"; SS_S=$MED_S; SS_KB=$MED_KB

SAME=$(python3 - "$DIR/$VERB.full_big.json" "$DIR/$VERB.sum_big.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["data"]
b = json.load(open(sys.argv[2]))["data"]
print("yes" if a["rows"] == b["rows"] and a["auxiliary"] == b["auxiliary"]
      else "no")
PY
)
MADE=$(grep -c summaries_made "$DIR/$VERB.sum_big.json")
FPER=$(per "$FB_KB" "$FS_KB" "$RANKS" "$SMALL")
SPER=$(per "$SB_KB" "$SS_KB" "$RANKS" "$SMALL")

echo
echo "gpulens $VERB: $RANKS ranks of $EVENTS events (Kineto, $(du -shL "$JOB" | cut -f1) of traces), median of $REPS"
printf '%-10s %7s %10s %12s %14s\n' mode ranks wall_s peak_MiB KiB_per_rank
printf '%-10s %7s %10s %12s %14s\n' full "$SMALL" "$FS_S" "$(mib "$FS_KB")" -
printf '%-10s %7s %10s %12s %14s\n' full "$RANKS" "$FB_S" "$(mib "$FB_KB")" "$FPER"
printf '%-10s %7s %10s %12s %14s\n' summaries "$SMALL" "$SS_S" "$(mib "$SS_KB")" -
printf '%-10s %7s %10s %12s %14s\n' summaries "$RANKS" "$SB_S" "$(mib "$SB_KB")" "$SPER"
verdict "$VERB: summaries answer = merged answer" "$([ "$SAME" = yes ] && [ "$MADE" = 0 ] && echo 1)" \
    "rows and auxiliary equal: $SAME; summaries made during the run: $MADE"
verdict "$VERB: summaries faster than full" \
    "$(python3 -c "print(1 if $SB_S < $FB_S else 0)")" \
    "$SB_S s vs $FB_S s, $(python3 -c "print(f'{$FB_S / $SB_S:.1f}')")x"
verdict "$VERB: summaries memory per rank <= $KBMAX KiB" \
    "$(python3 -c "print(1 if $SPER <= $KBMAX else 0)")" \
    "$SPER KiB per rank; full: $FPER KiB per rank; peak $(mib "$SB_KB") vs $(mib "$FB_KB") MiB"
done
exit $rc
