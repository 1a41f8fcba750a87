#!/usr/bin/env python3
# ===- bench/smoke/make_smoke.py - Compiler-free GPU smoke artifacts -----=== #
#
# Part of the memopt project.
#
# Writes one synthetic workload in the memopt-compile output format, so that
# the runtime, memopt-run and bench/run_gpu.sh can be checked on a GPU host
# before (or without) compiler artifacts:
#
#   smoke_add: out[i] = (a[i] + b[i]) * 0.5, f32, N elements (default 2^26)
#     baseline : base_add(a, b, tmp, i32 n, f32 s) then copy tmp -> out
#     optimized: opt_add(a, b, view(out), i64 n, f32 s), view = 2-D alias
#     reference: smoke_add.reference.so, built here with the C compiler
#
# The PTX is hand-written (bare-pointer convention, sm_90, PTX 8.0), so this
# exercises buffer, i32, i64 and f32 arguments, aliases, temps and copies.
#
# Usage: make_smoke.py OUT_DIR [--elements N] [--name NAME] [--cc cc]
#
# ===--------------------------------------------------------------------=== #

import argparse
import json
import os
import subprocess
import sys

PTX_TEMPLATE = """//
// memopt smoke test kernel (hand-written PTX).
//
.version 8.0
.target sm_90
.address_size 64

.visible .entry {name}(
    .param .u64 {name}_a,
    .param .u64 {name}_b,
    .param .u64 {name}_out,
    .param .{nty} {name}_n,
    .param .f32 {name}_s)
{{
    .reg .pred  %p<2>;
    .reg .b32   %r<4>;
    .reg .f32   %f<5>;
    .reg .b64   %rd<12>;

    ld.param.u64    %rd1, [{name}_a];
    ld.param.u64    %rd2, [{name}_b];
    ld.param.u64    %rd3, [{name}_out];
    {load_n}
    ld.param.f32    %f4, [{name}_s];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    cvta.to.global.u64 %rd3, %rd3;
    mov.u32         %r1, %ctaid.x;
    mov.u32         %r2, %ntid.x;
    mov.u32         %r3, %tid.x;
    mul.wide.u32    %rd5, %r1, %r2;
    cvt.u64.u32     %rd6, %r3;
    add.s64         %rd5, %rd5, %rd6;
    setp.ge.s64     %p1, %rd5, %rd4;
    @%p1 bra        DONE;
    shl.b64         %rd7, %rd5, 2;
    add.s64         %rd8, %rd1, %rd7;
    add.s64         %rd9, %rd2, %rd7;
    add.s64         %rd10, %rd3, %rd7;
    ld.global.f32   %f1, [%rd8];
    ld.global.f32   %f2, [%rd9];
    add.f32         %f3, %f1, %f2;
    mul.f32         %f3, %f3, %f4;
    st.global.f32   [%rd10], %f3;
DONE:
    ret;
}}
"""

REFERENCE_C = r"""
/* memopt smoke reference: out = (a + b) * 0.5 over N floats. */
void smoke_add(void *a, void *b, void *out) {
  const float *x = (const float *)a, *y = (const float *)b;
  float *z = (float *)out;
  for (long long i = 0; i < N; ++i)
    z[i] = (x[i] + y[i]) * 0.5f;
}
"""


def ptx(name, n_type):
    if n_type == "s32":
        load_n = ("ld.param.s32    %%r0, [%s_n];\n"
                  "    cvt.s64.s32     %%rd4, %%r0;" % name)
        text = PTX_TEMPLATE  # %r<4> declares %r0..%r3; %r0 holds n
    else:
        load_n = "ld.param.u64    %%rd4, [%s_n];" % name
        text = PTX_TEMPLATE
    return text.format(name=name, nty="u32" if n_type == "s32" else "u64",
                       load_n=load_n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--elements", type=int, default=1 << 26)
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--name", default="smoke_add",
                    help="workload (file prefix) name, e.g. w1_smoke")
    args = ap.parse_args()
    n = args.elements
    if n % 1024 or n <= 0 or n >= 1 << 31:
        ap.error("--elements must be a positive multiple of 1024 below 2^31")
    os.makedirs(args.out_dir, exist_ok=True)
    nbytes = 4 * n
    block = 256
    grid = (n + block - 1) // block

    def buf(i, name, role, **extra):
        b = {"id": i, "name": name, "role": role, "dtype": "f32",
             "shape": [n], "bytes": nbytes}
        b.update(extra)
        return b

    io = [buf(0, "a", "input"), buf(1, "b", "input"), buf(2, "out", "output")]
    common = {"format": "memopt-manifest", "version": 1,
              "function": "smoke_add",
              "target": {"chip": "sm_90", "ptx_version": "8.0"},
              "min_bytes": 3 * nbytes}
    launch = {"kind": "launch", "grid": [grid, 1, 1], "block": [block, 1, 1],
              "shared_bytes": 0, "bytes_read": 2 * nbytes,
              "bytes_written": nbytes}
    baseline = dict(common, pipeline="baseline", ptx="smoke_add.baseline.ptx",
                    buffers=io + [buf(3, "tmp", "temp")],
                    schedule=[dict(launch, kernel="base_add",
                                   args=[{"buffer": 0}, {"buffer": 1},
                                         {"buffer": 3}, {"i32": n},
                                         {"f32": 0.5}]),
                              {"kind": "copy", "src": 3, "dst": 2,
                               "bytes": nbytes}],
                    model_bytes={"read": 3 * nbytes, "written": 2 * nbytes})
    view = {"id": 3, "name": "out2d", "role": "alias", "alias_of": 2,
            "offset_bytes": 0, "dtype": "f32", "shape": [n // 1024, 1024],
            "bytes": nbytes}
    optimized = dict(common, pipeline="optimized",
                     ptx="smoke_add.optimized.ptx", buffers=io + [view],
                     schedule=[dict(launch, kernel="opt_add",
                                    args=[{"buffer": 0}, {"buffer": 1},
                                          {"buffer": 3}, {"i64": n},
                                          {"f32": 0.5}])],
                     model_bytes={"read": 2 * nbytes, "written": nbytes})
    reference = dict(common, pipeline="reference",
                     library="smoke_add.reference.so", symbol="smoke_add",
                     buffers=io, schedule=[],
                     model_bytes={"read": 0, "written": 0})
    out, w = args.out_dir, args.name
    baseline["ptx"] = "%s.baseline.ptx" % w
    optimized["ptx"] = "%s.optimized.ptx" % w
    reference["library"] = "%s.reference.so" % w
    for name, m in (("baseline", baseline), ("optimized", optimized),
                    ("reference", reference)):
        with open(os.path.join(out, "%s.%s.json" % (w, name)), "w") as f:
            json.dump(m, f, indent=2)
    with open(os.path.join(out, "%s.baseline.ptx" % w), "w") as f:
        f.write(ptx("base_add", "s32"))
    with open(os.path.join(out, "%s.optimized.ptx" % w), "w") as f:
        f.write(ptx("opt_add", "u64"))
    src = os.path.join(out, "%s.reference.c" % w)
    with open(src, "w") as f:
        f.write(REFERENCE_C)
    subprocess.check_call([args.cc, "-O2", "-shared", "-fPIC", "-DN=%dLL" % n,
                           src, "-o",
                           os.path.join(out, "%s.reference.so" % w)])
    os.remove(src)
    print("wrote %s artifacts (%d elements) to %s" % (w, n, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
