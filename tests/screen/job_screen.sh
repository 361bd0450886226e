#!/bin/sh
#
# job_screen: the terminal UI's job overview (tui/view-job.c) on a
# generated job of 66 small Kineto ranks (more than the 64 beyond which a
# job is shown from its ranks' summaries), prepped first so that every
# summary is read, not made.
#
# Headless (--script with :dump), compared with the checked-in screens in
# golden/job (SCREEN_UPDATE=1 rewrites them): the overview at 80x24 (title,
# spreads, rows in rank order), its end (the straggler marked with !),
# sorted by median iteration (the straggler first), the straggler opened
# (Enter: its trace's timeline), and back (q: the overview again, in the
# same order, the rank's model freed).
# On a 200x80 screen every row's figures equal those of
# `gpulens ranks --summaries --json` (rank, GPUs, iterations, busy share,
# median iteration, communication time, collective wait, the straggler).
# In a real terminal (tmux; skipped without it): Enter opens a rank, q
# comes back to the overview, q again quits and gives the terminal back.
# --summaries opens a job of two ranks as an overview too.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"

G=$GPULENS
case $G in /*) ;; *) G=$(pwd)/$G ;; esac
SRC=${GPULENS_SRCDIR:-.}
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
golden=$SRC/tests/screen/golden/job
N=66
cd "$TMPD" || fail "cd"
export XDG_CACHE_HOME=$TMPD/cache
mkdir -p job small
r=0
while [ $r -lt $N ]; do
	"$G" demo --format kineto --gpus $N --rank $r --events 300 \
	    --out job/rank$r.json >demo.log 2>&1 ||
	    fail "demo --rank $r: $(cat demo.log)"
	r=$((r + 1))
done
"$G" prep job >prep.log 2>&1 || fail "prep: $(cat prep.log)"

# Headless screens against the goldens.
cat >s.script <<'SCRIPT'
:dump overview.screen
End
:dump end.screen
s
:dump sorted.screen
Home
ENTER
:dump rank.screen
q
:dump back.screen
SCRIPT
GPULENS_TUI_SIZE=80x24 LANG=C.UTF-8 LC_ALL=C.UTF-8 "$G" --script s.script \
    job </dev/null >/dev/null 2>err || fail "--script: $(cat err)"
for s in overview end sorted rank back; do
	[ -f $s.screen ] || fail "no $s screen"
	if [ "${SCREEN_UPDATE:-0}" = 1 ]; then
		mkdir -p "$golden"
		cp $s.screen "$golden/$s.screen"
	elif ! cmp -s $s.screen "$golden/$s.screen"; then
		diff -u "$golden/$s.screen" $s.screen
		fail "$s.screen differs from golden/job/$s.screen"
	fi
done
grep -q '^ Job: 66 ranks, 66 GPUs, straggler rank' overview.screen ||
    fail "overview: no title"
grep -q '66 ranks from their summaries (0 made now)' overview.screen ||
    fail "overview: the summaries were not read"
grep -q '^!' end.screen || fail "end: no straggler marked"
grep -q 'sorted by median iteration' sorted.screen || fail "sorted: no sort"
grep -q 'rank65.json (rank 6' rank.screen || fail "rank: not the straggler's trace"
grep -q 'cursor +' rank.screen || fail "rank: no timeline"
grep -q 'back from rank 65' back.screen || fail "back: not the overview"
grep -q 'sorted by median iteration' back.screen ||
    fail "back: the overview lost its order"

# Every row's figures against ranks --summaries --json.
printf ':dump wide.screen\n' >w.script
GPULENS_TUI_SIZE=200x80 "$G" --script w.script job </dev/null >/dev/null \
    2>err || fail "--script 200x80: $(cat err)"
"$G" ranks --summaries --limit 0 --json job >ranks.json 2>err ||
    fail "ranks: $(cat err)"
python3 - wide.screen ranks.json <<'PY' || fail "the overview's figures differ from ranks --summaries --json"
import json, re, sys
screen = open(sys.argv[1], encoding="utf-8").read().split("\n")
d = json.load(open(sys.argv[2]))["data"]
rows = {r["rank"]: r for r in d["rows"]}
units = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
def ns(t):
    m = re.fullmatch(r"([0-9.]+)(ns|us|ms|s)", t)
    assert m, t
    return float(m.group(1)) * units[m.group(2)]
def near(shown, v, what):
    assert abs(ns(shown) - v) <= max(1.0, abs(v) * 0.0011), (what, shown, v)
head = [i for i, l in enumerate(screen) if "Rank" in l and "Iter med" in l]
assert head, "no header"
seen = 0
for l in screen[head[0] + 1:]:
    f = l.split()
    if len(f) < 9 or not (f[0].isdigit() or f[0] == "!"):
        break
    strag = f[0] == "!"
    if strag:
        f = f[1:]
    r = rows[int(f[0])]
    assert int(f[1]) == r["gpus"], ("gpus", f, r)
    assert int(f[2]) == r["iters"], ("iters", f, r)
    near(f[3], r["iter_median_ns"], "median")
    assert f[4] == "%.1f" % r["util_pct"], ("busy", f, r)
    near(f[5], r["comm_ns"], "comm")
    assert f[6] == "-" and "mpi_wait_ns" not in r, ("mpi", f, r)
    near(f[7], r["wait_ns"], "wait")
    assert f[8] == "rank%d.json" % r["rank"], ("file", f)
    assert strag == r["straggler"], ("straggler", f, r)
    seen += 1
assert seen == len(rows) == 66, (seen, len(rows))
title = screen[0]
strag = d["auxiliary"]["straggler"]
assert ("straggler rank %d;" % strag) in title, title
assert ("iteration %.1f%%" % d["auxiliary"]["iter_spread_pct"]) in screen[1], screen[1]
assert ("comm %.1f%%" % d["auxiliary"]["comm_spread_pct"]) in screen[1], screen[1]
PY

# --summaries: a job of two ranks as an overview.
cp job/rank0.json job/rank1.json small/
GPULENS_TUI_SIZE=80x24 "$G" --summaries --script w.script small </dev/null \
    >/dev/null 2>err || fail "--summaries: $(cat err)"
grep -q '^ Job: 2 ranks' wide.screen || fail "--summaries: no overview"
# --full: merged, the timeline.
GPULENS_TUI_SIZE=80x24 "$G" --full --script w.script job </dev/null \
    >/dev/null 2>err || fail "--full: $(cat err)"
grep -q 'cursor +' wide.screen || fail "--full: no timeline"

# A real terminal: Enter opens a rank, q comes back, q quits.
if command -v tmux >/dev/null 2>&1; then
	sock=gpulens-job-$$
	printf 'set -g status off\nset -g escape-time 0\nset -g default-terminal xterm-256color\nset -g default-shell /bin/sh\n' >tmux.conf
	tm() { tmux -L "$sock" -f "$TMPD/tmux.conf" "$@"; }
	tfail() { tm kill-server >/dev/null 2>&1; fail "$@"; }
	waitfor() {
		i=0
		while [ $i -lt 200 ]; do
			tm capture-pane -p -t screen >screen 2>/dev/null
			grep -Eq -- "$1" screen && return 0
			sleep 0.1
			i=$((i + 1))
		done
		cat screen
		return 1
	}
	tm new-session -d -s screen -x 80 -y 24 \
	    "cd '$TMPD' && LANG=C.UTF-8 '$G' job; echo GPULENS-EXIT=\$?; sleep 600"
	waitfor '^ Job: 66 ranks' || tfail "tmux: no overview"
	tm send-keys -t screen j Enter
	waitfor 'rank1.json \(rank 1\)' || tfail "tmux: Enter did not open rank 1"
	tm send-keys -t screen q
	waitfor 'back from rank 1' || tfail "tmux: q did not come back"
	tm send-keys -t screen q
	waitfor 'GPULENS-EXIT=' || tfail "tmux: q did not quit"
	grep -q 'GPULENS-EXIT=0' screen || tfail "tmux: exit status"
	tm kill-server >/dev/null 2>&1
fi
pass
