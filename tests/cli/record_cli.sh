#!/bin/sh
#
# record_cli: `gpulens record` builds the profiler command the analyses
# need, runs it, and loads what it wrote, without NVIDIA tools or PyTorch:
#   - --dry-run prints the exact nsys / ncu / python command, one
#     shell-quoted line whose words are checked (flags, output name, the
#     program and its arguments, quoting kept);
#   - without the tool on PATH the same command is printed and the exit
#     status is 2; usage errors (no program, two tools, --torch on a
#     non-Python program, tool options with the wrong tool) exit 2;
#   - stub nsys and ncu on PATH that write a generated trace / a project
#     report where the real tools would: record runs them with the
#     program's arguments, loads the result (the cache fills), says where
#     it is, and reports the program's exit status; a tool that writes
#     nothing is an error;
#   - --torch runs the real python3 with the bootstrap against a stand-in
#     torch module: the script (and -m MODULE) runs with its own argv, the
#     profile is exported to OUT.pt.trace.json, the exit status is kept.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
G=$GPULENS
case $G in
/*) ;;
*) G=$(pwd)/$G ;;
esac
src=${GPULENS_SRCDIR:-.}
case $src in
/*) ;;
*) src=$(pwd)/$src ;;
esac
export XDG_CACHE_HOME=$TMPD/cache
bin=$TMPD/bin
mkdir -p "$bin" "$TMPD/run" "$XDG_CACHE_HOME"
cd "$TMPD/run" || fail "cd"

# words FILE: the printed command line, one word per line (python's shlex).
words() {
	python3 -c 'import shlex, sys; print("\n".join(shlex.split(open(sys.argv[1]).read())))' "$1"
}

# Dry runs.
"$G" record --dry-run --out run1 -- ./train --lr 1e-3 "a b" >"$TMPD/n.txt" ||
    fail "record --dry-run"
words "$TMPD/n.txt" >"$TMPD/n.words"
cat >"$TMPD/n.want" <<'EOF'
nsys
profile
--trace=cuda,nvtx,osrt,cudnn,cublas
--sample=process-tree
--cpuctxsw=process-tree
--cuda-graph-trace=node
--cuda-memory-usage=true
--export=sqlite
--force-overwrite=true
--output=run1
./train
--lr
1e-3
a b
EOF
cmp -s "$TMPD/n.words" "$TMPD/n.want" ||
    fail "nsys command: $(diff "$TMPD/n.want" "$TMPD/n.words")"
"$G" record --mpi --gpu-metrics --dry-run --out r -- ./a >"$TMPD/m.txt" ||
    fail "record --mpi --gpu-metrics"
grep -q -- "--trace=cuda,nvtx,osrt,cudnn,cublas,mpi " "$TMPD/m.txt" ||
    fail "--mpi: $(cat "$TMPD/m.txt")"
grep -q -- "--gpu-metrics-devices=all " "$TMPD/m.txt" ||
    fail "--gpu-metrics: $(cat "$TMPD/m.txt")"
"$G" record --ncu --launch-count 5 --out k --dry-run -- ./k 3 >"$TMPD/c.txt" ||
    fail "record --ncu --dry-run"
[ "$(words "$TMPD/c.txt" | tr '\n' ' ')" = "ncu --set full --import-source yes --target-processes all --launch-count 5 --force-overwrite --export k ./k 3 " ] ||
    fail "ncu command: $(cat "$TMPD/c.txt")"
"$G" record --torch --out t --dry-run -- python3 -m pkg.mod x >"$TMPD/t.txt" ||
    fail "record --torch --dry-run"
words "$TMPD/t.txt" >"$TMPD/t.words"
[ "$(sed -n 1p "$TMPD/t.words")" = python3 ] && [ "$(sed -n 2p "$TMPD/t.words")" = -c ] ||
    fail "torch command: $(head -3 "$TMPD/t.words")"
[ "$(tail -n 4 "$TMPD/t.words" | tr '\n' ' ')" = "t.pt.trace.json -m pkg.mod x " ] ||
    fail "torch command tail: $(tail -n 4 "$TMPD/t.words")"
[ -z "$(ls "$TMPD/run")" ] || fail "a dry run wrote files: $(ls "$TMPD/run")"

# Usage errors.
for args in "--" "--nsys --ncu -- ./a" "--torch -- ./a" "--torch -- python3" \
    "--torch -- python3 -c pass" "--ncu --mpi -- ./a" "--launch-count 3 -- ./a" \
    "--launch-count x --ncu -- ./a" "--bogus -- ./a" "--out"; do
	# shellcheck disable=SC2086
	"$G" record $args >/dev/null 2>"$TMPD/u.err"
	rc=$?
	[ $rc -eq 2 ] || fail "record $args exited $rc, not 2"
	grep -q "record" "$TMPD/u.err" || fail "record $args: no message"
done

# Without the tool: the command, exit 2.
PATH=/nonexistent "$G" record --out x -- ./a >"$TMPD/o.txt" 2>"$TMPD/o.err"
[ $? -eq 2 ] || fail "record without nsys does not exit 2"
grep -q "^nsys profile" "$TMPD/o.txt" || fail "no command printed: $(cat "$TMPD/o.txt")"
grep -q "not on PATH" "$TMPD/o.err" || fail "no explanation: $(cat "$TMPD/o.err")"

# Stub nsys: writes OUT.sqlite (a generated trace) and runs the program.
cat >"$bin/nsys" <<EOF
#!/bin/sh
out=
shift
while [ \$# -gt 0 ]; do
	case \$1 in
	--output=*) out=\${1#--output=} ;;
	--*) ;;
	*) break ;;
	esac
	shift
done
"$G" demo --out "\$out.sqlite" --events 2000 >/dev/null 2>&1 || exit 90
: >"\$out.nsys-rep"
"\$@"
EOF
cat >"$TMPD/prog" <<'EOF'
#!/bin/sh
printf '%s|' "$@" >args.txt
exit 3
EOF
chmod +x "$bin/nsys" "$TMPD/prog"
PATH=$bin:$PATH "$G" record --out cap -- "$TMPD/prog" one "two words" \
    >"$TMPD/r.out" 2>"$TMPD/r.err" </dev/null
rc=$?
[ $rc -eq 0 ] || fail "record with a stub nsys exited $rc: $(cat "$TMPD/r.err")"
[ "$(cat args.txt)" = "one|two words|" ] ||
    fail "the program got the wrong arguments: $(cat args.txt)"
grep -q "recorded cap.sqlite" "$TMPD/r.out" || fail "no result line: $(cat "$TMPD/r.out")"
grep -q "status 3" "$TMPD/r.err" || fail "the program's status is not reported"
[ -n "$(find "$XDG_CACHE_HOME" -type f)" ] || fail "record did not fill the cache"
"$G" summary --json cap.sqlite >/dev/null || fail "the recorded trace does not load"

# A tool that writes nothing.
printf '#!/bin/sh\nexit 4\n' >"$bin/nsys"
PATH=$bin:$PATH "$G" record --out none -- ./a >/dev/null 2>"$TMPD/e.err" </dev/null
[ $? -eq 1 ] || fail "a missing result is not an error"
grep -q "status 4 and wrote no none.sqlite" "$TMPD/e.err" || fail "message: $(cat "$TMPD/e.err")"

# Stub ncu: copies a project report to OUT.ncu-rep.
rep=$(ls "$src"/fixtures/ncu/*.ncu-rep 2>/dev/null | head -1)
if [ -n "$rep" ]; then
	cat >"$bin/ncu" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
	case \$1 in
	--export) out=\$2; shift ;;
	--set|--import-source|--target-processes|--launch-count) shift ;;
	--*) ;;
	*) break ;;
	esac
	shift
done
cp "$rep" "\$out.ncu-rep"
EOF
	chmod +x "$bin/ncu"
	PATH=$bin:$PATH "$G" record --ncu --out kr -- ./k >"$TMPD/k.out" \
	    2>"$TMPD/k.err" </dev/null || fail "record --ncu: $(cat "$TMPD/k.err")"
	grep -q "recorded kr.ncu-rep" "$TMPD/k.out" || fail "ncu result: $(cat "$TMPD/k.out")"
	"$G" launches --json kr.ncu-rep >/dev/null || fail "the recorded report does not load"
fi

# --torch: the real python3 runs the bootstrap against a stand-in torch.
mkdir -p "$TMPD/py/torch" "$TMPD/py/pkg"
cat >"$TMPD/py/torch/__init__.py" <<'EOF'
class cuda:
    @staticmethod
    def is_available():
        return False
EOF
cat >"$TMPD/py/torch/profiler.py" <<'EOF'
import json
class ProfilerActivity:
    CPU = "cpu"
    CUDA = "cuda"
class profile:
    def __init__(self, activities, record_shapes, with_flops):
        assert activities == ["cpu"] and record_shapes and with_flops
    def __enter__(self):
        return self
    def __exit__(self, *a):
        return False
    def export_chrome_trace(self, path):
        ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1,
               "tid": 1, "ts": 10.0, "dur": 5.0, "args": {}}]
        json.dump({"schemaVersion": 1, "traceEvents": ev}, open(path, "w"))
EOF
cat >"$TMPD/py/script.py" <<'EOF'
import sys
open("script-args.txt", "w").write("|".join(sys.argv))
sys.exit(5)
EOF
cat >"$TMPD/py/pkg/__init__.py" <<'EOF'
EOF
cat >"$TMPD/py/pkg/mod.py" <<'EOF'
import sys
open("mod-args.txt", "w").write("|".join(sys.argv[1:]) + "|" + __name__)
EOF
PYTHONPATH=$TMPD/py "$G" record --torch --no-open --out tr -- python3 \
    "$TMPD/py/script.py" a "b c" >"$TMPD/p.out" 2>"$TMPD/p.err" </dev/null ||
    fail "record --torch: $(cat "$TMPD/p.err")"
[ "$(cat script-args.txt)" = "$TMPD/py/script.py|a|b c" ] ||
    fail "the script's argv: $(cat script-args.txt)"
grep -q "status 5" "$TMPD/p.err" || fail "the script's exit status: $(cat "$TMPD/p.err")"
[ -s tr.pt.trace.json ] || fail "no tr.pt.trace.json"
grep -q "recorded tr.pt.trace.json" "$TMPD/p.out" || fail "torch result: $(cat "$TMPD/p.out")"
(cd "$TMPD/py" && PYTHONPATH=$TMPD/py "$G" record --torch --no-open \
    --out "$TMPD/run/tm" -- python3 -m pkg.mod x y >/dev/null \
    2>"$TMPD/pm.err" </dev/null) || fail "record --torch -m: $(cat "$TMPD/pm.err")"
[ "$(cat "$TMPD/py/mod-args.txt")" = "x|y|__main__" ] ||
    fail "the module's argv: $(cat "$TMPD/py/mod-args.txt")"
[ -s "$TMPD/run/tm.pt.trace.json" ] || fail "no tm.pt.trace.json"
pass
