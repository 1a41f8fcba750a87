#!/usr/bin/env python3
"""Random program generator for memopt's tensor-level input contract.

Generates one public func.func on statically shaped tensors, written with upstream
linalg named ops, linalg.generic (projected-permutation and constant-index maps) with
arith/math bodies, tensor.empty / linalg.fill, tensor.expand_shape / collapse_shape,
static tensor.extract_slice / tensor.pad by a constant / tensor.concat.
See /work/shared/DESIGN.md "Input contract".

The generator keeps values finite and well conditioned so that reassociation of f32
reductions and fusion stay inside the runtime's tolerances (f32 1e-4 abs + 1e-4 rel,
f16 1e-2, bf16 2e-2) for inputs uniform in [-1, 1):
  * every value carries a bound on its magnitude; results above a limit are squashed
    (tanh or a constant scale);
  * exp only on values bounded by ~2; division only by abs(y) + c with c >= 0.5;
  * sqrt of computed values is sqrt(abs(y) + c); sums over long rows are means;
  * comparisons only feed continuous selects (leaky relu);
  * integer outputs: i8 quantization (off-by-one tolerated by the runtime) of any value,
    i32 only of expressions that are exact in IEEE arithmetic (function inputs scaled
    by powers of two).

Python 3 standard library only.

Usage: gen.py --seed N [--max-elems E] [--ops KIND,...] [-o FILE]
"""

import argparse
import random
import sys

HALF = ("f16", "bf16")
NEG_INF = {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80"}
SIZES = [1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 32, 33, 48, 64, 96, 100, 127, 128, 255, 256,
         257, 384, 500, 512, 768, 1000, 1024, 2048, 3000, 4096]


# Constructs that can be left out with --avoid while a compiler bug is open.
AVOIDABLE = {
    "dup-results": "the same value returned twice",
    "outs-arg": "a function argument (or a reshape of one) as the outs operand of a "
                "linalg.generic",
    "bf16": "bf16 programs (f16 instead)",
    "rank3-reductions": "reductions / normalizations of rank-3 values",
    "half-absf-fma": "math.absf / math.fma on f16/bf16 (half programs compute generic "
                     "bodies in f32; named abs becomes max(x, -x))",
}


def fmt_float(v):
    return "%.8e" % v


def ty(shape, dt):
    if not shape:
        return "tensor<%s>" % dt
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), dt)


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def dims(rank):
    return ", ".join("d%d" % i for i in range(rank))


def amap(rank, results):
    return "affine_map<(%s) -> (%s)>" % (dims(rank), ", ".join(results))


class Val(object):
    def __init__(self, name, shape, dt, bound, exact=False, arg=False):
        self.name = name
        self.shape = tuple(shape)
        self.dt = dt
        self.bound = bound      # |value| <= bound (or NaN-free finite estimate)
        self.exact = exact      # computed without rounding (function inputs)
        self.arg = arg
        self.alias_arg = arg    # a function argument or a reshape of one
        self.uses = 0

    @property
    def ty(self):
        return ty(self.shape, self.dt)


class Gen(object):
    def __init__(self, seed, max_elems=1 << 18, max_ops=None, avoid=(), ops=None):
        self.avoid = set(avoid)
        known = set(n for n, _ in self.OPS)
        if ops and set(ops) - known:
            raise ValueError("unknown --ops kind(s): %s (known: %s)" % (
                ", ".join(sorted(set(ops) - known)), ", ".join(sorted(known))))
        self.only = set(ops or ())
        unknown = self.avoid - set(AVOIDABLE)
        if unknown:
            raise ValueError("unknown --avoid feature(s): %s" % ", ".join(sorted(unknown)))
        self.r = random.Random(seed)
        self.seed = seed
        self.max_elems = max_elems
        self.lines = []
        self.args = []
        self.pool = []
        self.must_return = []
        self.counter = 0
        r = self.r
        x = r.random()
        self.dt = "f32" if x < 0.7 else ("f16" if x < 0.85 else "bf16")
        if self.dt == "bf16" and "bf16" in self.avoid:
            self.dt = "f16"
        self.limit = 8.0 if self.dt == "f32" else 2.0
        self.share_empty = r.random() < 0.3
        self.empties = {}
        self.hoisted = {}
        self.hoist_consts = r.random() < 0.5
        self.max_ops = max_ops if max_ops is not None else r.randint(2, 9)
        self.ops_log = []
        # main 2-D shape
        self.M, self.N = self.pick_2d()

    # ------------------------------------------------------------------ helpers
    def pick_2d(self):
        r = self.r
        for _ in range(100):
            m = r.choice(SIZES)
            n = r.choice(SIZES)
            if m * n <= self.max_elems and m * n >= 1:
                # avoid too many trivial programs
                if m * n < 16 and r.random() < 0.7:
                    continue
                return m, n
        return 4, 8

    def fresh(self, prefix="v"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def emit(self, s):
        self.lines.append("  " + s)

    def add(self, v):
        self.pool.append(v)
        return v

    def new_arg(self, shape, dt=None, bound=1.0):
        dt = dt or self.dt
        name = "%%arg%d" % len(self.args)
        v = Val(name, shape, dt, bound, exact=True, arg=True)
        self.args.append(v)
        self.pool.append(v)
        return v

    def get(self, shape, dt=None, maxbound=None, p_new=0.15, avoid=()):
        dt = dt or self.dt
        shape = tuple(shape)
        cands = [v for v in self.pool
                 if v.shape == shape and v.dt == dt and v not in avoid and
                 (maxbound is None or v.bound <= maxbound)]
        if cands and self.r.random() >= p_new:
            # prefer recent values (chains), sometimes anything (multi-use)
            if self.r.random() < 0.6:
                v = cands[-1]
            else:
                v = self.r.choice(cands)
        else:
            v = self.new_arg(shape, dt)
            if maxbound is not None and v.bound > maxbound:
                v = self.squash(v, maxbound)
        v.uses += 1
        return v

    def empty(self, shape, dt):
        key = (tuple(shape), dt)
        if self.share_empty and key in self.empties:
            return self.empties[key]
        n = self.fresh("e")
        self.emit("%s = tensor.empty() : %s" % (n, ty(shape, dt)))
        if self.share_empty:
            self.empties[key] = n
        return n

    def scalar_const(self, value, dt):
        """An arith.constant at function level (hoisted and cached)."""
        key = (value, dt)
        if key in self.hoisted:
            return self.hoisted[key]
        n = self.fresh("c")
        lit = value if isinstance(value, str) else fmt_float(value)
        self.emit("%s = arith.constant %s : %s" % (n, lit, dt))
        self.hoisted[key] = n
        return n

    def fill(self, shape, dt, value):
        c = self.scalar_const(value, dt)
        out = self.empty(shape, dt)
        n = self.fresh("f")
        self.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s"
                  % (n, c, dt, out, ty(shape, dt), ty(shape, dt)))
        return n

    def named(self, op, ins, shape, dt, bound, exact=False):
        out = self.empty(shape, dt)
        n = self.fresh()
        names = ", ".join(v if isinstance(v, str) else v.name for v in ins)
        tys = ", ".join(ty(shape, dt) for _ in ins)
        self.emit("%s = %s ins(%s : %s) outs(%s : %s) -> %s"
                  % (n, op, names, tys, out, ty(shape, dt), ty(shape, dt)))
        return self.add(Val(n, shape, dt, bound, exact))

    def abs_named(self, v):
        if v.dt in HALF and "half-absf-fma" in self.avoid:
            n = self.named("linalg.negf", [v], v.shape, v.dt, v.bound)
            return self.named("linalg.max", [v, n], v.shape, v.dt, v.bound)
        return self.named("linalg.abs", [v], v.shape, v.dt, v.bound)

    def squash(self, v, limit=None):
        """Bring |v| below limit: tanh, or multiply by a constant."""
        limit = limit or self.limit
        if v.bound <= limit:
            return v
        if self.r.random() < 0.5:
            return self.named("linalg.tanh", [v], v.shape, v.dt, 1.0)
        s = 1.0 / v.bound
        f = self.fill(v.shape, v.dt, s)
        return self.named("linalg.mul", [v, f], v.shape, v.dt, 1.0)

    def pick_float_val(self, ranks=(1, 2, 3), dt=None, min_elems=1):
        dt = dt or self.dt
        cands = [v for v in self.pool if v.dt == dt and len(v.shape) in ranks and
                 numel(v.shape) >= min_elems]
        if cands and self.r.random() < 0.85:
            if self.r.random() < 0.6:
                return cands[-1]
            return self.r.choice(cands)
        return None

    def main_val(self, ranks=(2,)):
        v = self.pick_float_val(ranks)
        if v is None:
            v = self.new_arg((self.M, self.N))
        v.uses += 1
        return v

    # ------------------------------------------------------------ body builder
    class Body(object):
        def __init__(self, gen, ct):
            self.g = gen
            self.ct = ct          # compute type (f32 or program half type)
            self.lines = []
            self.n = 0
            self.consts = {}

        def fresh(self):
            self.n += 1
            return "%%b%d" % self.n

        def op(self, text, rty=None):
            n = self.fresh()
            self.lines.append("%s = %s" % (n, text))
            return n

        def const(self, value, t=None):
            t = t or self.ct
            g = self.g
            if g.hoist_consts and g.r.random() < 0.5:
                return g.scalar_const(value, t)   # captured from above
            key = (value, t)
            if key in self.consts:
                return self.consts[key]
            lit = value if isinstance(value, str) else fmt_float(value)
            n = self.op("arith.constant %s : %s" % (lit, t))
            self.consts[key] = n
            return n

    def expr(self, b, leaves, depth):
        """Random expression over leaves [(ssa, bound)]; returns (ssa, bound)."""
        r = self.r
        ct = b.ct
        if depth <= 0 or r.random() < 0.25:
            if r.random() < 0.1:
                c = r.choice([0.5, 2.0, -1.5, 0.125, 3.0, 0.7978845608, 0.044715, 1e-3])
                return b.const(c), abs(c)
            return r.choice(leaves)
        k = r.random()
        if k < 0.45:
            a = self.expr(b, leaves, depth - 1)
            c = self.expr(b, leaves, depth - 1)
            op = r.choice(["addf", "subf", "mulf", "maximumf", "minimumf", "divf",
                           "maxnumf", "minnumf", "fma"])
            if op in ("addf", "subf"):
                return b.op("arith.%s %s, %s : %s" % (op, a[0], c[0], ct)), a[1] + c[1]
            if op == "mulf":
                return b.op("arith.mulf %s, %s : %s" % (a[0], c[0], ct)), a[1] * c[1]
            if op in ("maximumf", "minimumf", "maxnumf", "minnumf"):
                return (b.op("arith.%s %s, %s : %s" % (op, a[0], c[0], ct)),
                        max(a[1], c[1]))
            if op == "fma":
                d = self.expr(b, leaves, depth - 1)
                return (b.op("math.fma %s, %s, %s : %s" % (a[0], c[0], d[0], ct)),
                        a[1] * c[1] + d[1])
            # safe division a / (|c| + k)
            kk = r.choice([0.5, 1.0, 2.0])
            ab = b.op("math.absf %s : %s" % (c[0], ct))
            den = b.op("arith.addf %s, %s : %s" % (ab, b.const(kk), ct))
            return b.op("arith.divf %s, %s : %s" % (a[0], den, ct)), a[1] / kk
        a = self.expr(b, leaves, depth - 1)
        u = r.choice(["tanh", "absf", "negf", "exp", "sqrt", "leaky", "rsqrt", "pow2",
                      "pow3", "scale", "erf", "sigmoid"])
        if u == "tanh":
            return b.op("math.tanh %s : %s" % (a[0], ct)), 1.0
        if u == "absf":
            return b.op("math.absf %s : %s" % (a[0], ct)), a[1]
        if u == "negf":
            return b.op("arith.negf %s : %s" % (a[0], ct)), a[1]
        if u == "exp":
            x = a
            if x[1] > 2.0:
                x = (b.op("math.tanh %s : %s" % (x[0], ct)), 1.0)
            return b.op("math.exp %s : %s" % (x[0], ct)), 2.7183 ** x[1]
        if u == "sqrt":
            ab = b.op("math.absf %s : %s" % (a[0], ct))
            c = r.choice([0.01, 0.1, 1.0])
            s = b.op("arith.addf %s, %s : %s" % (ab, b.const(c), ct))
            return b.op("math.sqrt %s : %s" % (s, ct)), (a[1] + c) ** 0.5
        if u == "rsqrt":
            sq = b.op("arith.mulf %s, %s : %s" % (a[0], a[0], ct))
            s = b.op("arith.addf %s, %s : %s" % (sq, b.const(1.0), ct))
            return b.op("math.rsqrt %s : %s" % (s, ct)), 1.0
        if u == "leaky":
            z = b.const(0.0)
            cmp = b.op("arith.cmpf ogt, %s, %s : %s" % (a[0], z, ct))
            sc = b.op("arith.mulf %s, %s : %s" % (a[0], b.const(0.125), ct))
            return b.op("arith.select %s, %s, %s : %s" % (cmp, a[0], sc, ct)), a[1]
        if u == "pow2":
            return b.op("math.powf %s, %s : %s" % (a[0], b.const(2.0), ct)), a[1] ** 2
        if u == "pow3":
            return b.op("math.powf %s, %s : %s" % (a[0], b.const(3.0), ct)), a[1] ** 3
        if u == "erf":
            return b.op("math.erf %s : %s" % (a[0], ct)), 1.0
        if u == "sigmoid":
            x = a
            if x[1] > 2.0:
                x = (b.op("math.tanh %s : %s" % (x[0], ct)), 1.0)
            n = b.op("arith.negf %s : %s" % (x[0], ct))
            e = b.op("math.exp %s : %s" % (n, ct))
            d = b.op("arith.addf %s, %s : %s" % (e, b.const(1.0), ct))
            return b.op("arith.divf %s, %s : %s" % (b.const(1.0), d, ct)), 1.0
        c = r.choice([0.5, 0.25, 1.5, -0.75])
        return b.op("arith.mulf %s, %s : %s" % (a[0], b.const(c), ct)), a[1] * abs(c)

    def emit_generic(self, ins, maps, out_init, out_shape, out_dt, out_map, iters,
                     body_lines, argnames, out_argname):
        n = self.fresh()
        rank = len(iters)
        allmaps = ", ".join(maps + [out_map])
        it = ", ".join('"%s"' % i for i in iters)
        self.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
                  % (n, allmaps, it))
        if ins:
            self.emit("    ins(%s : %s)" % (", ".join(v.name for v in ins),
                                            ", ".join(v.ty for v in ins)))
        self.emit("    outs(%s : %s) {" % (out_init, ty(out_shape, out_dt)))
        bargs = ", ".join("%s: %s" % (a, v.dt) for a, v in zip(argnames, ins))
        if bargs:
            bargs += ", "
        bargs += "%s: %s" % (out_argname, out_dt)
        self.emit("^bb0(%s):" % bargs)
        for l in body_lines:
            self.emit("  " + l)
        self.emit("} -> %s" % ty(out_shape, out_dt))
        return n

    # ------------------------------------------------------------------- ops
    def op_named_binary(self):
        a = self.main_val((1, 2, 3))
        b = self.get(a.shape, avoid=() if self.r.random() < 0.2 else (a,))
        op = self.r.choice(["add", "sub", "mul", "max", "min", "div", "add", "mul"])
        if op == "div":
            ab = self.abs_named(b)
            one = self.fill(b.shape, b.dt, self.r.choice([1.0, 0.5]))
            den = self.named("linalg.add", [ab, one], b.shape, b.dt, b.bound + 1)
            v = self.named("linalg.div", [a, den], a.shape, a.dt, a.bound * 2)
        elif op in ("add", "sub"):
            v = self.named("linalg." + op, [a, b], a.shape, a.dt, a.bound + b.bound)
        elif op == "mul":
            v = self.named("linalg.mul", [a, b], a.shape, a.dt, a.bound * b.bound)
        else:
            v = self.named("linalg." + op, [a, b], a.shape, a.dt, max(a.bound, b.bound))
        self.squash(v)

    def op_named_unary(self):
        a = self.main_val((1, 2, 3))
        op = self.r.choice(["exp", "abs", "negf", "sqrtabs", "tanh", "square",
                            "reciprocal", "rsqrt"])
        if op == "exp":
            if a.bound > 2.0:
                a = self.named("linalg.tanh", [a], a.shape, a.dt, 1.0)
            self.named("linalg.exp", [a], a.shape, a.dt, 2.7183 ** a.bound)
        elif op == "abs":
            self.abs_named(a)
        elif op == "negf":
            self.named("linalg.negf", [a], a.shape, a.dt, a.bound)
        elif op == "tanh":
            self.named("linalg.tanh", [a], a.shape, a.dt, 1.0)
        elif op == "square":
            self.squash(self.named("linalg.square", [a], a.shape, a.dt, a.bound ** 2))
        elif op in ("sqrtabs", "reciprocal", "rsqrt"):
            ab = self.abs_named(a)
            if a.exact and op == "sqrtabs" and self.r.random() < 0.5:
                self.named("linalg.sqrt", [ab], a.shape, a.dt, a.bound ** 0.5)
                return
            c = self.r.choice([0.5, 1.0]) if op != "sqrtabs" else self.r.choice([0.01, 1.0])
            f = self.fill(a.shape, a.dt, c)
            s = self.named("linalg.add", [ab, f], a.shape, a.dt, a.bound + c)
            if op == "sqrtabs":
                self.named("linalg.sqrt", [s], a.shape, a.dt, (a.bound + c) ** 0.5)
            elif op == "rsqrt":
                self.named("linalg.rsqrt", [s], a.shape, a.dt, c ** -0.5)
            else:
                self.named("linalg.reciprocal", [s], a.shape, a.dt, 1.0 / c)

    def operand_pattern(self, D):
        """Pick an operand access for iteration domain D: (shape, map results)."""
        r = self.r
        rank = len(D)
        k = r.random()
        ident = ["d%d" % i for i in range(rank)]
        if rank == 1 or k < 0.5:
            return D, ident, None
        if k < 0.62:
            perm = list(range(rank))
            while perm == list(range(rank)):
                r.shuffle(perm)
            return tuple(D[p] for p in perm), ["d%d" % p for p in perm], None
        if k < 0.85:
            # broadcast: a proper non-empty subset of dims, in order
            sub = [i for i in range(rank) if r.random() < 0.5]
            if not sub or len(sub) == rank:
                sub = [r.randrange(rank)]
            if r.random() < 0.25:
                # keepdim: size-1 dims with constant 0 index
                shape, res = [], []
                for i in range(rank):
                    if i in sub:
                        shape.append(D[i])
                        res.append("d%d" % i)
                    else:
                        shape.append(1)
                        res.append("0")
                return tuple(shape), res, None
            return tuple(D[i] for i in sub), ["d%d" % i for i in sub], None
        # AoS record: D + (K,), constant field index
        K = r.choice([2, 3, 4, 8, 16])
        while K > 2 and numel(D) * K > self.max_elems:
            K //= 2
        if numel(D) * K > self.max_elems:
            return D, ident, None
        return tuple(D) + (K,), ident, K

    def op_generic_pointwise(self):
        r = self.r
        base = self.main_val((1, 2, 3))
        D = base.shape
        rank = len(D)
        ident = ["d%d" % i for i in range(rank)]
        ins, maps, leaves_src = [base], [amap(rank, ident)], [base]
        for _ in range(r.randint(0, 3)):
            shape, res, K = self.operand_pattern(D)
            if K is not None:
                rec = self.get(shape, p_new=0.5)
                fields = r.sample(range(K), min(K, r.randint(1, 4)))
                for f in fields:
                    ins.append(rec)
                    maps.append(amap(rank, res + [str(f)]))
                continue
            ins.append(self.get(shape))
            maps.append(amap(rank, res))
        # compute type: half programs often compute in f32 inside the body
        ct = self.dt
        if self.dt in HALF and (r.random() < 0.7 or "half-absf-fma" in self.avoid):
            ct = "f32"
        b = Gen.Body(self, ct)
        argnames = ["%%in%d" % i for i in range(len(ins))]
        leaves = []
        for a, v in zip(argnames, ins):
            if v.dt != ct:
                leaves.append((b.op("arith.extf %s : %s to %s" % (a, v.dt, ct)), v.bound))
            else:
                leaves.append((a, v.bound))
        res = self.expr(b, leaves, r.randint(1, 4))
        if res[1] > self.limit:
            res = (b.op("math.tanh %s : %s" % (res[0], ct)), 1.0)
        # output type / map
        out_dt = self.dt
        if r.random() < 0.1 and self.dt == "f32":
            out_dt = r.choice(["f16"] if "bf16" in self.avoid else list(HALF))
        y = res[0]
        if out_dt != ct:
            y = b.op("arith.truncf %s : %s to %s" % (y, ct, out_dt))
        out_res = ident
        out_shape = D
        if rank >= 2 and r.random() < 0.12:
            perm = list(range(rank))
            while perm == list(range(rank)):
                r.shuffle(perm)
            out_res = ["d%d" % p for p in perm]
            out_shape = tuple(D[p] for p in perm)
        # out operand used in the body (accumulate-style pointwise) occasionally
        out_init = None
        if r.random() < 0.08 and out_dt == ct:
            prev = self.get(out_shape, dt=out_dt,
                            p_new=0.15 if "outs-arg" not in self.avoid else 0.0)
            if prev.alias_arg and "outs-arg" in self.avoid:
                prev = self.abs_named(prev)
            out_init = prev.name
            y = b.op("arith.addf %s, %%out : %s" % (y, ct))
            res = (y, res[1] + prev.bound)
        if out_init is None:
            out_init = self.empty(out_shape, out_dt)
        b.lines.append("linalg.yield %s : %s" % (y, out_dt))
        n = self.emit_generic(ins, maps, out_init, out_shape, out_dt, amap(rank, out_res),
                              ["parallel"] * rank, b.lines, argnames, "%out")
        v = self.add(Val(n, out_shape, out_dt, res[1]))
        if out_dt != self.dt:
            # convert back so later ops can use it
            self.convert(v, self.dt)
        elif v.bound > self.limit:
            self.squash(v)

    def convert(self, v, dt):
        rank = len(v.shape)
        ident = amap(rank, ["d%d" % i for i in range(rank)])
        b = Gen.Body(self, dt)
        if v.dt == "f32" or (v.dt in HALF and dt in HALF):
            # f32 -> half, or half -> other half via f32
            if v.dt in HALF:
                x = b.op("arith.extf %%a : %s to f32" % v.dt)
                y = b.op("arith.truncf %s : f32 to %s" % (x, dt))
            else:
                y = b.op("arith.truncf %%a : f32 to %s" % dt)
        else:
            y = b.op("arith.extf %%a : %s to %s" % (v.dt, dt))
        b.lines.append("linalg.yield %s : %s" % (y, dt))
        out = self.empty(v.shape, dt)
        n = self.emit_generic([v], [ident], out, v.shape, dt, ident, ["parallel"] * rank,
                              b.lines, ["%a"], "%o")
        return self.add(Val(n, v.shape, dt, v.bound))

    def op_broadcast(self):
        r = self.r
        # linalg.broadcast of a lower-rank value into a 2-D / 3-D one
        src = self.pick_float_val((1, 2))
        if src is None or numel(src.shape) * 2 > self.max_elems:
            src = self.get((r.choice([self.M, self.N]),))
        src.uses += 1
        rank_out = len(src.shape) + 1
        pos = r.randrange(rank_out)
        budget = self.max_elems // numel(src.shape)
        choices = [s for s in SIZES if s <= budget]
        size = r.choice(choices) if choices else 1
        if len(src.shape) == 1:
            size = self.N if pos == 1 else self.M
            if numel(src.shape) * size > self.max_elems:
                size = r.choice(choices)
        out_shape = list(src.shape)
        out_shape.insert(pos, size)
        out_shape = tuple(out_shape)
        out = self.empty(out_shape, src.dt)
        n = self.fresh()
        self.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%d]"
                  % (n, src.name, src.ty, out, ty(out_shape, src.dt), pos))
        self.add(Val(n, out_shape, src.dt, src.bound))

    def reduce_rows(self, x, axis, kind, scale_mean=True):
        """Reduce value x along axis. kind: sum|max|absmax|sumsq. Returns f32 (or x.dt
        for max kinds) Val; sums become means when the length is long."""
        r = self.r
        rank = len(x.shape)
        L = x.shape[axis]
        out_shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
        acc_dt = x.dt
        if x.dt in HALF and kind in ("sum", "sumsq"):
            acc_dt = "f32"
        if x.dt in HALF and (r.random() < 0.5 or "half-absf-fma" in self.avoid):
            acc_dt = "f32"
        init_v = {"sum": 0.0, "sumsq": 0.0, "max": NEG_INF[acc_dt], "absmax": 0.0}[kind]
        init = self.fill(out_shape, acc_dt, init_v)
        # long sums: accumulate x/L (means) unless scaled afterwards
        pre_scale = None
        post_scale = False
        if kind in ("sum", "sumsq"):
            if L > 64 or r.random() < 0.5:
                if r.random() < 0.4:
                    pre_scale = 1.0 / L
                else:
                    post_scale = True
        use_named = (r.random() < 0.5 and pre_scale is None and
                     (kind in ("sum", "max") or r.random() < 0.3))
        b = Gen.Body(self, acc_dt)
        a = "%in" if not use_named else "%in"
        xin = a
        if x.dt != acc_dt:
            xin = b.op("arith.extf %s : %s to %s" % (a, x.dt, acc_dt))
        if kind == "sumsq":
            xin = b.op("arith.mulf %s, %s : %s" % (xin, xin, acc_dt))
        elif kind == "absmax":
            xin = b.op("math.absf %s : %s" % (xin, acc_dt))
        if pre_scale is not None:
            xin = b.op("arith.mulf %s, %s : %s" % (xin, b.const(pre_scale), acc_dt))
        if kind in ("sum", "sumsq"):
            if r.random() < 0.5:
                y = b.op("arith.addf %s, %%acc : %s" % (xin, acc_dt))
            else:
                y = b.op("arith.addf %%acc, %s : %s" % (xin, acc_dt))
        else:
            op = r.choice(["maximumf", "maxnumf"])
            y = b.op("arith.%s %s, %%acc : %s" % (op, xin, acc_dt))
        b.lines.append("linalg.yield %s : %s" % (y, acc_dt))
        n = self.fresh()
        if use_named:
            self.emit("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%d]"
                      % (n, x.name, x.ty, init, ty(out_shape, acc_dt), axis))
            self.emit("  (%%in: %s, %%acc: %s) {" % (x.dt, acc_dt))
            for l in b.lines:
                self.emit("    " + l)
            self.emit("  }")
        else:
            iters = ["reduction" if i == axis else "parallel" for i in range(rank)]
            inmap = amap(rank, ["d%d" % i for i in range(rank)])
            outmap = amap(rank, ["d%d" % i for i in range(rank) if i != axis])
            n = self.emit_generic([x], [inmap], init, out_shape, acc_dt, outmap, iters,
                                  b.lines, ["%in"], "%acc")
        bound = {"sum": x.bound * L, "sumsq": x.bound ** 2 * L, "max": x.bound,
                 "absmax": x.bound}[kind]
        if pre_scale is not None:
            bound = bound / L
        v = Val(n, out_shape, acc_dt, bound)
        if not post_scale or r.random() < 0.3:
            self.add(v)
        if post_scale:
            f = r.random()
            if f < 0.4:
                fl = self.fill(out_shape, acc_dt, 1.0 / L)
                v = self.named("linalg.mul", [v, fl], out_shape, acc_dt, bound / L)
            elif f < 0.7:
                fl = self.fill(out_shape, acc_dt, float(L))
                v = self.named("linalg.div", [v, fl], out_shape, acc_dt, bound / L)
            else:
                b2 = Gen.Body(self, acc_dt)
                y = b2.op("arith.divf %%s, %s : %s" % (b2.const(float(L)), acc_dt))
                b2.lines.append("linalg.yield %s : %s" % (y, acc_dt))
                rk = len(out_shape)
                idm = amap(rk, ["d%d" % i for i in range(rk)])
                out = self.empty(out_shape, acc_dt)
                nn = self.emit_generic([v], [idm], out, out_shape, acc_dt, idm,
                                       ["parallel"] * rk, b2.lines, ["%s"], "%o")
                v = self.add(Val(nn, out_shape, acc_dt, bound / L))
        return v

    def op_reduction(self):
        r = self.r
        x = self.main_val((2,) if "rank3-reductions" in self.avoid else (2, 3))
        rank = len(x.shape)
        axis = rank - 1 if r.random() < 0.65 else r.randrange(rank)
        kind = r.choice(["sum", "max", "absmax", "sumsq", "sum"])
        v = self.reduce_rows(x, axis, kind)
        if v.dt != self.dt:
            v = self.convert(v, self.dt)
        if v.bound > self.limit:
            self.squash(v)

    def op_multi_reduction(self):
        """A reduction over two axes of a rank-3 value in one generic:
        adjacent axes (collapsed by the input stage) or the outer and inner
        ones (staged), a sum or sum of squares accumulated in f32 for
        halves (as a mean) or a max, in the value's type."""
        r = self.r
        if "rank3-reductions" in self.avoid:
            return self.op_reduction()
        x = self.main_val((3,))
        if len(x.shape) != 3:
            return self.op_reduction()
        axes = r.choice([(0, 2), (0, 2), (0, 1), (1, 2)])
        kind = r.choice(["sum", "sumsq", "max"])
        out_shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
        L = x.shape[axes[0]] * x.shape[axes[1]]
        acc_dt = "f32" if (x.dt in HALF and kind != "max") else x.dt
        init = self.fill(out_shape, acc_dt, NEG_INF[acc_dt] if kind == "max" else 0.0)
        b = Gen.Body(self, acc_dt)
        xin = "%in"
        if x.dt != acc_dt:
            xin = b.op("arith.extf %s : %s to %s" % (xin, x.dt, acc_dt))
        if kind == "sumsq":
            xin = b.op("arith.mulf %s, %s : %s" % (xin, xin, acc_dt))
        if kind == "max":
            y = b.op("arith.%s %s, %%acc : %s" % (r.choice(["maximumf", "maxnumf"]), xin, acc_dt))
            bound = x.bound
        else:
            xin = b.op("arith.mulf %s, %s : %s" % (xin, b.const(1.0 / L), acc_dt))
            y = b.op("arith.addf %%acc, %s : %s" % (xin, acc_dt))
            bound = x.bound ** 2 if kind == "sumsq" else x.bound
        b.lines.append("linalg.yield %s : %s" % (y, acc_dt))
        iters = ["reduction" if i in axes else "parallel" for i in range(3)]
        inmap = amap(3, ["d0", "d1", "d2"])
        outmap = amap(3, ["d%d" % i for i in range(3) if i not in axes])
        n = self.emit_generic([x], [inmap], init, out_shape, acc_dt, outmap, iters,
                              b.lines, ["%in"], "%acc")
        v = self.add(Val(n, out_shape, acc_dt, bound))
        if v.dt != self.dt:
            v = self.convert(v, self.dt)
        if v.bound > self.limit:
            self.squash(v)

    def op_row_col_reduction(self):
        """Reductions over both axes of one 2-D value: a row reduction with an
        elementwise op reading it (a row group) and a reduction over the
        rows (dgamma/dbeta-like: column partials), the latter before or
        after the former."""
        r = self.r
        x = self.main_val((2,))
        if len(x.shape) != 2:
            return self.op_reduction()
        kind_c = r.choice(["sum", "sumsq", "max", "sum"])
        col_first = r.random() < 0.3
        cols = []
        if col_first:
            cols.append(self.reduce_rows(x, 0, kind_c))
        s = self.reduce_rows(x, 1, r.choice(["sum", "max", "sumsq"]))
        if s.dt != x.dt:
            s = self.convert(s, x.dt)
        if s.bound > self.limit:
            s = self.squash(s)
        sb = self.bcast_to(s, x.shape, 1)
        y = self.named(r.choice(["linalg.sub", "linalg.add", "linalg.mul"]),
                       [x, sb], x.shape, x.dt, x.bound * max(1.0, sb.bound) + sb.bound)
        if y.bound > self.limit:
            y = self.squash(y)
        if not col_first:
            src = x if r.random() < 0.6 else y
            cols.append(self.reduce_rows(src, 0, kind_c))
        for c in cols:
            if c.dt != self.dt:
                c = self.convert(c, self.dt)
            if c.bound > self.limit:
                self.squash(c)

    def bcast_to(self, v, shape, axis):
        """Broadcast v (shape without axis) to shape: named broadcast or keepdim."""
        out = self.empty(shape, v.dt)
        n = self.fresh()
        self.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%d]"
                  % (n, v.name, v.ty, out, ty(shape, v.dt), axis))
        return self.add(Val(n, shape, v.dt, v.bound))

    def op_norm(self):
        r = self.r
        x = self.main_val((2,) if "rank3-reductions" in self.avoid else (2, 3))
        rank = len(x.shape)
        axis = rank - 1 if r.random() < 0.8 else r.randrange(rank)
        kind = r.choice(["rms", "layer", "softmax_named", "softmax_dec", "rms_generic"])
        L = x.shape[axis]
        dt = x.dt
        if kind == "softmax_named":
            out = self.empty(x.shape, dt)
            n = self.fresh()
            self.emit("%s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s"
                      % (n, axis, x.name, x.ty, out, x.ty, x.ty))
            self.add(Val(n, x.shape, dt, 1.0))
            return
        if kind == "softmax_dec":
            m = self.reduce_rows(x, axis, "max")
            if m.dt != dt:
                m = self.convert(m, dt)
            mb = self.bcast_to(m, x.shape, axis)
            d = self.named("linalg.sub", [x, mb], x.shape, dt, 2 * x.bound)
            e = self.named("linalg.exp", [d], x.shape, dt, 1.0)
            s = self.raw_sum(e, axis)
            sb = self.bcast_to(s, x.shape, axis)
            self.named("linalg.div", [e, sb], x.shape, dt, 1.0)
            return
        if kind in ("rms", "rms_generic"):
            ms = self.reduce_rows(x, axis, "sumsq")
            if ms.bound > 2 * x.bound ** 2 + 1e-6:
                # raw sum: scale to mean
                fl = self.fill(ms.shape, ms.dt, 1.0 / L)
                ms = self.named("linalg.mul", [ms, fl], ms.shape, ms.dt, x.bound ** 2)
            eps = r.choice([1e-5, 1e-3, 1e-2])
            if kind == "rms":
                ef = self.fill(ms.shape, ms.dt, eps)
                me = self.named("linalg.add", [ms, ef], ms.shape, ms.dt, ms.bound + eps)
                rs = self.named("linalg.rsqrt", [me], ms.shape, ms.dt, eps ** -0.5)
                if rs.dt != dt:
                    rs = self.convert(rs, dt)
                rb = self.bcast_to(rs, x.shape, axis)
                y = self.named("linalg.mul", [x, rb], x.shape, dt, 1.0 / (eps ** 0.5))
                y.bound = 4.0
            else:
                y = self.norm_generic(x, axis, None, ms, eps)
            self.affine_gb(y, axis)
            return
        # LayerNorm two-pass
        mean = self.reduce_rows(x, axis, "sum")
        if mean.bound > x.bound + 1e-6:
            fl = self.fill(mean.shape, mean.dt, 1.0 / L)
            mean = self.named("linalg.mul", [mean, fl], mean.shape, mean.dt, x.bound)
        if mean.dt != dt:
            mean = self.convert(mean, dt)
        mb = self.bcast_to(mean, x.shape, axis)
        c = self.named("linalg.sub", [x, mb], x.shape, dt, 2 * x.bound)
        var = self.reduce_rows(c, axis, "sumsq")
        if var.bound > 4 * x.bound ** 2 + 1e-6:
            fl = self.fill(var.shape, var.dt, 1.0 / L)
            var = self.named("linalg.mul", [var, fl], var.shape, var.dt, 4 * x.bound ** 2)
        eps = r.choice([1e-3, 1e-2])
        y = self.norm_generic(c, axis, None, var, eps)
        self.affine_gb(y, axis)

    def raw_sum(self, x, axis):
        """Sum along axis with an f32 accumulator (values are in [0,1] softmax terms)."""
        r = self.r
        rank = len(x.shape)
        out_shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
        acc = "f32"
        init = self.fill(out_shape, acc, 0.0)
        b = Gen.Body(self, acc)
        xin = "%in"
        if x.dt != acc:
            xin = b.op("arith.extf %%in : %s to f32" % x.dt)
        y = b.op("arith.addf %s, %%acc : f32" % xin)
        b.lines.append("linalg.yield %s : f32" % y)
        n = self.fresh()
        if x.dt == acc and r.random() < 0.5:
            self.emit("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%d]"
                      % (n, x.name, x.ty, init, ty(out_shape, acc), axis))
            self.emit("  (%%in: %s, %%acc: %s) {" % (x.dt, acc))
            for l in b.lines:
                self.emit("    " + l)
            self.emit("  }")
        else:
            iters = ["reduction" if i == axis else "parallel" for i in range(rank)]
            n = self.emit_generic([x], [amap(rank, ["d%d" % i for i in range(rank)])], init,
                                  out_shape, acc,
                                  amap(rank, ["d%d" % i for i in range(rank) if i != axis]),
                                  iters, b.lines, ["%in"], "%acc")
        v = self.add(Val(n, out_shape, acc, float(x.shape[axis])))
        if x.dt != acc:
            v = self.convert(v, x.dt)
        return v

    def norm_generic(self, x, axis, unused, stat, eps):
        """y = x * rsqrt(stat + eps) in one generic (stat broadcast by map)."""
        rank = len(x.shape)
        ct = "f32"
        b = Gen.Body(self, ct)
        xa = "%x"
        if x.dt != ct:
            xa = b.op("arith.extf %%x : %s to f32" % x.dt)
        sa = "%s"
        if stat.dt != ct:
            sa = b.op("arith.extf %%s : %s to f32" % stat.dt)
        me = b.op("arith.addf %s, %s : f32" % (sa, b.const(eps, "f32")))
        rs = b.op("math.rsqrt %s : f32" % me)
        y = b.op("arith.mulf %s, %s : f32" % (xa, rs))
        if x.dt != ct:
            y = b.op("arith.truncf %s : f32 to %s" % (y, x.dt))
        b.lines.append("linalg.yield %s : %s" % (y, x.dt))
        ident = amap(rank, ["d%d" % i for i in range(rank)])
        smap = amap(rank, ["d%d" % i for i in range(rank) if i != axis])
        out = self.empty(x.shape, x.dt)
        n = self.emit_generic([x, stat], [ident, smap], out, x.shape, x.dt, ident,
                              ["parallel"] * rank, b.lines, ["%x", "%s"], "%o")
        return self.add(Val(n, x.shape, x.dt, 4.0))

    def affine_gb(self, y, axis):
        """Optionally y * g + b with g, b vectors along axis (named broadcasts)."""
        r = self.r
        if r.random() < 0.4:
            return y
        L = y.shape[axis]
        rank = len(y.shape)
        g = self.get((L,), p_new=0.7)
        dims_b = [i for i in range(rank) if i != axis]
        out = self.empty(y.shape, y.dt)
        n = self.fresh()
        self.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%s]"
                  % (n, g.name, g.ty, out, y.ty, ", ".join(str(d) for d in dims_b)))
        gb = self.add(Val(n, y.shape, y.dt, g.bound))
        v = self.named("linalg.mul", [y, gb], y.shape, y.dt, y.bound * g.bound)
        if r.random() < 0.5:
            bb_ = self.get((L,), p_new=0.7, avoid=(g,))
            out = self.empty(y.shape, y.dt)
            n = self.fresh()
            self.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%s]"
                      % (n, bb_.name, bb_.ty, out, y.ty, ", ".join(str(d) for d in dims_b)))
            bv = self.add(Val(n, y.shape, y.dt, bb_.bound))
            v = self.named("linalg.add", [v, bv], y.shape, y.dt, v.bound + bv.bound)
        return v

    def op_transpose(self):
        r = self.r
        x = self.main_val((2, 3))
        rank = len(x.shape)
        perm = list(range(rank))
        while perm == list(range(rank)):
            r.shuffle(perm)
        out_shape = tuple(x.shape[p] for p in perm)
        if r.random() < 0.6:
            out = self.empty(out_shape, x.dt)
            n = self.fresh()
            self.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]"
                      % (n, x.name, x.ty, out, ty(out_shape, x.dt),
                         ", ".join(str(p) for p in perm)))
            self.add(Val(n, out_shape, x.dt, x.bound, x.exact))
            return
        # generic: y[d...] = x[perm-inverse map], maybe with a small body
        inv = [0] * rank
        for i, p in enumerate(perm):
            inv[p] = i
        inmap = amap(rank, ["d%d" % inv[j] for j in range(rank)])
        outmap = amap(rank, ["d%d" % i for i in range(rank)])
        b = Gen.Body(self, x.dt)
        y = "%a"
        bound = x.bound
        if r.random() < 0.4:
            y = b.op("arith.mulf %%a, %s : %s" % (b.const(0.5), x.dt))
            bound = x.bound * 0.5
        b.lines.append("linalg.yield %s : %s" % (y, x.dt))
        out = self.empty(out_shape, x.dt)
        n = self.emit_generic([x], [inmap], out, out_shape, x.dt, outmap,
                              ["parallel"] * rank, b.lines, ["%a"], "%o")
        self.add(Val(n, out_shape, x.dt, bound))

    def op_reshape(self):
        r = self.r
        x = self.main_val((1, 2, 3))
        s = x.shape
        n = self.fresh()
        if len(s) == 3 and r.random() < 0.7:
            if r.random() < 0.5:
                out = (s[0] * s[1], s[2])
                reassoc = "[[0, 1], [2]]"
            else:
                out = (s[0], s[1] * s[2])
                reassoc = "[[0], [1, 2]]"
            self.emit("%s = tensor.collapse_shape %s %s : %s into %s"
                      % (n, x.name, reassoc, x.ty, ty(out, x.dt)))
        elif len(s) == 2 and r.random() < 0.4:
            out = (s[0] * s[1],)
            self.emit("%s = tensor.collapse_shape %s [[0, 1]] : %s into %s"
                      % (n, x.name, x.ty, ty(out, x.dt)))
        elif len(s) == 2:
            # expand one dim: split it into factors (or insert a unit dim)
            axis = r.randrange(2)
            d = s[axis]
            facs = [f for f in range(2, d) if d % f == 0]
            if facs and r.random() < 0.8:
                f = r.choice(facs)
                parts = (f, d // f)
            else:
                parts = (d, 1) if r.random() < 0.5 else (1, d)
            if axis == 0:
                out = parts + (s[1],)
                reassoc = "[[0, 1], [2]]"
            else:
                out = (s[0],) + parts
                reassoc = "[[0], [1, 2]]"
            self.emit("%s = tensor.expand_shape %s %s output_shape [%s] : %s into %s"
                      % (n, x.name, reassoc, ", ".join(str(o) for o in out), x.ty,
                         ty(out, x.dt)))
        elif len(s) == 1:
            d = s[0]
            facs = [f for f in range(2, min(d, 4097)) if d % f == 0]
            if facs:
                f = r.choice(facs)
                out = (f, d // f)
            else:
                out = (d, 1)
            self.emit("%s = tensor.expand_shape %s [[0, 1]] output_shape [%d, %d] : %s into %s"
                      % (n, x.name, out[0], out[1], x.ty, ty(out, x.dt)))
        else:
            out = (s[0] * s[1] * s[2],)
            self.emit("%s = tensor.collapse_shape %s [[0, 1, 2]] : %s into %s"
                      % (n, x.name, x.ty, ty(out, x.dt)))
        v = self.add(Val(n, out, x.dt, x.bound, x.exact))
        v.alias_arg = x.alias_arg

    def op_slice(self):
        """tensor.extract_slice: offsets, sizes, strides 1 or 2, maybe a unit
        dim dropped; or tensor.pad by a constant; or tensor.concat of two
        values along one dim (torch-mlir's narrow / F.pad / cat)."""
        r = self.r
        x = self.main_val((1, 2, 3))
        s = list(x.shape)
        n = self.fresh()
        k = r.random()
        if k < 0.5:
            offs, sizes, strides = [], [], []
            for d in s:
                stride = 2 if d >= 4 and r.random() < 0.25 else 1
                most = (d - 1) // stride + 1
                size = r.randint(1, most) if r.random() < 0.7 else most
                off = r.randint(0, d - 1 - (size - 1) * stride)
                offs.append(off)
                sizes.append(size)
                strides.append(stride)
            out = list(sizes)
            units = [i for i, z in enumerate(sizes) if z == 1]
            if units and len(s) > 1 and r.random() < 0.5:
                out.pop(r.choice(units))
            self.emit("%s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s"
                      % (n, x.name, ", ".join(map(str, offs)),
                         ", ".join(map(str, sizes)), ", ".join(map(str, strides)),
                         x.ty, ty(out, x.dt)))
            self.add(Val(n, out, x.dt, x.bound, x.exact))
            return
        if k < 0.75:
            low = [r.choice([0, 0, 1, 2]) for _ in s]
            high = [r.choice([0, 0, 1, 3]) for _ in s]
            out = [d + a + b for d, a, b in zip(s, low, high)]
            if numel(out) > self.max_elems:
                return
            value = r.choice([0.0, 0.5, -1.0])
            c = self.scalar_const(value, x.dt)
            self.emit("%s = tensor.pad %s low[%s] high[%s] {\n  ^bb0(%s):\n    "
                      "tensor.yield %s : %s\n  } : %s to %s"
                      % (n, x.name, ", ".join(map(str, low)),
                         ", ".join(map(str, high)),
                         ", ".join("%%i%d: index" % i for i in range(len(s))),
                         c, x.dt, x.ty, ty(out, x.dt)))
            self.add(Val(n, out, x.dt, max(x.bound, abs(value))))
            return
        axis = r.randrange(len(s))
        other = list(s)
        other[axis] = r.choice([1, 2, 3, 7, 16, 33, s[axis]])
        out = list(s)
        out[axis] += other[axis]
        if numel(out) > self.max_elems:
            return
        y = self.get(other, x.dt)
        first, second = (x, y) if r.random() < 0.5 else (y, x)
        self.emit("%s = tensor.concat dim(%d) %s, %s : (%s, %s) -> %s"
                  % (n, axis, first.name, second.name, first.ty, second.ty,
                     ty(out, x.dt)))
        self.add(Val(n, out, x.dt, max(x.bound, y.bound), x.exact and y.exact))

    def op_aos(self):
        """Records tensor<R x K x f32> read at constant fields into a 1-D or 2-D result."""
        r = self.r
        K = r.choice([2, 3, 4, 5, 8, 16])
        if r.random() < 0.6:
            D = (r.choice([s for s in SIZES if s * K <= self.max_elems]),)
            if D[0] < 4:
                D = (self.M * self.N // max(1, K) or 1,) if self.M * self.N * 1 <= self.max_elems else D
                D = (max(1, min(D[0], self.max_elems // K)),)
        else:
            D = (self.M, self.N) if self.M * self.N * K <= self.max_elems else (
                max(1, self.max_elems // (K * self.N)), self.N)
            if numel(D) * K > self.max_elems:
                D = (self.max_elems // K,)
        rank = len(D)
        rec = self.get(D + (K,), p_new=0.6)
        nf = r.randint(1, min(K, 5))
        fields = r.sample(range(K), nf)
        ident = ["d%d" % i for i in range(rank)]
        ins = [rec] * nf
        maps = [amap(rank, ident + [str(f)]) for f in fields]
        b = Gen.Body(self, "f32" if rec.dt in HALF else rec.dt)
        argnames = ["%%p%d" % i for i in range(nf)]
        leaves = []
        for a in argnames:
            if rec.dt != b.ct:
                leaves.append((b.op("arith.extf %s : %s to f32" % (a, rec.dt)), 1.0))
            else:
                leaves.append((a, 1.0))
        int_out = r.random() < 0.2
        if int_out:
            # exact: p_a * 2^k (+ p_b) then floor -> i32
            k = r.choice([4.0, 16.0, 64.0])
            m = b.op("arith.mulf %s, %s : %s" % (leaves[0][0], b.const(k), b.ct))
            if len(leaves) > 1:
                m = b.op("arith.addf %s, %s : %s" % (m, leaves[1][0], b.ct))
            fl = b.op("math.floor %s : %s" % (m, b.ct))
            it = r.choice(["i32", "i32", "i16"])
            y = b.op("arith.fptosi %s : %s to %s" % (fl, b.ct, it))
            b.lines.append("linalg.yield %s : %s" % (y, it))
            out = self.empty(D, it)
            n = self.emit_generic(ins, maps, out, D, it, amap(rank, ident),
                                  ["parallel"] * rank, b.lines, argnames, "%o")
            self.must_return.append(Val(n, D, it, 0.0))
            return
        res = self.expr(b, leaves, r.randint(1, 3))
        y = res[0]
        if res[1] > self.limit:
            y = b.op("math.tanh %s : %s" % (y, b.ct))
            res = (y, 1.0)
        if b.ct != self.dt:
            y = b.op("arith.truncf %s : f32 to %s" % (y, self.dt))
        b.lines.append("linalg.yield %s : %s" % (y, self.dt))
        out = self.empty(D, self.dt)
        n = self.emit_generic(ins, maps, out, D, self.dt, amap(rank, ident),
                              ["parallel"] * rank, b.lines, argnames, "%o")
        self.add(Val(n, D, self.dt, res[1]))

    def op_quant(self):
        """Per-row absmax int8 quantization of a 2-D value: returns (q:i8, scale)."""
        r = self.r
        x = self.main_val((2,))
        axis = 1 if r.random() < 0.8 else 0
        am = self.reduce_rows(x, axis, "absmax")
        ct = "f32"
        if am.dt != ct:
            am = self.convert(am, ct)
        # scale = absmax / 127 + tiny (an all-zero row would give 0/0)
        b = Gen.Body(self, ct)
        s = b.op("arith.divf %%a, %s : f32" % b.const(127.0, "f32"))
        s = b.op("arith.addf %s, %s : f32" % (s, b.const(1e-6, "f32")))
        b.lines.append("linalg.yield %s : f32" % s)
        sh = am.shape
        idm = amap(len(sh), ["d%d" % i for i in range(len(sh))])
        out = self.empty(sh, ct)
        n = self.emit_generic([am], [idm], out, sh, ct, idm, ["parallel"] * len(sh),
                              b.lines, ["%a"], "%o")
        scale = self.add(Val(n, sh, ct, 1.0))
        b = Gen.Body(self, ct)
        xa = "%x"
        if x.dt != ct:
            xa = b.op("arith.extf %%x : %s to f32" % x.dt)
        d = b.op("arith.divf %s, %%s : f32" % xa)
        rd = b.op("math.roundeven %s : f32" % d)
        lo = b.op("arith.maximumf %s, %s : f32" % (rd, b.const(-127.0, "f32")))
        hi = b.op("arith.minimumf %s, %s : f32" % (lo, b.const(127.0, "f32")))
        q = b.op("arith.fptosi %s : f32 to i8" % hi)
        b.lines.append("linalg.yield %s : i8" % q)
        ident = amap(2, ["d0", "d1"])
        smap = amap(2, ["d%d" % (1 - axis)])
        out = self.empty(x.shape, "i8")
        n = self.emit_generic([x, scale], [ident, smap], out, x.shape, "i8", ident,
                              ["parallel", "parallel"], b.lines, ["%x", "%s"], "%o")
        self.must_return.append(Val(n, x.shape, "i8", 127.0))
        if r.random() < 0.5:
            self.must_return.append(scale)

    def op_argmax(self):
        """Arg-max or arg-min over one axis of a value computed without
        rounding (an input, a transpose or reshape of one: a rounded value
        could tie in the program's precision where the f64 reference does
        not), in the forms frontends write: torch-mlir's (maximumf value,
        select on ogt), tosa's (selects on one compare, the index output
        first, the lowest finite seed), the compare written with the
        accumulator first. Returns the i64/i32 index, sometimes the value."""
        r = self.r
        cands = [v for v in self.pool if v.exact and len(v.shape) in (1, 2, 3)
                 and v.dt in ("f32", "f16", "bf16")]
        if cands and r.random() < 0.5:
            x = r.choice(cands)
        else:
            x = self.new_arg((self.M, self.N) if r.random() < 0.7 else
                             (self.M,) if r.random() < 0.5 else
                             (max(1, self.M // 4), 4, self.N))
        x.uses += 1
        rank = len(x.shape)
        axis = rank - 1 if r.random() < 0.6 else r.randrange(rank)
        form = r.choice(["torch", "tosa", "tosanan", "accfirst"])
        greater = r.random() < 0.7
        tosa = form in ("tosa", "tosanan")
        it = "i32" if tosa else "i64"
        out_shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
        low = {"f32": "-3.40282347e+38", "f16": "-6.550400e+04",
               "bf16": "-3.38953139e+38"}[x.dt]
        seed = (low if tosa else NEG_INF[x.dt]) if greater else \
            (low[1:] if tosa else NEG_INF[x.dt].replace("F", "7", 1))
        vinit = self.fill(out_shape, x.dt, seed)
        iinit = self.fill(out_shape, it, "0")
        pred = ("ogt" if greater else "olt")
        lines = ["%%j = linalg.index %d : index" % axis,
                 "%%jj = arith.index_cast %%j : index to %s" % it]
        if form == "tosanan":
            # nan_mode PROPAGATE: the first NaN wins and stays.
            lines.append("%%u = arith.cmpf %s, %%in, %%acc : %s"
                         % ("ugt" if greater else "ult", x.dt))
            lines.append("%%o = arith.cmpf ord, %%acc, %%acc : %s" % x.dt)
            lines.append("%c = arith.andi %u, %o : i1")
        elif form == "accfirst":
            lines.append("%%c = arith.cmpf %s, %%acc, %%in : %s"
                         % ("olt" if greater else "ogt", x.dt))
        else:
            lines.append("%%c = arith.cmpf %s, %%in, %%acc : %s" % (pred, x.dt))
        if form == "torch":
            lines.append("%%v = arith.%s %%in, %%acc : %s"
                         % ("maximumf" if greater else "minimumf", x.dt))
        else:
            lines.append("%%v = arith.select %%c, %%in, %%acc : %s" % x.dt)
        lines.append("%%i = arith.select %%c, %%jj, %%idx : %s" % it)
        inmap = amap(rank, ["d%d" % i for i in range(rank)])
        outmap = amap(rank, ["d%d" % i for i in range(rank) if i != axis])
        iters = ", ".join('"%s"' % ("reduction" if i == axis else "parallel")
                          for i in range(rank))
        n = self.fresh()
        vt, itt = ty(out_shape, x.dt), ty(out_shape, it)
        if tosa:
            outs, oty, args = "%s, %s" % (iinit, vinit), "%s, %s" % (itt, vt), \
                "%%in: %s, %%idx: %s, %%acc: %s" % (x.dt, it, x.dt)
            lines.append("linalg.yield %%i, %%v : %s, %s" % (it, x.dt))
        else:
            outs, oty, args = "%s, %s" % (vinit, iinit), "%s, %s" % (vt, itt), \
                "%%in: %s, %%acc: %s, %%idx: %s" % (x.dt, x.dt, it)
            lines.append("linalg.yield %%v, %%i : %s, %s" % (x.dt, it))
        self.emit("%s:2 = linalg.generic {indexing_maps = [%s, %s, %s], "
                  "iterator_types = [%s]}" % (n, inmap, outmap, outmap, iters))
        self.emit("    ins(%s : %s)" % (x.name, x.ty))
        self.emit("    outs(%s : %s) {" % (outs, oty))
        self.emit("^bb0(%s):" % args)
        for l in lines:
            self.emit("  " + l)
        self.emit("} -> (%s)" % oty)
        vi, vv = (0, 1) if tosa else (1, 0)
        self.must_return.append(Val("%s#%d" % (n, vi), out_shape, it, 1.0))
        if r.random() < 0.4:
            self.must_return.append(Val("%s#%d" % (n, vv), out_shape, x.dt,
                                        x.bound, x.exact))

    # ------------------------------------------------ general reductions
    def pick_shape(self, rank):
        """A rank-`rank` shape of at most max_elems elements, at least 2 each."""
        r = self.r
        small = [2, 3, 4, 5, 7, 8, 16, 17, 31, 32, 33, 64, 100, 128, 257, 512, 1000]
        for _ in range(200):
            shape = [r.choice(small) for _ in range(rank)]
            if numel(shape) <= self.max_elems and numel(shape) >= 16:
                return tuple(shape)
        return tuple([2] * rank)

    def reduction_input(self):
        """The input of a general reduction: a rank-2..4 value of the
        program, or a new argument."""
        r = self.r
        rank = r.choice([2, 3, 3, 4, 4])
        x = None
        if r.random() < 0.4:
            x = self.pick_float_val((rank,), min_elems=16)
        if x is None:
            x = self.new_arg(self.pick_shape(rank))
        x.uses += 1
        return x

    def op_general_reduction(self):
        """One linalg.generic reducing any non-empty set of loops of a rank-2..4
        value, as frontends write it: the input read through a permuted map
        (loop order differs from the layout), the result with the reduced
        dims dropped or kept as size-1 dims through constant-0 results
        (torch-mlir keepdim), one or two results (sum and sum of squares,
        max and sum: several accumulators in one pass), halves accumulated
        in f32. Sometimes followed by a normalization reading the statistics
        back through the same projection (group norm, instance norm, batch
        norm over all dims but one)."""
        r = self.r
        x = self.reduction_input()
        rank = len(x.shape)
        # loop l of the generic indexes tensor dim perm_inv[l]; the input map
        # is (d...) -> (d_perm[0], ..., d_perm[rank-1])
        perm = list(range(rank))
        if r.random() < 0.3:
            r.shuffle(perm)
        loop_extent = [0] * rank
        for i, l in enumerate(perm):
            loop_extent[l] = x.shape[i]
        # reduced set, in tensor dims: never empty; all dims with a small chance
        if r.random() < 0.08:
            red_t = set(range(rank))
        else:
            k = r.randint(1, rank - 1)
            red_t = set(r.sample(range(rank), k))
        red_l = set(perm[i] for i in red_t)
        keep = r.random() < 0.35
        out_shape = []
        out_res = []
        stat_res = []          # map of the statistic inside a consumer (tensor coords)
        for i in range(rank):
            if i in red_t:
                if keep:
                    out_shape.append(1)
                    out_res.append("0")
                    stat_res.append("0")
            else:
                out_shape.append(x.shape[i])
                out_res.append("d%d" % perm[i])
                stat_res.append("d%d" % i)
        out_shape = tuple(out_shape)
        L = 1
        for i in red_t:
            L *= x.shape[i]
        acc_dt = "f32" if (x.dt in HALF or r.random() < 0.2) else x.dt
        kinds = r.choice([["sum"], ["sumsq"], ["max"], ["sum", "sumsq"],
                          ["sum", "sumsq"], ["max", "sum"], ["sumsq", "sum"]])
        inits = []
        for kd in kinds:
            inits.append(self.fill(out_shape, acc_dt,
                                   NEG_INF[acc_dt] if kd == "max" else 0.0))
        b = Gen.Body(self, acc_dt)
        xin = "%in"
        if x.dt != acc_dt:
            xin = b.op("arith.extf %%in : %s to %s" % (x.dt, acc_dt))
        ys = []
        for j, kd in enumerate(kinds):
            acc = "%%acc%d" % j
            if kd == "max":
                op = r.choice(["maximumf", "maxnumf"])
                ys.append(b.op("arith.%s %s, %s : %s" % (op, xin, acc, acc_dt)))
                continue
            t = xin
            if kd == "sumsq":
                t = b.op("arith.mulf %s, %s : %s" % (t, t, acc_dt))
            t = b.op("arith.mulf %s, %s : %s" % (t, b.const(1.0 / L), acc_dt))
            if r.random() < 0.5:
                ys.append(b.op("arith.addf %s, %s : %s" % (acc, t, acc_dt)))
            else:
                ys.append(b.op("arith.addf %s, %s : %s" % (t, acc, acc_dt)))
        b.lines.append("linalg.yield %s : %s" % (", ".join(ys),
                                                   ", ".join([acc_dt] * len(ys))))
        iters = ", ".join('"%s"' % ("reduction" if l in red_l else "parallel")
                          for l in range(rank))
        inmap = amap(rank, ["d%d" % l for l in perm])
        outmap = amap(rank, out_res)
        n = self.fresh()
        oty = ty(out_shape, acc_dt)
        one = len(kinds) == 1
        self.emit("%s%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
                  % (n, "" if one else ":%d" % len(kinds),
                     ", ".join([inmap] + [outmap] * len(kinds)), iters))
        self.emit("    ins(%s : %s)" % (x.name, x.ty))
        self.emit("    outs(%s : %s) {" % (", ".join(inits), ", ".join([oty] * len(kinds))))
        self.emit("^bb0(%%in: %s, %s):" % (x.dt, ", ".join(
            "%%acc%d: %s" % (j, acc_dt) for j in range(len(kinds)))))
        for l in b.lines:
            self.emit("  " + l)
        self.emit("} -> %s" % (oty if one else "(%s)" % ", ".join([oty] * len(kinds))))
        stats = []
        for j, kd in enumerate(kinds):
            bound = x.bound ** 2 if kd == "sumsq" else x.bound
            v = Val(n if one else "%s#%d" % (n, j), out_shape, acc_dt, bound)
            stats.append((kd, v))
            self.pool.append(v)
        if out_shape == () or r.random() < 0.3:
            # 0-d results and some others are returned as they are
            for _, v in stats:
                self.must_return.append(v)
        if kinds[:2] != ["sum", "sumsq"] or r.random() < 0.3:
            return
        # normalize x by its statistics: (x - mean) * rsqrt(max(E[x^2] - mean^2, 0) + eps)
        eps = r.choice([1e-3, 1e-2])
        c = Gen.Body(self, "f32")
        xa = "%x"
        if x.dt != "f32":
            xa = c.op("arith.extf %%x : %s to f32" % x.dt)
        m, q = "%m", "%q"
        if acc_dt != "f32":
            m = c.op("arith.extf %%m : %s to f32" % acc_dt)
            q = c.op("arith.extf %%q : %s to f32" % acc_dt)
        m2 = c.op("arith.mulf %s, %s : f32" % (m, m))
        var = c.op("arith.subf %s, %s : f32" % (q, m2))
        var = c.op("arith.maximumf %s, %s : f32" % (var, c.const(0.0, "f32")))
        ve = c.op("arith.addf %s, %s : f32" % (var, c.const(eps, "f32")))
        rs = c.op("math.rsqrt %s : f32" % ve)
        d = c.op("arith.subf %s, %s : f32" % (xa, m))
        y = c.op("arith.mulf %s, %s : f32" % (d, rs))
        if x.dt != "f32":
            y = c.op("arith.truncf %s : f32 to %s" % (y, x.dt))
        c.lines.append("linalg.yield %s : %s" % (y, x.dt))
        ident = amap(rank, ["d%d" % i for i in range(rank)])
        smap = amap(rank, stat_res)
        out = self.empty(x.shape, x.dt)
        nn = self.emit_generic([x, stats[0][1], stats[1][1]], [ident, smap, smap], out,
                               x.shape, x.dt, ident, ["parallel"] * rank, c.lines,
                               ["%x", "%m", "%q"], "%o")
        # |x - mean| * rsqrt(var + eps) <= 2 |x|max / sqrt(eps)
        self.add(Val(nn, x.shape, x.dt, min(2 * x.bound / eps ** 0.5, 64.0)))
        if self.pool[-1].bound > self.limit:
            self.squash(self.pool[-1])

    def op_centred_statistics(self):
        """Mean and variance over any set of reduced dims as frontends and
        hand-written kernels write them: a sum, its mean in a generic of its
        own, then the sum of squares centred on the mean or on a running
        mean passed in ((v - c)^2 or (c - v)^2); or Welford's three-output
        recurrence from zero (count, mean, M2). The variance is M2 / count;
        sometimes x is normalized by the two (batch norm over all dims but
        the channel, group norm NHWC, a variance over dims 0 and 2)."""
        r = self.r
        x = self.reduction_input()
        rank = len(x.shape)
        if rank >= 3 and r.random() < 0.6:
            # reduced dims no reshape makes adjacent
            red_t = {0, rank - 1} if r.random() < 0.5 else {0} | set(range(2, rank))
        else:
            red_t = set(r.sample(range(rank), r.randint(1, rank)))
        out_shape = tuple(x.shape[i] for i in range(rank) if i not in red_t)
        stat_res = ["d%d" % i for i in range(rank) if i not in red_t]
        L = 1
        for i in red_t:
            L *= x.shape[i]
        acc = "f32"
        iters = ["reduction" if i in red_t else "parallel" for i in range(rank)]
        ident = amap(rank, ["d%d" % i for i in range(rank)])
        smap = amap(rank, stat_res)
        orank = len(out_shape)
        oid = amap(orank, ["d%d" % i for i in range(orank)])
        oty = ty(out_shape, acc)

        def value(b):
            if x.dt == acc:
                return "%in"
            return b.op("arith.extf %%in : %s to %s" % (x.dt, acc))

        def add(b, a, c):
            return b.op("arith.addf %s, %s : f32" % ((a, c) if r.random() < 0.5
                                                     else (c, a)))

        def scaled(arg, scale):
            b = Gen.Body(self, acc)
            y = b.op("arith.mulf %s, %s : f32" % (arg, b.const(scale)))
            return b.lines + ["linalg.yield %s : f32" % y]

        def elementwise(ins, names, lines, bound):
            out = self.empty(out_shape, acc)
            n = self.emit_generic(ins, [oid] * len(ins), out, out_shape, acc,
                                  oid, ["parallel"] * orank, lines, names, "%o")
            return self.add(Val(n, out_shape, acc, bound))

        if r.random() < 0.35:
            # Welford: count, mean and M2 updated together.
            b = Gen.Body(self, acc)
            v = value(b)
            c1 = add(b, "%cnt", b.const(1.0))
            d = b.op("arith.subf %s, %%mean : f32" % v)
            q = b.op("arith.divf %s, %s : f32" % (d, c1))
            mn = add(b, "%mean", q)
            d2 = b.op("arith.subf %s, %s : f32" % (v, mn))
            p = b.op("arith.mulf %s, %s : f32" % ((d, d2) if r.random() < 0.5
                                                  else (d2, d)))
            m2 = add(b, "%m2", p)
            b.lines.append("linalg.yield %s, %s, %s : f32, f32, f32" % (c1, mn, m2))
            inits = [self.fill(out_shape, acc, 0.0) for _ in range(3)]
            n = self.fresh()
            self.emit("%s:3 = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
                      % (n, ", ".join([ident] + [smap] * 3),
                         ", ".join('"%s"' % i for i in iters)))
            self.emit("    ins(%s : %s)" % (x.name, x.ty))
            self.emit("    outs(%s : %s) {" % (", ".join(inits), ", ".join([oty] * 3)))
            self.emit("^bb0(%%in: %s, %%cnt: f32, %%mean: f32, %%m2: f32):" % x.dt)
            for l in b.lines:
                self.emit("  " + l)
            self.emit("} -> (%s)" % ", ".join([oty] * 3))
            cnt = Val("%s#0" % n, out_shape, acc, float(L))
            mean = self.add(Val("%s#1" % n, out_shape, acc, x.bound))
            m2v = Val("%s#2" % n, out_shape, acc, 4 * x.bound ** 2 * L)
            var = elementwise([m2v, cnt], ["%q", "%c"],
                              ["%b1 = arith.divf %q, %c : f32",
                               "linalg.yield %b1 : f32"], 4 * x.bound ** 2)
        else:
            b = Gen.Body(self, acc)
            y = add(b, "%acc", value(b))
            b.lines.append("linalg.yield %s : f32" % y)
            s_n = self.emit_generic([x], [ident], self.fill(out_shape, acc, 0.0),
                                    out_shape, acc, smap, iters, b.lines, ["%in"],
                                    "%acc")
            sval = Val(s_n, out_shape, acc, x.bound * L)
            mean = elementwise([sval], ["%s"], scaled("%s", 1.0 / L), x.bound)
            centre = mean
            if r.random() < 0.3:
                centre = self.new_arg(out_shape, acc)
            centre.uses += 1
            b = Gen.Body(self, acc)
            v = value(b)
            d = b.op("arith.subf %s, %%c : f32" % v if r.random() < 0.6
                     else "arith.subf %%c, %s : f32" % v)
            d2 = b.op("arith.mulf %s, %s : f32" % (d, d))
            y = add(b, "%acc", d2)
            b.lines.append("linalg.yield %s : f32" % y)
            q_n = self.emit_generic([x, centre], [ident, smap],
                                    self.fill(out_shape, acc, 0.0), out_shape,
                                    acc, smap, iters, b.lines, ["%in", "%c"],
                                    "%acc")
            qval = Val(q_n, out_shape, acc, 4 * x.bound ** 2 * L)
            var = elementwise([qval], ["%q"], scaled("%q", 1.0 / L),
                              4 * x.bound ** 2)
        if out_shape == () or r.random() < 0.5:
            self.must_return.append(mean)
            self.must_return.append(var)
            return
        # normalize: (x - mean) * rsqrt(var + eps)
        eps = r.choice([1e-3, 1e-2])
        c = Gen.Body(self, "f32")
        xa = "%x"
        if x.dt != "f32":
            xa = c.op("arith.extf %%x : %s to f32" % x.dt)
        ve = c.op("arith.addf %%v, %s : f32" % c.const(eps, "f32"))
        rs = c.op("math.rsqrt %s : f32" % ve)
        d = c.op("arith.subf %s, %%m : f32" % xa)
        y = c.op("arith.mulf %s, %s : f32" % (d, rs))
        if x.dt != "f32":
            y = c.op("arith.truncf %s : f32 to %s" % (y, x.dt))
        c.lines.append("linalg.yield %s : %s" % (y, x.dt))
        out = self.empty(x.shape, x.dt)
        mean.uses += 1
        var.uses += 1
        nn = self.emit_generic([x, mean, var], [ident, smap, smap], out, x.shape,
                               x.dt, ident, ["parallel"] * rank, c.lines,
                               ["%x", "%m", "%v"], "%o")
        self.add(Val(nn, x.shape, x.dt, min(2 * x.bound / eps ** 0.5, 64.0)))
        if self.pool[-1].bound > self.limit:
            self.squash(self.pool[-1])

    # --------------------------------------------------------------- program
    OPS = [
        ("named_binary", 18), ("named_unary", 10), ("generic_pointwise", 20),
        ("broadcast", 6), ("reduction", 12), ("multi_reduction", 5), ("norm", 12),
        ("row_col_reduction", 5), ("general_reduction", 8),
        # Only where --ops names it (fuzz-reductions-small-target.test): a
        # default weight of 0 leaves every seed's default program as it was.
        ("centred_statistics", 0),
        ("transpose", 8),
        ("reshape", 5), ("aos", 5), ("quant", 3), ("slice", 6), ("argmax", 4),
    ]

    def generate(self):
        r = self.r
        names = [n for n, _ in self.OPS if not self.only or n in self.only]
        # (Kinds off by default weigh 4 where --ops names them.)
        weights = [w or (4 if self.only else 0)
                   for n, w in self.OPS if not self.only or n in self.only]
        for _ in range(self.max_ops):
            k = r.choices(names, weights)[0]
            self.ops_log.append(k)
            getattr(self, "op_" + k)()
        return self.finish()

    def finish(self):
        r = self.r
        results = list(self.must_return)
        computed = [v for v in self.pool if not v.arg]
        if computed:
            last = computed[-1]
            if last not in results:
                results.append(last)
            # multi-output: unused values and some intermediates
            for v in computed[:-1]:
                if v in results:
                    continue
                if (v.uses == 0 and r.random() < 0.5) or r.random() < 0.08:
                    results.append(v)
        if not results:
            # degenerate: return something computed from an input
            a = self.get((self.M, self.N))
            results.append(self.abs_named(a))
        if "dup-results" in self.avoid:
            uniq = []
            for v in results:
                if v not in uniq:
                    uniq.append(v)
            results = uniq
        elif r.random() < 0.03:
            results.append(results[0])          # same value returned twice
        if r.random() < 0.03 and self.args:
            results.append(r.choice(self.args))  # an input returned unchanged
        if len(results) > 6:
            results = results[:1] + r.sample(results[1:], 5)
        hdr = "func.func @fuzz_%d(%s)" % (self.seed, ", ".join(
            "%s: %s" % (a.name, a.ty) for a in self.args))
        if len(results) == 1:
            hdr += " -> %s {" % results[0].ty
        else:
            hdr += " -> (%s) {" % ", ".join(v.ty for v in results)
        out = ["// memopt fuzz program, seed %d, dtype %s, ops: %s"
               % (self.seed, self.dt, " ".join(self.ops_log)), hdr]
        out += self.lines
        out.append("  return %s : %s" % (", ".join(v.name for v in results),
                                         ", ".join(v.ty for v in results)))
        out.append("}")
        return "\n".join(out) + "\n"


def generate(seed, max_elems=1 << 18, max_ops=None, avoid=(), ops=None):
    return Gen(seed, max_elems, max_ops, avoid, ops).generate()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-elems", type=int, default=1 << 18)
    ap.add_argument("--max-ops", type=int, default=None)
    ap.add_argument("--avoid", default="",
                    help="comma-separated constructs to leave out (known open bugs): "
                         + ", ".join(AVOIDABLE))
    ap.add_argument("--ops", default="",
                    help="comma-separated op kinds to draw from (all when empty): "
                         + ", ".join(n for n, _ in Gen.OPS))
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    text = generate(a.seed, a.max_elems, a.max_ops,
                    [x for x in a.avoid.split(",") if x],
                    [x for x in a.ops.split(",") if x])
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
