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
# same order, the rank's model freed; the rank's status line says that q
# goes back and Q quits).
# A filter (/ 6-9,65 Enter): the ranks that match, the count in the
# title, the straggler still marked, the spreads the whole job's and said
# so; sorted while filtered; Esc shows every rank again; a filter nothing
# matches says so. Loading a rank held (GPULENS_TUI_LOAD_HOLD): the box
# with the rank, its path and phase; Esc cancels back to the overview
# with a message; Q while loading quits, and Q inside a rank quits
# gpulens (nothing after it in the script runs).
# A rank of two files (--summaries): its top kernel's time is the sum of
# that kernel's time in both files (`stats --json`), not one file's; its
# row says "+1", Enter loads both files as one model (two-rank: both
# files' GPUs; the loading box says which file, two-loading, held).
# Hosts (a job of 8 Kineto ranks on 4 nodes, host_name): the Host column
# (hosts), / node02 keeps that node's two ranks (host-filter), every row's
# host is the one `ranks --summaries --json` and `ranks --full --json`
# give; a host name with a terminal escape is drawn escaped.
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
# The filter, and loading a rank held then cancelled.
cat >f.script <<'SCRIPT'
/
6
-
9
,
6
5
ENTER
:dump filter.screen
s
:dump filter-sorted.screen
ESC
:dump filter-cleared.screen
/
z
z
ENTER
:dump filter-none.screen
SCRIPT
GPULENS_TUI_SIZE=80x24 LANG=C.UTF-8 LC_ALL=C.UTF-8 "$G" --script f.script \
    job </dev/null >/dev/null 2>err || fail "--script filter: $(cat err)"
cat >l.script <<'SCRIPT'
End
ENTER
:dump loading.screen
ESC
:dump cancelled.screen
ENTER
q
:dump cancelled-q.screen
ENTER
Q
:dump after-quit.screen
SCRIPT
GPULENS_TUI_LOAD_HOLD=1 GPULENS_TUI_SIZE=80x24 LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    "$G" --script l.script job </dev/null >/dev/null 2>err ||
    fail "--script loading: $(cat err)"
[ ! -f after-quit.screen ] || fail "Q while loading did not quit"
printf 'ENTER\nQ\n:dump after-quit.screen\n' >q.script
GPULENS_TUI_SIZE=80x24 "$G" --script q.script job </dev/null >/dev/null \
    2>err || fail "--script Q: $(cat err)"
[ ! -f after-quit.screen ] || fail "Q in a rank did not quit"

# want NAME PATTERN WHAT: NAME.screen has PATTERN, else WHAT fails.
want() { grep -q -- "$2" "$1.screen" || fail "$1: $3"; }

# golden NAME...: each NAME.screen against golden/job/NAME.screen.
golden() {
	for s in "$@"; do
		[ -f $s.screen ] || fail "no $s screen"
		if [ "${SCREEN_UPDATE:-0}" = 1 ]; then
			mkdir -p "$golden"
			cp $s.screen "$golden/$s.screen"
		elif ! cmp -s $s.screen "$golden/$s.screen"; then
			diff -u "$golden/$s.screen" $s.screen
			fail "$s.screen differs from golden/job/$s.screen"
		fi
	done
}
golden overview end sorted rank back filter filter-sorted loading cancelled
want overview '^ Job: 66 ranks, 66 GPUs, straggler rank' "no title"
want overview '66 ranks from their summaries (0 made now)' \
    "the summaries were not read"
want end '^!' "no straggler marked"
want sorted 'sorted by median iteration' "no sort"
want rank 'rank65.json (rank 6' "not the straggler's trace"
want rank 'cursor +' "no timeline"
want back 'back from rank 65' "not the overview"
want back 'sorted by median iteration' "the overview lost its order"
want rank 'q: back to the job' "the status line does not say what q does"
want rank 'q back  Q quit' "no q back hint"
want filter '^ Job: 66 ranks (5 match "6-9,65"), 66 GPUs' \
    "no count in the title"
want filter '^ Spread (whole job): ' \
    "the spreads are not said to be the whole job's"
[ "$(grep -c 'rank[0-9]*\.json$' filter.screen)" = 5 ] ||
    fail "filter: not 5 rows"
want filter '^!     65 ' "straggler not marked"
want filter-sorted 'sorted by median' "not sorted"
sed -n 4p filter-sorted.screen | grep -q '^!     65 ' ||
    fail "filter: the straggler is not first by median"
want filter-cleared '^ Job: 66 ranks, 66 GPUs' "Esc did not clear it"
want filter-cleared '^ Spread: ' "cleared, still said filtered"
want filter-none 'no rank matches that' "no match not said"
want loading 'Loading rank 65' "no box"
want loading 'job/rank65.json' "no path"
want loading 'held' "no phase"
want loading 'Esc or Ctrl-C cancels' "how to cancel not said"
want cancelled 'rank 65: loading cancelled (Esc)' "no message"
want cancelled '^ Job: 66 ranks' "not the overview"
want cancelled-q 'rank 65: loading cancelled (q)' "q did not cancel the load"

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
# A rank of two files: its top kernel over both.
mkdir two
"$G" demo --format kineto --gpus 2 --rank 0 --events 300 \
    --out two/r0.json >demo.log 2>&1 || fail "demo: $(cat demo.log)"
"$G" demo --format kineto --gpus 2 --rank 1 --events 300 \
    --out two/r1a.json >demo.log 2>&1 || fail "demo: $(cat demo.log)"
"$G" demo --format kineto --gpus 2 --rank 1 --events 300 --seed 7 \
    --straggler 1 --slowdown 3 --out two/r1b.json >demo.log 2>&1 ||
    fail "demo: $(cat demo.log)"
printf 'j\n:dump two.screen\n' >t.script
GPULENS_TUI_SIZE=200x24 "$G" --summaries --script t.script two \
    </dev/null >/dev/null 2>err || fail "--summaries two: $(cat err)"
"$G" stats --json two/r1a.json >a.json 2>err || fail "stats: $(cat err)"
"$G" stats --json two/r1b.json >b.json 2>err || fail "stats: $(cat err)"
python3 - two.screen a.json b.json <<'PY' || fail "two files: the top kernel is not the rank's over both"
import json, re, sys
screen = open(sys.argv[1], encoding="utf-8").read()
tot = {}
for f in sys.argv[2:]:
    for r in json.load(open(f))["data"]["rows"]:
        tot[r["name"]] = tot.get(r["name"], 0) + r["total_ns"]
name, ns = sorted(tot.items(), key=lambda x: (-x[1], x[0]))[0]
m = re.search(r"rank 1.*; top kernel (.*) ([0-9.]+)(ns|us|ms|s) ", screen)
assert m, screen
assert m.group(1) == name, (m.group(1), name)
v = float(m.group(2)) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(3)]
assert abs(v - ns) <= ns * 0.0011, (v, ns)
PY

# The two-file rank opened: both files, one model; held, the box.
printf 'j\nENTER\n:dump two-rank.screen\n' >t2.script
GPULENS_TUI_SIZE=80x24 LANG=C.UTF-8 LC_ALL=C.UTF-8 "$G" --summaries \
    --script t2.script two </dev/null >/dev/null 2>err ||
    fail "--summaries two, Enter: $(cat err)"
printf 'j\nENTER\n:dump two-loading.screen\nESC\n' >t3.script
GPULENS_TUI_LOAD_HOLD=1 GPULENS_TUI_SIZE=80x24 LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    "$G" --summaries --script t3.script two </dev/null >/dev/null 2>err ||
    fail "--summaries two, held: $(cat err)"
want two-loading 'r1a.json +1' "no +1 in the row"
want two-loading 'file 1 of 2, held' "the box does not say which file"
want two-rank 'r1a.json and 1 more' "the title does not name both files"
want two-rank 'GPU 2001 rank 1' "the second file's GPU is missing"

# Hosts: 8 ranks on 4 nodes.
mkdir hosts
r=0
while [ $r -lt 8 ]; do
	"$G" demo --format kineto --gpus 8 --rank $r --events 300 \
	    --out hosts/rank$r.json >demo.log 2>&1 ||
	    fail "demo --rank $r: $(cat demo.log)"
	r=$((r + 1))
done
python3 - hosts <<'PY' || fail "cannot name the hosts"
import json, sys
for r in range(8):
    p = "%s/rank%d.json" % (sys.argv[1], r)
    s = open(p).read()
    h = "node%02d" % (r // 2) if r != 7 else "node03\x1b]0;pwned\x07"
    open(p, "w").write('{"host_name": %s, ' % json.dumps(h) + s[1:])
PY
printf ':dump hosts.screen\n/\nn\no\nd\ne\n0\n2\nENTER\n:dump host-filter.screen\n' >h.script
GPULENS_TUI_SIZE=80x24 LANG=C.UTF-8 LC_ALL=C.UTF-8 "$G" --summaries \
    --script h.script hosts </dev/null >/dev/null 2>err ||
    fail "--summaries hosts: $(cat err)"
want hosts 'Rank Host ' "no Host column"
want hosts 'node03\\x1b]' "the escape not escaped"
grep -q "$(printf '\033')" hosts.screen && fail "hosts: a raw escape"
want host-filter '(2 match "node02")' "the filter does not match 2 ranks"
GPULENS_TUI_SIZE=200x30 "$G" --summaries --script w.script hosts \
    </dev/null >/dev/null 2>err || fail "--summaries hosts: $(cat err)"
"$G" ranks --summaries --limit 0 --json hosts >hs.json 2>err ||
    fail "ranks --summaries: $(cat err)"
"$G" ranks --full --limit 0 --json hosts >hf.json 2>err ||
    fail "ranks --full: $(cat err)"
python3 - wide.screen hs.json hf.json <<'PY' || fail "hosts: the overview, ranks --summaries and ranks --full differ"
import json, sys
screen = open(sys.argv[1], encoding="utf-8").read().split("\n")
s = {r["rank"]: r["host"] for r in json.load(open(sys.argv[2]))["data"]["rows"]}
f = {r["rank"]: r["host"] for r in json.load(open(sys.argv[3]))["data"]["rows"]}
assert s == f, (s, f)
assert s[2] == "node01" and s[7] == "node03\x1b]0;pwned\x07", s
seen = 0
for l in screen[3:]:
    w = l.split()
    if len(w) < 3 or not (w[0].isdigit() or w[0] == "!"):
        break
    if w[0] == "!":
        w = w[1:]
    r = int(w[0])
    want = s[r].replace("\x1b", "\\x1b").replace("\x07", "\\x07")
    # The cell may be cut, with an ellipsis.
    assert want.startswith(w[1].rstrip("\u2026")), (r, w[1], want)
    seen += 1
assert seen == 8, seen
PY
golden two-rank two-loading hosts host-filter

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
	# job_at PREFIX ENV: runs `gpulens job` at 80x24 after the shell
	# commands PREFIX and with the variables ENV (each may be empty, or
	# ends in "; " and " "), and waits for the overview.
	job_at() {
		tm new-session -d -s screen -x 80 -y 24 \
		    "${1}cd '$TMPD' && LANG=C.UTF-8 $2'$G' job; echo GPULENS-EXIT=\$?; sleep 600"
		waitfor '^ Job: 66 ranks' || tfail "tmux: no overview"
	}
	# quit_by KEY WHAT: KEY must quit the program (WHAT in the messages),
	# exit status 0; then a fresh server, as the old one may still be
	# ending.
	quit_by() {
		tm send-keys -t screen "$1"
		waitfor 'GPULENS-EXIT=' || tfail "tmux: $2 did not quit"
		grep -q 'GPULENS-EXIT=0' screen ||
		    tfail "tmux: exit status after $2"
		tm kill-server >/dev/null 2>&1
		sock=$sock-n
	}
	job_at "" ""
	tm send-keys -t screen j Enter
	waitfor 'rank1.json \(rank 1\)' || tfail "tmux: Enter did not open rank 1"
	tm send-keys -t screen q
	waitfor 'back from rank 1' || tfail "tmux: q did not come back"
	quit_by q q
	# Ctrl-C cancels a rank's load (held), Q in a rank quits. (The
	# shell traps SIGINT so that it lives on to say the exit status.)
	job_at "trap : INT; " "GPULENS_TUI_LOAD_HOLD=1 "
	tm send-keys -t screen Enter
	waitfor 'Loading rank 0' || tfail "tmux: no loading box"
	tm send-keys -t screen C-c
	waitfor 'rank 0: loading cancelled \(Ctrl-C\)' ||
	    tfail "tmux: Ctrl-C did not cancel"
	grep -q 'Loading rank' screen && tfail "tmux: the box stayed"
	quit_by Q Q
	job_at "" ""
	tm send-keys -t screen Enter
	waitfor 'q back  Q quit' || tfail "tmux: the rank does not say q back"
	quit_by Q "Q in a rank"
fi
pass
