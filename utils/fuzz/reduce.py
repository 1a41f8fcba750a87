#!/usr/bin/env python3
"""Greedy reducer for memopt fuzz programs (the format gen.py writes).

  reduce.py IN.mlir OUT.mlir --check mismatch:opt|mismatch:base|crash:PIPELINE|error:TEXT
            [--bin DIR]

Steps, repeated to a fixpoint while the failure persists:
  * drop one function result;
  * delete an op whose result is unused;
  * cut an op: delete it and turn its result into a new function argument.
Python 3 standard library only.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as runmod  # noqa: E402

PIPE = {"opt": "optimized-host", "base": "baseline-host"}


def parse(text):
    lines = text.split("\n")
    hdr_i = next(i for i, l in enumerate(lines) if l.startswith("func.func"))
    ret_i = next(i for i, l in enumerate(lines) if l.strip().startswith("return "))
    ops = []   # (name, start, end_exclusive)
    i = hdr_i + 1
    while i < ret_i:
        l = lines[i]
        m = re.match(r"  (%[\w]+) = ", l)
        j = i + 1
        while j < ret_i and (lines[j].startswith("   ") or lines[j].startswith("  }") or
                             lines[j].startswith("  ^") or lines[j].startswith("      ")):
            if lines[j].startswith("  }"):
                j += 1
                break
            j += 1
        if m:
            ops.append((m.group(1), i, j))
        i = j
    return lines, hdr_i, ret_i, ops


def result_type(block):
    t = " ".join(block)
    for pat in (r"\} -> (tensor<[^>]*>)\s*$", r"into (tensor<[^>]*>)\s*$",
                r"\) -> (tensor<[^>]*>)\s*$", r"arith.constant .* : (\S+)$"):
        m = re.search(pat, t.strip())
        if m:
            return m.group(1)
    m = re.search(r"outs\(%[\w]+ : (tensor<[^>]*>)\)", t)
    if m:
        return m.group(1)
    m = re.search(r": (tensor<[^>]*>)\s*$", t.strip())
    return m.group(1) if m else None


def uses(text, name):
    return len(re.findall(re.escape(name) + r"(?![\w])", text))


def split_sig(hdr):
    m = re.match(r"func.func @(\w+)\((.*)\) -> (.*) \{$", hdr)
    name, args, res = m.group(1), m.group(2), m.group(3)
    return name, args, res


def rebuild_ret(lines, hdr_i, ret_i, vals, tys):
    name, args, _ = split_sig(lines[hdr_i])
    res = tys[0] if len(tys) == 1 else "(%s)" % ", ".join(tys)
    lines[hdr_i] = "func.func @%s(%s) -> %s {" % (name, args, res)
    lines[ret_i] = "  return %s : %s" % (", ".join(vals), ", ".join(tys))


def ret_parts(line):
    m = re.match(r"\s*return (.*) : (.*)$", line)
    vals = [v.strip() for v in m.group(1).split(",")]
    tys = re.findall(r"tensor<[^>]*>", m.group(2))
    return vals, tys


def candidates(text):
    lines, hdr_i, ret_i, ops = parse(text)
    vals, tys = ret_parts(lines[ret_i])
    # 1. drop a result
    if len(vals) > 1:
        for k in range(len(vals)):
            l2 = list(lines)
            rebuild_ret(l2, hdr_i, ret_i, vals[:k] + vals[k + 1:], tys[:k] + tys[k + 1:])
            yield "\n".join(l2)
    # 2. delete dead ops (latest first)
    for name, s, e in reversed(ops):
        if uses(text, name) == 1:
            yield "\n".join(lines[:s] + lines[e:])
    # 3. cut an op into an argument
    ncut = sum(1 for l in lines if "%cut" in l)
    for name, s, e in reversed(ops):
        block = lines[s:e]
        if "tensor.empty" in block[0] or "arith.constant" in block[0] or \
                "linalg.fill" in block[0]:
            continue
        t = result_type(block)
        if not t or not t.startswith("tensor<"):
            continue
        new = "%%cut%d" % (ncut + 1)
        l2 = lines[:s] + lines[e:]
        fname, args, res = split_sig(l2[hdr_i])
        args = (args + ", " if args else "") + "%s: %s" % (new, t)
        l2[hdr_i] = "func.func @%s(%s) -> %s {" % (fname, args, res)
        body = "\n".join(l2[hdr_i + 1:])
        body = re.sub(re.escape(name) + r"(?![\w])", new, body)
        yield "\n".join(l2[:hdr_i + 1]) + "\n" + body


def make_pred(check, bindir, work):
    kind, _, what = check.partition(":")

    def compile_(src, pipe, out):
        return runmod.run_tool([os.path.join(bindir, "memopt-compile"), src,
                                "--pipeline=" + pipe, "-o", out], 1e18 if False else
                               __import__("time").time() + 120)

    def pred(text):
        src = os.path.join(work, "r.mlir")
        with open(src, "w") as f:
            f.write(text)
        if kind == "crash":
            rc, out, err = compile_(src, what, os.path.join(work, "c"))
            return runmod.crash_text(rc, out, err) is not None
        if kind == "error":
            res = []
            for pipe in ("reference", "baseline-host", "optimized-host", "baseline",
                         "optimized"):
                rc, out, err = compile_(src, pipe, os.path.join(work, pipe))
                if what in err:
                    return True
            return False
        if kind == "mismatch":
            rc, _, _ = compile_(src, "reference", os.path.join(work, "ref"))
            if rc != 0:
                return False
            rc, _, _ = compile_(src, PIPE[what], os.path.join(work, "t"))
            if rc != 0:
                return False
            p = subprocess.run([os.path.join(bindir, "memopt-cpu-diff"),
                                os.path.join(work, "ref.json"), os.path.join(work, "t.json")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            return p.returncode == 1
        raise SystemExit("bad --check")
    return pred


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--check", required=True)
    ap.add_argument("--bin", default=os.path.normpath(os.path.join(here, "..", "..",
                                                                    "build", "bin")))
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="memopt-reduce-")
    try:
        pred = make_pred(a.check, os.path.abspath(a.bin), work)
        text = open(a.input).read()
        if not pred(text):
            print("reduce.py: the input does not fail the check")
            return 1
        changed = True
        while changed:
            changed = False
            for cand in candidates(text):
                if pred(cand):
                    text = cand
                    changed = True
                    print("reduced to %d lines" % text.count("\n"))
                    break
        with open(a.output, "w") as f:
            f.write(text)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
