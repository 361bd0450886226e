#!/bin/sh
#
# figure_cli: `export --to svg|html` draws one rectangle per selected event
# of the window, where the events are, with the timeline view's rows.
#
# On a generated 2-GPU trace (python3 parses the SVG):
#   - with --detail (every row), the rectangles' event ids are exactly the
#     ids `search` lists for the same window and filters, for the whole
#     trace, two windows and --type kernel;
#   - each rectangle's x and width are the event's start and duration
#     clipped to the window, scaled to --width (within 0.01 px);
#   - without --detail the per-stream sync rows are left out, as the
#     terminal UI's compact view leaves them out;
#   - a kernel name holding markup, quotes and control characters comes out
#     escaped: the SVG parses, no <script> element appears, no control byte;
#   - --to html is one self-contained page (no external reference) whose
#     SVG parses the same; --max-shapes below the event count draws per
#     pixel column with a warning; bad --width is a usage error;
#   - where Chromium is installed, a headless screenshot of the page shows
#     the kernel colour (a real browser renders it).
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
command -v sqlite3 >/dev/null 2>&1 || skip "the sqlite3 command is missing"
G=$GPULENS
t=$TMPD/fig.sqlite
"$G" demo --out "$t" --events 4000 --gpus 2 >"$TMPD/demo.log" 2>&1 ||
    fail "gpulens demo: $(cat "$TMPD/demo.log")"
evil="'<script>alert(1)</script>&\"x'||char(27)||'[31m'||char(8238)"
sqlite3 "$t" "UPDATE StringIds SET value = $evil WHERE id IN
    (SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT 3);" ||
    fail "cannot plant the names"

# check_window FROM UNTIL TYPE ("-": none): the SVG's event ids are the
# ids search lists for the same window and type.
check_window() {
	ea="--detail"; sa=""
	[ "$1" = - ] || { ea="$ea --from $1"; sa="$sa --from $1"; }
	[ "$2" = - ] || { ea="$ea --until $2"; sa="$sa --to $2"; }
	[ "$3" = - ] || { ea="$ea --type $3"; sa="$sa --type $3"; }
	# shellcheck disable=SC2086
	"$G" --no-cache export --to svg --width 1000 $ea "$t" \
	    >"$TMPD/w.svg" 2>"$TMPD/w.err" || fail "export $ea: $(cat "$TMPD/w.err")"
	# shellcheck disable=SC2086
	"$G" --no-cache search --json --fields id --limit 100000 $sa "$t" \
	    >"$TMPD/w.rows" 2>"$TMPD/w.jerr" || fail "search $sa: $(cat "$TMPD/w.jerr")"
	python3 - "$TMPD/w.svg" "$TMPD/w.rows" "$ea" <<'EOF' ||
import json, sys
import xml.etree.ElementTree as ET
svg, rows, args = sys.argv[1:4]
root = ET.parse(svg).getroot()
rects = [r for r in root.iter("{http://www.w3.org/2000/svg}rect")
         if r.get("class") == "ev"]
got = sorted(int(r.get("data-id")) for r in rects)
want = sorted(r["id"] for r in json.load(open(rows))["data"]["rows"])
if got != want or not got:
    print("%s: svg has %d events, search %d; first differences %s" % (
        args, len(got), len(want), sorted(set(got) ^ set(want))[:5]))
    sys.exit(1)
EOF
	    fail "export --to svg $ea does not draw the events search lists"
}

check_window - - -
check_window 50ms 120ms -
check_window 200ms 260ms -
check_window - - kernel

# Geometry of the rectangles against the events' times.
"$G" --no-cache export --to svg --detail --width 800 --from 40ms --until 90ms \
    "$t" >"$TMPD/g.svg" || fail "export for the geometry"
"$G" --no-cache search --json --limit 100000 --from 40ms --to 90ms \
    --fields id,start_ns,duration_ns "$t" >"$TMPD/g.json" || fail "search"
python3 - "$TMPD/g.svg" "$TMPD/g.json" <<'EOF' || fail "rectangles are not where the events are"
import json, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ev = {r["id"]: r for r in json.load(open(sys.argv[2]))["data"]["rows"]}
t0, t1, W, L = 40e6, 90e6, 800, 240
n = 0
for r in root.iter("{http://www.w3.org/2000/svg}rect"):
    if r.get("class") != "ev":
        continue
    e = ev[int(r.get("data-id"))]
    s = max(e["start_ns"], t0); f = min(e["start_ns"] + e["duration_ns"], t1)
    x = L + (s - t0) * W / (t1 - t0)
    w = max((f - s) * W / (t1 - t0), 0.5)
    if abs(float(r.get("x")) - x) > 0.01 or abs(float(r.get("width")) - w) > 0.01:
        print("event %d: x %s width %s, expected %.2f %.2f" % (
            e["id"], r.get("x"), r.get("width"), x, w)); sys.exit(1)
    n += 1
if n == 0:
    print("no rectangles"); sys.exit(1)
EOF

# The compact view leaves the per-stream sync rows out.
"$G" --no-cache export --to svg "$t" >"$TMPD/c.svg" || fail "export compact"
nsync=$("$G" --no-cache search --json --limit 0 --type sync "$t" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["total_matched"])')
nall=$("$G" --no-cache search --json --limit 0 "$t" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["total_matched"])')
ncomp=$(grep -c 'class="ev"' "$TMPD/c.svg")
[ "$nsync" -gt 0 ] || fail "the demo has no sync events"
[ "$ncomp" -eq $((nall - nsync)) ] ||
    fail "compact figure draws $ncomp events, expected $nall - $nsync sync"

# Hostile names: escaped, no script element, no control byte.
python3 - "$TMPD/c.svg" <<'EOF' || fail "a profile string was not escaped"
import sys
import xml.etree.ElementTree as ET
raw = open(sys.argv[1], "rb").read()
root = ET.fromstring(raw)
if any(el.tag.endswith("script") for el in root.iter()):
    print("a script element"); sys.exit(1)
if any(b < 32 and b not in (9, 10, 13) or b == 127 for b in raw):
    print("a control byte"); sys.exit(1)
if b"\xe2\x80\xae" in raw:
    print("a raw bidi override"); sys.exit(1)
if b"&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;x" not in raw:
    print("the planted name is not there, escaped"); sys.exit(1)
EOF

# HTML: one self-contained page, of a window where kernels run (3 ms
# from 1 ms before the median kernel).
from=$("$G" --no-cache search --json --type kernel --limit 100000 \
    --fields start_ns "$t" | python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["rows"]
s = max(0, sorted(x["start_ns"] for x in r)[len(r) // 2] - 1000000)
print("%dns %dns" % (s, s + 3000000))') || fail "no kernels"
# shellcheck disable=SC2086
set -- $from
"$G" --no-cache export --to html --from "$1" --until "$2" "$t" \
    >"$TMPD/f.html" || fail "export --to html"
python3 - "$TMPD/f.html" <<'EOF' || fail "the HTML page is not self-contained"
import re, sys
import xml.etree.ElementTree as ET
s = open(sys.argv[1], encoding="utf-8").read()
if not s.startswith("<!DOCTYPE html>"):
    print("no doctype"); sys.exit(1)
refs = re.findall(r'(?:src|href)\s*=', s)
if refs or "<script" in s or "@import" in s:
    print("external references or scripts"); sys.exit(1)
a, b = s.index("<svg"), s.index("</svg>") + 6
ET.fromstring(s[a:b])
EOF

# Too many shapes: per pixel column, with a warning.
"$G" --no-cache export --to svg --max-shapes 100 "$t" >"$TMPD/b.svg" \
    2>"$TMPD/b.err" || fail "export --max-shapes"
grep -q 'class="bin"' "$TMPD/b.svg" || fail "no binned columns"
grep -q 'class="ev"' "$TMPD/b.svg" && fail "binned figure still draws events"
grep -q "drawn per pixel column" "$TMPD/b.err" || fail "no warning: $(cat "$TMPD/b.err")"

# Usage errors.
"$G" --no-cache export --to svg --width 3 "$t" >/dev/null 2>"$TMPD/u.err"
[ $? -eq 2 ] || fail "--width 3 is not a usage error"
"$G" --no-cache export --to png "$t" >/dev/null 2>"$TMPD/u.err"
[ $? -eq 2 ] || fail "--to png is not a usage error"
grep -q "svg" "$TMPD/u.err" || fail "the error does not list svg: $(cat "$TMPD/u.err")"

# A real browser renders it.
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chrome" ]; then
	HOME=$TMPD timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
	    --hide-scrollbars --window-size=1500,800 \
	    --screenshot="$TMPD/shot.png" "file://$TMPD/f.html" \
	    >"$TMPD/chrome.log" 2>&1
	[ -s "$TMPD/shot.png" ] || fail "no screenshot: $(tail -5 "$TMPD/chrome.log")"
	python3 - "$TMPD/shot.png" <<'EOF' || fail "the screenshot does not show the kernels"
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(d):
    n, typ = struct.unpack(">I4s", d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
bpp = 4 if ctype == 6 else 3
stride = w * bpp
prev = bytearray(stride)
seen = 0
i = 0
for y in range(h):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[x] = (line[x] + pr) & 255
    # Below the title, legend and ruler: the kernels' bars.
    for x in range(0, stride, bpp):
        if y >= 70 and tuple(line[x:x + 3]) == (0x00, 0xaf, 0xff):
            seen += 1
    prev = line
if seen < 20:
    print("kernel colour on %d pixels" % seen); sys.exit(1)
EOF
else
	echo "chromium is not installed: the browser rendering check is skipped"
fi
pass
