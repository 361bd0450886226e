#!/bin/sh
# mkseeds.sh GPULENS [DIR]: writes the seed corpora of the fuzz harnesses
# into DIR (default: the directory of this script), one subdirectory per
# harness (see fuzz.h). Every seed is made here, from the synthetic demo
# trace (`gpulens demo`), by hand, by nsys_seeds.py, amd_seeds.py and
# reader_seeds.py, or
# with gzip/zstd; none is a copy of a real profile. Needs python3 (standard
# library), gzip and zstd. The seeds are checked in; run this again after a
# change to a format (the cache layout, the schema the demo writes). It
# only adds and replaces files: reproducers that fuzzing found (regress-* and
# the rest) stay.
set -eu
GPULENS=$1
here=$(cd "$(dirname "$0")" && pwd)
DIR=${2:-$here}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mkseeds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/xdg"
mkdir -p "$DIR/cache" "$DIR/opts" "$DIR/zfile" \
    "$DIR/nsys" "$DIR/out" "$DIR/rpd" "$DIR/rocpd" \
    "$DIR/rocprof_json"

# AMD readers: rocmProfileData and rocpd databases, rocprofv3 JSON.
PYTHONPATH="$here/../cli${PYTHONPATH:+:$PYTHONPATH}" python3 "$here/amd_seeds.py" "$here/../.." "$DIR"
# Kineto traces, JSON for the scanner, Nsight Compute reports.
python3 "$here/reader_seeds.py" "$DIR"

# nsys: small exports cut from a demo trace.
"$GPULENS" demo --out "$tmp/d1.sqlite" --events 100 --gpus 1 --seed 3
python3 "$here/nsys_seeds.py" "$tmp/d1.sqlite" "$DIR/nsys"
# Scaling shapes (tests/cli/scale_gen.py): ranges on 40 threads of 40
# processes, 100 nested ranges; a Kineto trace of 20 processes and GPUs.
python3 "$here/../cli/scale_gen.py" nsys-threads "$DIR/nsys/demo-cut.sqlite" \
    "$DIR/nsys/scale-threads.sqlite" 40
python3 "$here/../cli/scale_gen.py" nsys-deep "$DIR/nsys/demo-cut.sqlite" \
    "$DIR/nsys/deep-nvtx.sqlite" 100
python3 "$here/../cli/scale_gen.py" kineto "$DIR/kineto/scale-pids.json" 20

# cache: the caches of those traces, behind a mode byte (cache_fuzz.c:
# bit 0 = as it is, bit 1 = structured, bits 2-7 pick a verb), each as it
# is written and in the structured shape (frames decompressed).
"$GPULENS" demo --out "$tmp/d2.sqlite" --events 300 --gpus 2 --seed 5
n=0
for t in "$tmp/d1.sqlite" "$tmp/d2.sqlite" "$DIR/nsys/hostile.sqlite" \
    "$DIR/nsys/nvtx.sqlite" "$DIR/nsys/old-schema.sqlite"; do
	b=$(basename "$t" .sqlite)
	cp "$t" "$tmp/c-$b.sqlite"
	# A trace the model refuses (hostile sizes) has no cache.
	if ! "$GPULENS" prep --beside "$tmp/c-$b.sqlite" >/dev/null 2>&1; then
		n=$((n + 1))
		continue
	fi
	c="$tmp/.c-$b.sqlite.gpulens"
	mode=$((n * 4))
	{ printf "\\$(printf %o "$mode")"; cat "$c"; } >"$DIR/cache/$b-v$n.bin"
	mode=$((n * 4 + 22))
	python3 - "$c" "$mode" "$DIR/cache/$b-s$n.bin" <<'PY'
import struct, subprocess, sys
src, mode, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(src, "rb").read()
nframes = struct.unpack_from("<I", data, 96)[0]
head_size = struct.unpack_from("<Q", data, 112)[0]
off = 144 + 16 * nframes
acc, nhead = 16 * nframes, 0
while acc < head_size:
    acc += struct.unpack_from("<Q", data, 144 + 16 * nhead + 8)[0]
    nhead += 1
out = bytes([mode]) + data[:144] + bytes([nhead])
for f in range(nframes):
    raw, clen = struct.unpack_from("<QQ", data, 144 + 16 * f)
    if f >= nhead:
        # an array, stored as it is after its alignment padding
        dec = data[off + clen - raw:off + clen]
    else:
        dec = subprocess.run(["zstd", "-q", "-d", "-c"], input=data[off:off + clen],
                             stdout=subprocess.PIPE, check=True).stdout
    assert len(dec) == raw, (f, len(dec), raw)
    out += struct.pack("<I", raw) + dec
    off += clen
open(dst, "wb").write(out)
PY
	n=$((n + 1))
done
# One used as it is (mode bit 0): the header checks themselves.
{ printf '\001'; cat "$tmp/.c-d1.sqlite.gpulens"; } >"$DIR/cache/d1-raw.bin"
# A lane whose starts go backwards exactly at a seam between two pieces of
# the warm load's pass (cache-pass.c: 192 KiB of a lane's columns, 34
# bytes an event here, so 5760 events a piece): each piece alone is in
# order, the lane is not; the harness fixes the checksums (mode 0).
python3 - "$tmp/seam.json" <<'PY'
import json, sys
ev = [{"ph": "X", "cat": "cuda_runtime", "name": "op", "pid": 1, "tid": 1,
       "ts": 2 * i, "dur": 1} for i in range(5800)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$GPULENS" prep --beside "$tmp/seam.json" >/dev/null
python3 - "$tmp/.seam.json.gpulens" "$DIR/cache/seam-descent.bin" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
nframes = struct.unpack_from("<I", data, 96)[0]
head = struct.unpack_from("<Q", data, 112)[0]
raw, off, pos = [], [], 144 + 16 * nframes
for f in range(nframes):
    r, c = struct.unpack_from("<QQ", data, 144 + 16 * f)
    raw.append(r)
    off.append(pos + c - r)     # an array: after its padding
    pos += c
# The lane: start, end, name, kind, flags, row (32-bit), corr, aux.
n, piece = 5800, (192 * 1024 // 34) & ~63
f = next(f for f in range(nframes) if off[f] >= 144 + head and
         raw[f:f + 8] == [8 * n, 8 * n, 4 * n, n, n, 4 * n, 4 * n, 4 * n])
at = off[f] + 8 * piece
prev = struct.unpack_from("<q", data, at - 8)[0]
struct.pack_into("<q", data, at, prev - 1)
open(sys.argv[2], "wb").write(b"\0" + bytes(data))
PY
# zfile: plain, gzip and zstd streams, whole, concatenated and cut.
z=$DIR/zfile
printf 'plain text, not compressed\n' >"$z/plain.txt"
: >"$z/empty"
printf '{"traceEvents":[{"name":"k","ph":"X","ts":1,"dur":2}]}\n' >"$tmp/j"
gzip -9cn "$tmp/j" >"$z/one.gz"
{ gzip -cn "$tmp/j"; gzip -cn "$tmp/j"; } >"$z/two-members.gz"
head -c 30 "$z/one.gz" >"$z/cut.gz"
zstd -q -19 -c "$tmp/j" >"$z/one.zst"
{ zstd -q -c "$tmp/j"; zstd -q -c "$tmp/j"; } >"$z/two-frames.zst"
head -c 20 "$z/one.zst" >"$z/cut.zst"
zstd -q -c --no-check "$tmp/j" >"$z/nocheck.zst"
# A skippable frame after a real one.
{ cat "$z/one.zst"; printf '\120\052\115\030\004\000\000\000abcd'; } \
    >"$z/skippable.zst"
head -c 4000 /dev/zero | gzip -9cn >"$z/zeros.gz"

# opts: two bytes of option-group mask, then NUL-separated arguments.
o=$DIR/opts
args() { f=$1; shift; printf '\377\017' >"$f"; for a in "$@"; do printf '%s\0' "$a" >>"$f"; done; }
args "$o/window" --from 12.5ms --to @3s --until 1e3us trace
args "$o/filters" --device 0 --stream 7 --pid 123 --tid 16 --name 'nccl*' \
    --name-regex '^k(e|a)' --min-dur 1.5us trace
args "$o/page" --json --sort total_ns:asc --limit 0 --offset 9223372036854775807 \
    --fields name,count t
args "$o/buckets" --buckets 100000 --bucket 1min --scope device --by nvtx-path \
    --range step --tree --type kernel --group-by name,iter -- --json
args "$o/sizes" 512M 1.5GiB 2G 1000000 0.5k 1e6 250000 2M 9e15 -1 inf
args "$o/times" 0 -0 150 -9223372036854775808 9223372036854775807 1e-9s \
    9.2e18 0.5ns 3min @-5ms @ ''
args "$o/bad" --limit -1 --format xml --type nothing --unknown --from
printf '\000\000' >"$o/nomask"
# Known bugs: hexadecimal durations read as 0, "nan" as a size.
args "$o/regress-hex-duration" --from 0x10 --to 0x1p4 trace
args "$o/regress-nan-size" nan NaN
args "$o/regress-count-overflow" 5e13m 9e15G
# Known bug: a time longer than 127 bytes is cut (here to "@000...0").
args "$o/regress-time-truncated" "@$(printf '%0130d' 1)"

# out: format, limit and offset classes, then operations (out_fuzz.c).
python3 - "$DIR/out" <<'PY'
import os, struct, sys
d = sys.argv[1]
def s(b):
    if isinstance(b, str):
        b = b.encode("utf-8", "surrogateescape")
    return bytes([len(b)]) + b
def key(i):
    return bytes([i])
ROW, STR, INT, NUM, BOOL, WARN, NEXT, AUX, SORT, FIELDS, ERR, PATH = range(12)
hostile = ["\x1b[2J\x1b[H", "\x1b]0;title\x07", "bs\x08\x08\x7f",
           "\u202eevil\u202c", "\u2066iso\u2069", "\x9b31m",
           b"bad\xff\xfe\xc0\xafutf8", "a,b\"c\r\nd", "\u00e9\u4e2d\U0001F600"]
def rows(n):
    out = b""
    for i in range(n):
        out += bytes([ROW]) + bytes([STR]) + key(0) + s("k%d" % i)
        out += bytes([STR]) + key(1) + s(hostile[i % len(hostile)])
        out += bytes([INT]) + key(2) + struct.pack("<q", (i * 7919) - 3)
        out += bytes([NUM]) + key(6) + struct.pack("<d", i / 3.0)
        out += bytes([BOOL]) + key(7) + b"\x01"
    return out
seeds = {
    "json-plain": bytes([1, 0, 0]) + rows(9),
    "table-plain": bytes([0, 0, 0]) + rows(9),
    "csv-plain": bytes([2, 0, 0]) + rows(9),
    "json-sort": bytes([1, 4, 3]) + rows(6) + bytes([SORT]) + s("total_ns:asc")
        + bytes([FIELDS]) + s("name,share_pct"),
    "table-page-max": bytes([0, 1, 5]) + rows(4),
    "json-error": bytes([1, 0, 0]) + bytes([ERR]) + s("\x1b[31mboom")
        + bytes([PATH]) + s("/tmp/\x1b]0;x\x07.sqlite"),
    "json-keys": bytes([1, 0, 0]) + bytes([ROW, STR, 255]) + s(b"k\xff\x1b")
        + s("v") + bytes([AUX, 255]) + s("aux\x07") + s("val")
        + bytes([WARN]) + s("warn \x1b[5m") + bytes([NEXT]) + s("gpulens x"),
    "table-long": bytes([0, 0, 0, ROW, STR, 1, 255, 255, 0x41]),
    "json-long-key": bytes([1, 0, 0, ROW, STR, 255, 255, 200, 0x1b]) + s("v"),
    "json-numbers": bytes([1, 0, 0, ROW]) + bytes([NUM, 2])
        + struct.pack("<d", float("nan")) + bytes([NUM, 3])
        + struct.pack("<d", 1e19) + bytes([NUM, 5])
        + struct.pack("<d", -1e300) + bytes([INT, 4])
        + struct.pack("<q", -(2**63)),
    "table-numbers": bytes([0, 0, 0, ROW]) + bytes([NUM, 2])
        + struct.pack("<d", 1e18) + bytes([NUM, 5])
        + struct.pack("<d", 3e18) + bytes([INT, 6])
        + struct.pack("<q", 2**63 - 1),
    # Known bug: --offset 1 --limit 9223372036854775807 overflows.
    "regress-page-overflow": bytes([1, 5, 3]) + rows(3),
    # Known bug: huge numbers in *_ns / *_bytes table cells.
    "regress-table-huge-ns": bytes([0, 0, 0, ROW]) + bytes([NUM, 2])
        + struct.pack("<d", 1e19) + bytes([INT, 3])
        + struct.pack("<q", 2**63 - 1) + bytes([NUM, 5])
        + struct.pack("<d", 3e19),
}
for name, data in seeds.items():
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
PY

# Terminal escapes in every string that can reach a message: an nsys
# export's versions and names, an ncu CSV launch ID, Kineto names, pids,
# device names and distributed info.
python3 - "$DIR" <<'PY'
import json, os, shutil, sqlite3, sys
d = sys.argv[1]
p = os.path.join(d, "nsys", "escapes.sqlite")
shutil.copy(os.path.join(d, "nsys", "events-only.sqlite"), p)
db = sqlite3.connect(p)
db.execute("CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT)")
db.execute("INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', ?)",
           ("9\x1b]0;pwned\x07\x9b31m\u202e",))
db.execute("INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', ?)",
           ("2026\x1b[2J\x1b[H",))
db.execute("UPDATE StringIds SET value = value || ?",
           ("\x1b]0;title\x07\u202eevil\x9b",))
db.commit()
db.execute("VACUUM")
db.close()
rows = open(os.path.join(d, "ncu", "raw.csv"), "rb").read().split(b"\n")
rows[2] = rows[2].replace(b'"0"', b'"0\x1b]0;pwned\x07"', 1)
open(os.path.join(d, "ncu", "escapes.csv"), "wb").write(b"\n".join(rows))
t = {"traceEvents": [{"ph": "X", "cat": "kernel",
                      "name": "k\u001b]0;x\u0007\u202e", "pid": "p\u001b[2J",
                      "tid": "t\u009b1m", "ts": 1, "dur": 2,
                      "args": {"device": 0, "stream": 7}}],
     "deviceProperties": [{"id": 0, "name": "GPU\u001b[31m"}],
     "distributedInfo": {"rank": "\u001b[H", "backend": "nccl\u202e"}}
open(os.path.join(d, "kineto", "escapes.json"), "w").write(json.dumps(t))
PY
