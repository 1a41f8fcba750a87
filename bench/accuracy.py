#!/usr/bin/env python3
# ===- bench/accuracy.py - exhaustive accuracy of memopt's GPU math ----=== #
#
# Part of the memopt project.
#
# Runs the kernels memopt compiled for bench/accuracy/*.mlir on the GPU,
# straight from their PTX and launch manifests through CuPy (independent of
# memopt-run), on every bit pattern of a 16-bit input (2^20 samples for
# f32), and compares each result with the function evaluated in f64 by
# numpy. A result is faithful when it lies within one ulp of the exact value
# in the output format (|got - exact| < ulp at |exact|).
#
# Each program is compiled twice by bench/make_artifacts.sh: "approx" (the
# optimized pipeline; memopt-approximate-math marks math whose result is
# only seen in 16 bits) and "precise" (--approximate-math=false). Verdicts:
#   tanh (bf16, f16 outputs): every result faithful, in both modes;
#   gelu (bf16, f16): the f32 formula itself loses the result where
#     1 + tanh(u) cancels (x < -5 or so) in both modes; approx must be
#     faithful wherever precise is;
#   tanh f32 (precise only, sampled): relative error below 2^-18;
#   lse2 (log-sum-exp of [x, 0] for every bf16 x, an f32 result): approx
#     bit for bit equal to precise (its exps flush results below 2^-126,
#     which a sum holding exp(0) = 1 does not see), both within
#     2^-18 * max(1, |exact|) of f64 where that is finite.
#
# Usage: accuracy.py --artifacts DIR [--json out.json]
# Exit: 0 all verdicts hold, 1 one fails, 2 usage / missing artifacts,
# 3 no GPU / CuPy.
#
# ===--------------------------------------------------------------------=== #

import argparse
import json
import math
import os
import sys

import numpy as np

PROGRAMS = {
    # name: (dtype, function, verdict)
    "tanh_bf16": ("bf16", "tanh", "faithful"),
    "tanh_f16": ("f16", "tanh", "faithful"),
    "gelu_bf16": ("bf16", "gelu", "no-new-errors"),
    "gelu_f16": ("f16", "gelu", "no-new-errors"),
    "tanh_f32": ("f32", "tanh", "relative"),
    "lse2_bf16": ("bf16", "lse2", "same-as-precise"),
}
# Output formats that differ from the input's.
OUT_DTYPE = {"lse2_bf16": "f32"}


def exact(fn, x):
    x = x.astype(np.float64)
    with np.errstate(all="ignore"):
        if fn == "tanh":
            return np.tanh(x)
        if fn == "lse2":
            return np.logaddexp(x, 0.0)
        u = 0.7978845608028654 * (x + 0.044715 * x ** 3)
        return 0.5 * x * (1.0 + np.tanh(u))


def inputs(dtype):
    if dtype == "bf16":
        bits = np.arange(65536, dtype=np.uint32)
        return bits.astype(np.uint16), (bits << 16).view(np.float32)
    if dtype == "f16":
        bits = np.arange(65536, dtype=np.uint16)
        return bits, bits.view(np.float16).astype(np.float32)
    rng = np.random.default_rng(0)
    n = 1 << 20
    mag = np.exp2(rng.uniform(-30, 5, n))
    mag[: n // 4] = rng.uniform(0, 10, n // 4)
    x = (mag * np.where(rng.random(n) < 0.5, -1, 1)).astype(np.float32)
    return x, x


def decode(dtype, raw):
    if dtype == "bf16":
        return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    if dtype == "f16":
        return raw.view(np.float16).astype(np.float32)
    return raw.view(np.float32)


def ulp_of(dtype, e):
    """Spacing of `dtype` at |e| (its subnormal spacing below the normals)."""
    mant, emin = {"bf16": (7, -126), "f16": (10, -14), "f32": (23, -126)}[dtype]
    a = np.abs(e)
    with np.errstate(divide="ignore"):
        ex = np.floor(np.log2(np.where(a > 0, a, 1.0)))
    ex = np.maximum(ex, emin)
    return np.exp2(ex - mant)


def judge(dtype, got, ref):
    """Per element: faithful (within one ulp of the exact value)."""
    got = got.astype(np.float64)
    nan = np.isnan(ref)
    inf = np.isinf(ref)
    maxv = {"bf16": 3.3895e38, "f16": 65504.0, "f32": 3.4028e38}[dtype]
    big = ~nan & ~inf & (np.abs(ref) > maxv)
    ok = np.zeros(ref.shape, dtype=bool)
    ok[nan] = np.isnan(got[nan])
    ok[inf] = got[inf] == ref[inf]
    ok[big] = np.abs(got[big]) >= maxv
    rest = ~nan & ~inf & ~big
    with np.errstate(invalid="ignore"):
        dist = np.abs(got - ref) / ulp_of(dtype, ref)
    ok[rest] = dist[rest] < 1.0
    dist = np.where(rest, dist, 0.0)
    return ok, dist


def run(cp, stem, x_bits):
    """Runs the manifest `stem`.json's schedule on x; returns output 0."""
    with open(stem + ".json") as f:
        m = json.load(f)
    mod = cp.RawModule(path=os.path.join(os.path.dirname(stem), m["ptx"]))
    base = {}
    for b in m["buffers"]:
        if b["role"] != "alias":
            base[b["id"]] = cp.zeros(max(b["bytes"], 1), dtype=cp.uint8)
    def ptr(i):
        b = m["buffers"][i]
        if b["role"] == "alias":
            return base[b["alias_of"]].data.ptr + b.get("offset_bytes", 0)
        return base[i].data.ptr
    src = cp.asarray(np.ascontiguousarray(x_bits).view(np.uint8))
    base[0][: src.size] = src
    for st in m["schedule"]:
        if st["kind"] == "copy":
            cp.cuda.runtime.memcpy(ptr(st["dst"]), ptr(st["src"]),
                                   st["bytes"], 3)  # device to device
            continue
        if st.get("cluster", [1, 1, 1]) != [1, 1, 1]:
            raise RuntimeError("cluster launches are not supported here")
        args = []
        for a in st["args"]:
            if "buffer" in a:
                args.append(np.uint64(ptr(a["buffer"])))
            elif "i64" in a:
                args.append(np.int64(a["i64"]))
            elif "i32" in a:
                args.append(np.int32(a["i32"]))
            else:
                args.append(np.float32(a["f32"]))
        fn = mod.get_function(st["kernel"])
        fn(tuple(st["grid"]), tuple(st["block"]), tuple(args),
           shared_mem=st.get("shared_bytes", 0))
    cp.cuda.runtime.deviceSynchronize()
    out = next(b for b in m["buffers"] if b["role"] == "output")
    return cp.asnumpy(base[out["id"]])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    try:
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
    except Exception as e:
        print("accuracy: no GPU or CuPy: %s" % e, file=sys.stderr)
        return 3
    report, failed = {}, []
    for name, (dtype, fn, verdict) in PROGRAMS.items():
        raw_in, x = inputs(dtype)
        ref = exact(fn, x)
        out_dtype = OUT_DTYPE.get(name, dtype)
        entry = {"dtype": dtype, "function": fn, "verdict": verdict,
                 "inputs": int(x.size)}
        oks, gots = {}, {}
        for mode in ("approx", "precise"):
            stem = os.path.join(args.artifacts, "%s.%s" % (name, mode))
            if not os.path.exists(stem + ".json"):
                if mode == "approx":
                    print("accuracy: missing %s.json" % stem, file=sys.stderr)
                    return 2
                continue
            got = decode(out_dtype, run(cp, stem, raw_in))
            ok, dist = judge(out_dtype, got, ref)
            oks[mode] = ok
            gots[mode] = got
            worst = int(np.argmax(dist))
            with np.errstate(invalid="ignore", divide="ignore"):
                rel = np.where((ref != 0) & np.isfinite(ref),
                               np.abs(got - ref) / np.abs(ref), 0.0)
            rel = np.nan_to_num(rel)
            # Log-sum-exp's error is relative to its scale: an f32 result
            # of log(exp(x) + 1) is 0 for x < -17, where the exact value is
            # about exp(x).
            fin = np.isfinite(ref)
            with np.errstate(invalid="ignore"):
                scaled = np.where(fin, np.abs(got - ref) /
                                  np.maximum(1.0, np.abs(ref)), 0.0)
            scaled = np.nan_to_num(scaled, nan=1.0)
            entry[mode] = {
                "not_faithful": int((~ok).sum()),
                "max_ulp": float(dist.max()),
                "worst_input": float(x[worst]),
                "worst_got": float(got[worst]),
                "worst_exact": float(ref[worst]),
                "max_rel_error": float(rel.max()),
                "max_scaled_error": float(scaled.max()),
            }
        if verdict == "faithful":
            good = all(e.all() for e in oks.values())
        elif verdict == "no-new-errors":
            good = "precise" in oks and bool(
                (oks["approx"] | ~oks["precise"]).all())
            if "precise" in oks:
                entry["new_errors"] = int((~oks["approx"] & oks["precise"]).sum())
        elif verdict == "same-as-precise":
            good = "precise" in gots
            if good:
                a, p = gots["approx"], gots["precise"]
                differ = ~((a.view(np.uint32) == p.view(np.uint32)) |
                           (np.isnan(a) & np.isnan(p)))
                entry["differ_from_precise"] = int(differ.sum())
                good = (not differ.any() and
                        entry["approx"]["max_scaled_error"] < 2.0 ** -18 and
                        entry["precise"]["max_scaled_error"] < 2.0 ** -18)
        else:
            good = entry["approx"]["max_rel_error"] < 2.0 ** -18
        entry["passed"] = bool(good)
        if not good:
            failed.append(name)
        report[name] = entry
        line = "accuracy: %-10s %-5s %s" % (name, "PASS" if good else "FAIL",
                                           verdict)
        for mode in ("approx", "precise"):
            if mode in entry:
                e = entry[mode]
                line += "  %s: %d not faithful, max %.2f ulp, max rel %.2e" % (
                    mode, e["not_faithful"], e["max_ulp"], e["max_rel_error"])
        print(line)
    report["passed"] = not failed
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
