#!/usr/bin/env python3
"""flops_shapes: `gpulens flops --by op` against FLOPs computed here from
each operator's "Input Dims" (and "Concrete Inputs"), with TraceLens's
perf-model formulas, over the Kineto JSON itself.

Usage: flops_shapes.py GPULENS TRACE [MIN_OPS]. Exit 0 pass, 1 fail.

Every cpu_op of a counted name with usable shapes is an operator; the
lists (sorted by start, name, FLOPs) must be equal, FLOPs to the unit, and
the counted total (operators no other operator runs inside, on the same
thread) must equal gpulens's total_flops. MIN_OPS: the least number of
matrix operators (mm, addmm, bmm, baddbmm, matmul, linear) expected.
"""
import decimal
import gzip
import json
import subprocess
import sys

MATRIX = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm",
          "aten::matmul", "aten::linear"}
# name: (q/k/v laid out (B, N, H, d)?, causal index; negative: mask type)
SDPA = {
    "aten::scaled_dot_product_attention": (False, 5),
    "aten::_scaled_dot_product_flash_attention": (False, 4),
    "aten::_scaled_dot_product_efficient_attention": (False, 6),
    "aten::_scaled_dot_product_cudnn_attention": (False, 6),
    "aten::_flash_attention_forward": (True, 8),
    "aten::_efficient_attention_forward": (True, -9),
    "flash_attn::_flash_attn_forward": (True, 5),
    "FlashAttnFunc": (True, 5),
}
CONV = {"aten::convolution": True, "aten::_convolution": True,
        "aten::conv1d": False, "aten::conv2d": False, "aten::conv3d": False}


def ns(v):
    d = decimal.Decimal(str(v)) * 1000
    return int(d.quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def tup(ci, i, nd, default):
    if i < 0 or i >= len(ci) or ci[i] == "":
        return [default] * nd
    v = [int(x) for x in ci[i].strip("[]").split(",") if x.strip()]
    return v * nd if len(v) == 1 else v


def flops(name, a):
    d = a.get("Input Dims")
    if "flops" in a:
        return float(a["flops"])
    if d is None:
        return None
    ci = a.get("Concrete Inputs", [])
    try:
        if name == "aten::mm":
            return 2 * d[0][0] * d[1][1] * d[0][1]
        if name == "aten::addmm":
            M, K, N = d[1][0], d[1][1], d[2][1]
            return 2 * M * N * K + M * N
        if name == "aten::bmm":
            return d[0][0] * 2 * d[0][1] * d[1][2] * d[0][2]
        if name == "aten::baddbmm":
            b, M, K, N = d[1][0], d[1][1], d[1][2], d[2][2]
            return b * (2 * M * N * K + M * N)
        if name == "aten::matmul":
            A, B = d[0], d[1]
            K, M = A[-1], (A[-2] if len(A) >= 2 else 1)
            N = B[-1] if len(B) >= 2 else 1
            la, lb = A[:-2], B[:-2]
            n = max(len(la), len(lb))
            la = [1] * (n - len(la)) + list(la)
            lb = [1] * (n - len(lb)) + list(lb)
            return 2 * prod(max(x, y) for x, y in zip(la, lb)) * M * N * K
        if name == "aten::linear":
            X, W = d[0], d[1]
            M, K = prod(X[:-1]), X[-1]
            N = W[0] if len(W) == 2 else 1
            bias = len(d) > 2 and len(d[2]) > 0
            return 2 * M * N * K + (M * N if bias else 0)
        if name in CONV:
            x, w = d[0], d[1]
            nd = len(x) - 2
            full = CONV[name]
            s, p, dl = tup(ci, 3, nd, 1), tup(ci, 4, nd, 0), tup(ci, 5, nd, 1)
            tr = full and len(ci) > 6 and ci[6] == "True"
            op = tup(ci, 7 if full else -1, nd, 0)
            g = tup(ci, 8, 1, 1)[0] if full and tr else 1
            if tr:
                out = [x[0], w[1] * g] + [(x[i + 2] - 1) * s[i] - 2 * p[i] +
                                          dl[i] * (w[i + 2] - 1) + op[i] + 1
                                          for i in range(nd)]
            else:
                out = [x[0], w[0]] + [(x[i + 2] + 2 * p[i] - dl[i] *
                                       (w[i + 2] - 1) - 1) // s[i] + 1
                                      for i in range(nd)]
            per = 2 * prod(w[1:])
            bias = len(d) > 2 and len(d[2]) > 0
            return (prod(x) if tr else prod(out)) * per + \
                (prod(out) if bias else 0)
        if name in SDPA:
            bnhd, ci_i = SDPA[name]
            q, k, v = d[0], d[1], d[2]
            n, h = (1, 2) if bnhd else (2, 1)
            B, Hq, Nq, dqk, Nkv, dv = q[0], q[h], q[n], q[3], k[n], v[3]
            if ci_i < 0:
                causal = len(ci) > -ci_i and ci[-ci_i] not in ("", "0")
            else:
                causal = len(ci) > ci_i and ci[ci_i] == "True"
            f = B * Hq * (2 * Nq * Nkv * dqk + 2 * Nq * Nkv * dv)
            return f / 2 if causal and Nq == Nkv else f
    except (IndexError, ValueError, TypeError):
        return None
    return None


def main():
    g, path = sys.argv[1], sys.argv[2]
    min_ops = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        d = json.load(f, parse_float=decimal.Decimal)
    ev = d["traceEvents"] if isinstance(d, dict) else d
    ops = []
    for e in ev:
        n = e.get("name")
        if e.get("ph") != "X" or e.get("cat") != "cpu_op":
            continue
        if n not in MATRIX and n not in SDPA and n not in CONV:
            continue
        f = flops(n, e.get("args") or {})
        if f is None:
            continue
        s = ns(e["ts"])
        ops.append((s, n, f, s + ns(e["dur"]), e.get("pid"), e.get("tid")))
    nmatrix = sum(1 for o in ops if o[1] in MATRIX)
    # Counted: no other operator inside it on its thread.
    by_thread = {}
    for o in ops:
        by_thread.setdefault((o[4], o[5]), []).append(o)
    total = 0
    for o in ops:
        inner = any(x is not o and o[0] <= x[0] and x[3] <= o[3] and
                    (x[0], x[3]) != (o[0], o[3])
                    for x in by_thread[(o[4], o[5])])
        if not inner:
            total += o[2]
    out = subprocess.run([g, "flops", "--by", "op", "--json", "--no-cache",
                          "--absolute", "--limit", "0", path],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print("FAIL: gpulens exited %d: %s" % (out.returncode, out.stderr))
        sys.exit(1)
    doc = json.loads(out.stdout)
    rows = doc["data"]["rows"]
    base = min(o[0] for o in ops) if ops else 0
    gbase = min(r["start_ns"] for r in rows) if rows else 0
    want = sorted((o[0] - base, o[1], o[2]) for o in ops)
    got = sorted((r["start_ns"] - gbase, r["name"], r["flops"]) for r in rows)
    bad = 0
    if len(want) != len(got):
        print("FAIL: %d operators here, %d from gpulens" % (len(want),
                                                           len(got)))
        bad = 1
    for w, x in zip(want, got):
        if w[1] != x[1] or w[2] != x[2] or w[0] != x[0]:
            print("FAIL: operator %r here, %r from gpulens" % (w, x))
            bad += 1
            if bad > 10:
                break
    if doc["data"]["auxiliary"]["total_flops"] != total:
        print("FAIL: counted total %r here, %r from gpulens" %
              (total, doc["data"]["auxiliary"]["total_flops"]))
        bad += 1
    if nmatrix < min_ops:
        print("FAIL: %d matrix operators, expected at least %d" %
              (nmatrix, min_ops))
        bad += 1
    print("%s: %d operators (%d matrix), %d FLOPs counted" % (
        path.rsplit("/", 1)[-1], len(ops), nmatrix, total))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
