#!/bin/sh
# sqlhard_cli: SQLite traces that are being written, locked or hostile, read
# through the command line (sources/source.c source_sqlite_open() and the
# readers' table checks):
#   - a WAL-mode export whose newest rows are still in its -wal file (the
#     writer has not checkpointed): the rows of the log are read, and no
#     file appears beside the trace; a log without its -shm index cannot be
#     read without creating one: exit 2 with a message, nothing created;
#     a WAL-mode file without a log is read alone;
#   - an export under an EXCLUSIVE lock held by another process: exit 2,
#     "database is locked by another process", not half a database;
#   - a generated export whose CUPTI_ACTIVITY_KIND_KERNEL is a recursive
#     view (and an RPD file whose rocpd_op is one): refused at once (exit 2,
#     within timeout 20) with a message naming the view;
#   - kernel rows whose start or end is text or a blob, or whose start is
#     after their end: skipped, and one warning in `gpulens info`;
#   - the bound on SQLite's work (GPULENS_SQLITE_STEPS lowered): exit 2
#     with its message instead of running on.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
command -v timeout >/dev/null 2>&1 || skip "timeout missing"

"$GPULENS" demo --events 4000 --gpus 1 --out "$TMPD/base.sqlite" ||
    fail "demo"
# The kernel count gpulens reports for a file.
count_kernels() {
	expect_rc 0 "$GPULENS" --no-cache info --json "$1"
	python3 - "$TMPD/out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
print(sum(r["count"] for r in rows if r["kind"] == "kernel"))
PY
}
base=$(count_kernels "$TMPD/base.sqlite") || fail "no kernel count"
[ "$base" -gt 0 ] || fail "base: $base kernels"

# --- WAL: rows only in the log ---------------------------------------
mkdir "$TMPD/wal" "$TMPD/noshm"
python3 - "$TMPD/base.sqlite" "$TMPD/wal/t.sqlite" "$TMPD/noshm/t.sqlite" <<'PY' || fail "cannot build the WAL trace"
import shutil, sqlite3, sys
base, wal, noshm = sys.argv[1:]
shutil.copy(base, wal)
db = sqlite3.connect(wal, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM "
           "CUPTI_ACTIVITY_KIND_KERNEL")
# Copies while the writer is still open: the database, its log, its index.
shutil.copy(wal, noshm)
shutil.copy(wal + "-wal", noshm + "-wal")
for s in ("", "-wal", "-shm"):
    shutil.copy(wal + s, wal + s + ".keep")
db.close()              # checkpoints and removes the log: put it back
for s in ("", "-wal", "-shm"):
    shutil.copy(wal + s + ".keep", wal + s)
PY
rm -f "$TMPD"/wal/*.keep
ls "$TMPD/wal" >"$TMPD/wal.before"
[ "$(python3 -c 'import os,sys; print(os.path.getsize(sys.argv[1]) > 32)' "$TMPD/wal/t.sqlite-wal")" = True ] ||
    fail "the log holds no rows"
# SQLite itself, read-only, sees the doubled table.
sql=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True).execute("select count(*) from CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0])' "$TMPD/wal/t.sqlite")
[ "$sql" -eq $((2 * base)) ] || fail "SQLite sees $sql kernels, not $((2 * base))"
n=$(count_kernels "$TMPD/wal/t.sqlite") || fail "WAL trace: no count"
[ "$n" -eq $((2 * base)) ] || fail "WAL trace: $n kernels, SQLite sees $sql"
ls "$TMPD/wal" | cmp -s - "$TMPD/wal.before" ||
    fail "files appeared beside the WAL trace: $(ls "$TMPD/wal")"
# The cache follows the log: rows added to it later are seen.
export XDG_CACHE_HOME="$TMPD/xdg"
cached_kernels() {
	expect_rc 0 "$GPULENS" summary --json "$1"
	python3 -c 'import json,sys; print(sum(r["kernels"] for r in json.load(open(sys.argv[1]))["data"]["rows"]))' "$TMPD/out"
}
c1=$(cached_kernels "$TMPD/wal/t.sqlite") || fail "cached load"
[ "$c1" -eq $((2 * base)) ] || fail "cached WAL trace: $c1 kernels"
# A writer adds rows to the log while the database file itself stays as
# it was (no checkpoint until it closes); gpulens, run meanwhile, must not
# answer from the cache of the shorter log.
cat >"$TMPD/grow.py" <<'PY'
import json, os, sqlite3, subprocess, sys
wal, g = sys.argv[1:]
before = os.stat(wal)
db = sqlite3.connect(wal, isolation_level=None)
db.execute("PRAGMA wal_autocheckpoint=0")
db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM "
           "CUPTI_ACTIVITY_KIND_KERNEL")
after = os.stat(wal)
assert (before.st_mtime_ns, before.st_ctime_ns, before.st_size) == \
    (after.st_mtime_ns, after.st_ctime_ns, after.st_size), "file changed"
out = subprocess.run([g, "summary", "--json", wal], stdout=subprocess.PIPE,
                     check=True).stdout
print(sum(r["kernels"] for r in json.loads(out)["data"]["rows"]))
db.close()
PY
c2=$(python3 "$TMPD/grow.py" "$TMPD/wal/t.sqlite" "$GPULENS") ||
    fail "cannot grow the log"
[ "$c2" -eq $((4 * base)) ] ||
    fail "rows added to the log: $c2 kernels, not $((4 * base)) (a stale cache)"
unset XDG_CACHE_HOME

# A log without its index: refused, nothing created.
expect_rc 2 "$GPULENS" --no-cache info "$TMPD/noshm/t.sqlite"
grep -q "write-ahead log" "$TMPD/err" || fail "no-shm: $(cat "$TMPD/err")"
[ ! -e "$TMPD/noshm/t.sqlite-shm" ] || fail "no-shm: an index was created"

# A WAL-mode file whose log was checkpointed away: read alone, nothing
# created beside it.
mkdir "$TMPD/walmode"
cp "$TMPD/base.sqlite" "$TMPD/walmode/t.sqlite"
sql_apply "$TMPD/walmode/t.sqlite" "cannot build the WAL-mode trace" \
    "PRAGMA journal_mode=WAL" \
    "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 2 = 0"
[ "$(ls "$TMPD/walmode")" = t.sqlite ] || fail "walmode: $(ls "$TMPD/walmode")"
n=$(count_kernels "$TMPD/walmode/t.sqlite") || fail "walmode: no count"
[ "$n" -eq $(((base + 1) / 2)) ] || fail "walmode: $n kernels of $base"
[ "$(ls "$TMPD/walmode")" = t.sqlite ] ||
    fail "files appeared beside the WAL-mode trace: $(ls "$TMPD/walmode")"

# --- an EXCLUSIVE lock held by another process ------------------------
cp "$TMPD/base.sqlite" "$TMPD/locked.sqlite"
python3 - "$TMPD/locked.sqlite" "$TMPD/locked.ready" <<'PY' &
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
db.execute("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL")
open(sys.argv[2], "w").close()
time.sleep(30)
PY
holder=$!
i=0
while [ ! -e "$TMPD/locked.ready" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -e "$TMPD/locked.ready" ] || { kill $holder; fail "no lock holder"; }
"$GPULENS" --no-cache info "$TMPD/locked.sqlite" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
kill $holder 2>/dev/null
wait $holder 2>/dev/null
[ $rc -eq 2 ] || fail "locked: exit $rc: $(cat "$TMPD/out" "$TMPD/err")"
grep -q "database is locked by another process" "$TMPD/err" ||
    fail "locked: $(cat "$TMPD/err")"

# --- views that never end --------------------------------------------
python3 - "$TMPD/base.sqlite" "$TMPD/view.sqlite" <<'PY' || fail "cannot build the view trace"
import shutil, sqlite3, sys
shutil.copy(sys.argv[1], sys.argv[2])
db = sqlite3.connect(sys.argv[2])
cols = [r[1] for r in db.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_KERNEL)")]
db.execute("DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL")
db.execute("CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE "
           "c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT " +
           ", ".join("x AS %s" % c for c in cols) + " FROM c")
db.commit()
PY
expect_rc 2 timeout 20 "$GPULENS" --no-cache info "$TMPD/view.sqlite"
grep -q "CUPTI_ACTIVITY_KIND_KERNEL is a view, not a table" "$TMPD/err" ||
    fail "view: $(cat "$TMPD/err")"
python3 - "$TMPD/op.rpd" <<'PY' || fail "cannot build the RPD view file"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE rocpd_string (id INTEGER PRIMARY KEY, string TEXT);
CREATE TABLE rocpd_api (id INTEGER PRIMARY KEY, pid, tid, start, end,
    apiName_id, args_id);
CREATE VIEW rocpd_op AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL
    SELECT x + 1 FROM c) SELECT x AS id, 0 AS gpuId, 0 AS queueId,
    x AS start, x + 1 AS end, 1 AS description_id, 1 AS opType_id FROM c;
""")
db.commit()
PY
expect_rc 2 timeout 20 "$GPULENS" --no-cache info "$TMPD/op.rpd"
grep -q "rocpd_op is a view, not a table" "$TMPD/err" ||
    fail "RPD view: $(cat "$TMPD/err")"

# --- times that are not integers --------------------------------------
cp "$TMPD/base.sqlite" "$TMPD/times.sqlite" || fail "cannot copy the trace"
sql_apply "$TMPD/times.sqlite" "cannot build the times trace" \
    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'x' WHERE rowid <= 3" \
    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = x'00' WHERE rowid = 4" \
    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = end + 1 WHERE rowid = 5"
n=$(count_kernels "$TMPD/times.sqlite") || fail "times: no count"
[ "$n" -eq $((base - 5)) ] || fail "times: $n kernels, not $((base - 5))"
expect_rc 0 "$GPULENS" --no-cache info "$TMPD/times.sqlite"
grep -q "5 rows of CUPTI_ACTIVITY_KIND_KERNEL skipped: 4 with start/end not integers, 1 with start after end" "$TMPD/out" ||
    fail "times: no warning in info: $(cat "$TMPD/out")"
expect_rc 0 "$GPULENS" --no-cache info --json "$TMPD/times.sqlite"
grep -q "rows of CUPTI_ACTIVITY_KIND_KERNEL skipped" "$TMPD/out" ||
    fail "times: no warning in info --json"

# --- the work bound ---------------------------------------------------
expect_rc 2 env GPULENS_SQLITE_STEPS=10000 timeout 20 "$GPULENS" --no-cache \
    info "$TMPD/base.sqlite"
grep -q "exceeded the work bound" "$TMPD/err" ||
    fail "bound: $(cat "$TMPD/err")"
expect_rc 0 "$GPULENS" --no-cache info "$TMPD/base.sqlite"
pass
