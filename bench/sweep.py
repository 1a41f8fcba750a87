#!/usr/bin/env python3
# ===- bench/sweep.py - the row-kernel sweep's programs ----------------=== #
#
# Part of the memopt project.
#
# Writes the programs of the row sweep (issue 20): RMSNorm (bf16 in and
# out, f32 statistics, bf16 gamma), softmax (f32, linalg.softmax) and add +
# LayerNorm (bf16, f32 statistics) over row lengths from 128 to 262144
# (powers of two and odd sizes), the row count chosen so that the input is
# 32 MiB (64 MiB of traffic or more); and LayerNorm backward whole (dx,
# dgamma, dbeta) and RMSNorm backward (dx, dgamma) in bf16 over shapes from
# 2048x4096 to 65536x512, odd and square ones among them (issue 22: column
# partials), written from bench/inputs/lnbwdf.mlir and rmsbwd.mlir. As MLIR
# files named sw-<op>-<dtype>-<rows>x<cols>.mlir. bench/peers.py builds the same
# functions from the name (sweep_workload below).
#
# The reduction sweep (issue 22), rs-<set>-<dtype>-<shape>.mlir: a sum with
# f32 accumulation (f32 out) over each reduced-dim set (inner, outer,
# middle, the two inner dims, all but one) with parallel extents from 1 to
# 65536 (split reductions at the small end), powers of two and odd sizes,
# f32 and bf16 inputs of 32 MiB (odd shapes a little less).
#
# Usage: sweep.py --write DIR [--quick]
#
# ===--------------------------------------------------------------------=== #

import argparse
import os
import re

COLS = [128, 512, 1000, 4096, 10007, 65536, 262144]
LN_COLS = [768, 1000, 4096, 16384]
INPUT_BYTES = 32 << 20
BWD_SHAPES = {
    "lnbwd": [(4096, 768), (2048, 4096), (10000, 1000), (8192, 2048),
              (32768, 1024), (4096, 8192), (8192, 8192), (65536, 512)],
    "rmsbwd": [(4096, 768), (2048, 4096), (16384, 5120), (65536, 512),
               (8192, 8192)],
}
HERE = os.path.dirname(os.path.abspath(__file__))


# Reduced dims of each set, by rank.
RED_SETS = {"inner": lambda r: [r - 1], "outer": lambda r: [0],
            "middle": lambda r: list(range(1, r - 1)),
            "inner2": lambda r: [r - 2, r - 1],
            "allbut1": lambda r: [d for d in range(r) if d != 1]}


def red_points(quick=False):
    """(set, dtype, shape) of the reduction sweep; 2^23 f32 or 2^24 bf16
    elements (32 MiB) unless odd."""
    out = []
    for dtype, n in (("f32", 1 << 23), ("bf16", 1 << 24)):
        ps = [1, 16, 256, 4096, 65536]
        if dtype == "bf16" or quick:
            ps = [16, 4096]
        for p in ps:
            out.append(("inner", dtype, (p, n // p)))
            out.append(("outer", dtype, (n // p, p)))
        # middle: (A, R, C) with A * C parallel, C contiguous.
        for a, c in ([(4, 4), (16, 64), (2, 4096), (64, 1024)]
                     if dtype == "f32" and not quick else [(16, 64)]):
            out.append(("middle", dtype, (a, n // (a * c), c)))
        for p in ([1, 16, 256, 4096] if dtype == "f32" and not quick
                  else [256]):
            out.append(("inner2", dtype, (p, 64, n // (64 * p))))
        for c in ([16, 64, 256, 1024] if dtype == "f32" and not quick
                  else [64]):
            out.append(("allbut1", dtype, (32, c, n // (32 * c))))
    # Odd sizes (f32).
    out += [("inner", "f32", (10007, 769)), ("outer", "f32", (10007, 769)),
            ("middle", "f32", (33, 2047, 129)),
            ("inner2", "f32", (97, 61, 1409)),
            ("allbut1", "f32", (31, 96, 2821)),
            # Odd inner extents in bf16 (shifted 8-wide loads), a middle
            # reduction over odd columns, and whole columns that leave 28
            # multiprocessors with two blocks while the rest hold one.
            ("outer", "bf16", (8191, 1023)),
            ("middle", "f32", (8, 4001, 261)),
            ("middle", "f32", (2, 8192, 1280))]
    return out


def red_name(kind, dtype, shape):
    return "rs-%s-%s-%s" % (kind, dtype, "x".join(map(str, shape)))


def red_parse(n):
    m = re.fullmatch(r"rs-(inner2|inner|outer|middle|allbut1)-(f32|bf16|f16)-"
                     r"(\d+(?:x\d+)+)", n)
    if not m:
        return None
    shape = tuple(int(v) for v in m.group(3).split("x"))
    return m.group(1), m.group(2), shape, RED_SETS[m.group(1)](len(shape))


def red_mlir(kind, dtype, shape):
    rank = len(shape)
    dims = RED_SETS[kind](rank)
    d = ["d%d" % i for i in range(rank)]
    kept = [d[i] for i in range(rank) if i not in dims]
    t = "tensor<%sx%s>" % ("x".join(map(str, shape)), dtype)
    rshape = [shape[i] for i in range(rank) if i not in dims]
    r = "tensor<%sf32>" % "".join("%dx" % v for v in rshape)
    fn = red_name(kind, dtype, shape).replace("-", "_")
    its = ", ".join('"reduction"' if i in dims else '"parallel"'
                    for i in range(rank))
    ext = ("    %%w = arith.extf %%a : %s to f32\n" % dtype
           if dtype != "f32" else "")
    w = "%w" if dtype != "f32" else "%a"
    return (f"#in = affine_map<({', '.join(d)}) -> ({', '.join(d)})>\n"
            f"#out = affine_map<({', '.join(d)}) -> ({', '.join(kept)})>\n"
            f"func.func @{fn}(%x: {t}) -> {r} {{\n"
            f"  %zero = arith.constant 0.0 : f32\n"
            f"  %e = tensor.empty() : {r}\n"
            f"  %f = linalg.fill ins(%zero : f32) outs(%e : {r}) -> {r}\n"
            f"  %s = linalg.generic {{indexing_maps = [#in, #out], "
            f"iterator_types = [{its}]}}\n"
            f"      ins(%x : {t}) outs(%f : {r}) {{\n"
            f"  ^bb0(%a: {dtype}, %acc: f32):\n{ext}"
            f"    %y = arith.addf {w}, %acc : f32\n"
            f"    linalg.yield %y : f32\n"
            f"  }} -> {r}\n"
            f"  return %s : {r}\n}}\n")


def points(quick=False):
    cols = [128, 1000, 4096, 65536] if quick else COLS
    out = []
    for c in cols:
        out.append(("rms", "bf16", max(1, INPUT_BYTES // (2 * c)), c))
        out.append(("sm", "f32", max(1, INPUT_BYTES // (4 * c)), c))
    for c in ([1000, 4096] if quick else LN_COLS):
        out.append(("addln", "bf16", max(1, INPUT_BYTES // (2 * c)), c))
    for op, shapes in BWD_SHAPES.items():
        for r, c in (shapes[:2] if quick else shapes):
            out.append((op, "bf16", r, c))
    return out


def name(op, dtype, rows, cols):
    return "sw-%s-%s-%dx%d" % (op, dtype, rows, cols)


def parse(n):
    m = re.fullmatch(r"sw-(rms|sm|addln|lnbwd|rmsbwd)-(f32|bf16|f16)-(\d+)x(\d+)",
                     n)
    if not m:
        return None
    return m.group(1), m.group(2), int(m.group(3)), int(m.group(4))


def backward(op, rows, cols):
    """The bench input of `op` (16384x4096) at rows x cols."""
    src = {"lnbwd": "lnbwdf.mlir", "rmsbwd": "rmsbwd.mlir"}[op]
    with open(os.path.join(HERE, "inputs", src)) as f:
        text = f.read()
    assert "2.44140625e-04" in text
    text = text.replace("16384", "@R@").replace("4096", "@C@")
    text = text.replace("2.44140625e-04", repr(1.0 / cols))
    return text.replace("@R@", str(rows)).replace("@C@", str(cols))


def mlir(op, dtype, rows, cols):
    if op in ("lnbwd", "rmsbwd"):
        return backward(op, rows, cols)
    t = "tensor<%dx%dx%s>" % (rows, cols, dtype)
    v = "tensor<%dx%s>" % (cols, dtype)
    r = "tensor<%dxf32>" % rows
    fn = name(op, dtype, rows, cols).replace("-", "_")
    head = ("#id = affine_map<(d0, d1) -> (d0, d1)>\n"
            "#row = affine_map<(d0, d1) -> (d0)>\n"
            "#col = affine_map<(d0, d1) -> (d1)>\n")
    if op == "sm":
        return ("func.func @%s(%%x: %s) -> %s {\n"
                "  %%e = tensor.empty() : %s\n"
                "  %%y = linalg.softmax dimension(1) ins(%%x : %s) outs(%%e : %s) -> %s\n"
                "  return %%y : %s\n}\n") % (fn, t, t, t, t, t, t, t)
    if op == "rms":
        return head + f"""func.func @{fn}(%x: {t}, %g: {v}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : {r}
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : {r}) -> {r}
  %ssq = linalg.generic {{indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}}
      ins(%x : {t}) outs(%f0 : {r}) {{
  ^bb0(%a: {dtype}, %acc: f32):
    %w = arith.extf %a : {dtype} to f32
    %sq = arith.mulf %w, %w : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  }} -> {r}
  %e2 = tensor.empty() : {t}
  %y = linalg.generic {{indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %ssq, %g : {t}, {r}, {v}) outs(%e2 : {t}) {{
  ^bb0(%a: {dtype}, %s: f32, %gv: {dtype}, %out: {dtype}):
    %n = arith.constant {float(cols)!r} : f32
    %eps = arith.constant 1.0e-6 : f32
    %ms = arith.divf %s, %n : f32
    %me = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %me : f32
    %w = arith.extf %a : {dtype} to f32
    %gw = arith.extf %gv : {dtype} to f32
    %p = arith.mulf %w, %rs : f32
    %u = arith.mulf %p, %gw : f32
    %o = arith.truncf %u : f32 to {dtype}
    linalg.yield %o : {dtype}
  }} -> {t}
  return %y : {t}
}}
"""
    # add + LayerNorm: h = x + r in dtype; mean and centred variance in f32.
    return head + f"""func.func @{fn}(%x: {t}, %res: {t}, %g: {v}, %b: {v}) -> {t} {{
  %eh = tensor.empty() : {t}
  %h = linalg.add ins(%x, %res : {t}, {t}) outs(%eh : {t}) -> {t}
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : {r}
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : {r}) -> {r}
  %sum = linalg.generic {{indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}}
      ins(%h : {t}) outs(%f0 : {r}) {{
  ^bb0(%a: {dtype}, %acc: f32):
    %w = arith.extf %a : {dtype} to f32
    %s = arith.addf %w, %acc : f32
    linalg.yield %s : f32
  }} -> {r}
  %var = linalg.generic {{indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}}
      ins(%h, %sum : {t}, {r}) outs(%f0 : {r}) {{
  ^bb0(%a: {dtype}, %s: f32, %acc: f32):
    %n = arith.constant {float(cols)!r} : f32
    %m = arith.divf %s, %n : f32
    %w = arith.extf %a : {dtype} to f32
    %d = arith.subf %w, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  }} -> {r}
  %e2 = tensor.empty() : {t}
  %y = linalg.generic {{indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%h, %sum, %var, %g, %b : {t}, {r}, {r}, {v}, {v}) outs(%e2 : {t}) {{
  ^bb0(%a: {dtype}, %s: f32, %vr: f32, %gv: {dtype}, %bv: {dtype}, %out: {dtype}):
    %n = arith.constant {float(cols)!r} : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %va = arith.divf %vr, %n : f32
    %ve = arith.addf %va, %eps : f32
    %rs = math.rsqrt %ve : f32
    %w = arith.extf %a : {dtype} to f32
    %d = arith.subf %w, %m : f32
    %p = arith.mulf %d, %rs : f32
    %gw = arith.extf %gv : {dtype} to f32
    %bw = arith.extf %bv : {dtype} to f32
    %u = arith.mulf %p, %gw : f32
    %q = arith.addf %u, %bw : f32
    %o = arith.truncf %q : f32 to {dtype}
    linalg.yield %o : {dtype}
  }} -> {t}
  return %y : {t}
}}
"""


def sweep_workload(torch, n):
    """(description, make_inputs, fn) of sweep program `n` for peers.py, or
    None when `n` is not one."""
    rp = red_parse(n)
    if rp:
        kind, dtype, shape, dims = rp
        dt = {"f32": torch.float32, "bf16": torch.bfloat16,
              "f16": torch.float16}[dtype]

        def red(x):
            return x.float().sum(dims)
        red._sweep_name = n
        desc = "sum over %s dims %s of %s %s (reduction sweep)" % (
            kind, dims, "x".join(map(str, shape)), dtype)
        return desc, lambda: (
            (torch.rand(*shape, device="cuda") * 2 - 1).to(dt),), red
    p = parse(n)
    if not p:
        return None
    op, dtype, rows, cols = p
    F = torch.nn.functional
    dt = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}[dtype]

    def rand(*shape):
        return (torch.rand(*shape, device="cuda") * 2 - 1).to(dt)

    def rms(x, g):
        h = x.float()
        return (h * torch.rsqrt((h * h).mean(-1, keepdim=True) + 1e-6) *
                g.float()).to(dt)

    def sm(x):
        return torch.softmax(x, -1)

    def addln(x, r, g, b):
        h = (x + r).float()
        return F.layer_norm(h, (cols,), g.float(), b.float(), 1e-5).to(dt)

    def lnbwd(dy, x, gamma, mean, rstd):
        xhat = (x.float() - mean[:, None]) * rstd[:, None]
        g = dy.float() * gamma.float()
        dx = rstd[:, None] * (g - (g.sum(-1, keepdim=True) +
                                   xhat * (g * xhat).sum(-1, keepdim=True)) /
                              cols)
        return (dx.to(dt), (dy.float() * xhat).sum(0), dy.float().sum(0))

    def rmsbwd(dy, x, gamma, rstd):
        g = dy.float() * gamma.float()
        xf = x.float()
        s = (g * xf).sum(-1, keepdim=True)
        dx = rstd * g - xf * rstd * rstd * rstd * s / cols
        return dx.to(dt), (dy.float() * xf * rstd).sum(0)

    for f in (rms, sm, addln, lnbwd, rmsbwd):
        f._sweep_name = n
    desc = "%s %s %dx%d (sweep)" % (op, dtype, rows, cols)
    f32 = lambda *shape: torch.rand(*shape, device="cuda") * 2 - 1
    if op == "lnbwd":
        return desc, lambda: (rand(rows, cols), rand(rows, cols), rand(cols),
                              f32(rows), f32(rows) + 2), lnbwd
    if op == "rmsbwd":
        return desc, lambda: (rand(rows, cols), rand(rows, cols), rand(cols),
                              f32(rows, 1) + 2), rmsbwd
    if op == "rms":
        return desc, lambda: (rand(rows, cols), rand(cols)), rms
    if op == "sm":
        return desc, lambda: (rand(rows, cols),), sm
    return desc, lambda: (rand(rows, cols), rand(rows, cols), rand(cols),
                          rand(cols)), addln


def sweep_jax(jax, n):
    """The JAX twin of sweep program `n`."""
    jnp, nn, lax = jax.numpy, jax.nn, jax.lax
    rp = red_parse(n)
    if rp:
        dims = tuple(rp[3])
        return lambda x: jnp.sum(x.astype(jnp.float32), axis=dims)
    op, dtype, rows, cols = parse(n)
    dt = {"f32": jnp.float32, "bf16": jnp.bfloat16, "f16": jnp.float16}[dtype]

    def rms(x, g):
        h = x.astype(jnp.float32)
        return (h * lax.rsqrt(jnp.mean(h * h, -1, keepdims=True) + 1e-6) *
                g.astype(jnp.float32)).astype(dt)

    def sm(x):
        return nn.softmax(x, axis=-1)

    def addln(x, r, g, b):
        h = (x + r).astype(jnp.float32)
        m = jnp.mean(h, -1, keepdims=True)
        v = jnp.mean((h - m) ** 2, -1, keepdims=True)
        return ((h - m) * lax.rsqrt(v + 1e-5) * g.astype(jnp.float32) +
                b.astype(jnp.float32)).astype(dt)

    def lnbwd(dy, x, gamma, mean, rstd):
        f32 = jnp.float32
        xhat = (x.astype(f32) - mean[:, None]) * rstd[:, None]
        g = dy.astype(f32) * gamma.astype(f32)
        dx = rstd[:, None] * (g - (jnp.sum(g, -1, keepdims=True) + xhat *
                                   jnp.sum(g * xhat, -1, keepdims=True)) /
                              cols)
        return (dx.astype(dt), jnp.sum(dy.astype(f32) * xhat, 0),
                jnp.sum(dy.astype(f32), 0))

    def rmsbwd(dy, x, gamma, rstd):
        f32 = jnp.float32
        g = dy.astype(f32) * gamma.astype(f32)
        xf = x.astype(f32)
        s = jnp.sum(g * xf, -1, keepdims=True)
        dx = rstd * g - xf * rstd * rstd * rstd * s / cols
        return dx.astype(dt), jnp.sum(dy.astype(f32) * xf * rstd, 0)

    return {"rms": rms, "sm": sm, "addln": addln, "lnbwd": lnbwd,
            "rmsbwd": rmsbwd}[op]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--write", required=True, help="directory for the .mlir")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reductions", action="store_true",
                    help="write the reduction sweep (rs-*) instead")
    args = ap.parse_args()
    os.makedirs(args.write, exist_ok=True)
    if args.reductions:
        for p in red_points(args.quick):
            with open(os.path.join(args.write, red_name(*p) + ".mlir"),
                      "w") as f:
                f.write("// Reduction sweep program (bench/sweep.py): %s\n"
                        % red_name(*p))
                f.write(red_mlir(*p))
            print(red_name(*p))
        return
    for p in points(args.quick):
        with open(os.path.join(args.write, name(*p) + ".mlir"), "w") as f:
            f.write("// Row sweep program (bench/sweep.py): %s\n" % name(*p))
            f.write(mlir(*p))
        print(name(*p))


if __name__ == "__main__":
    main()
