#!/usr/bin/env python3
"""Prints the kernel plan of every workload input: runs memopt-opt
--memopt-plan-stage on examples/*.mlir, bench/inputs/*.mlir and
test/Inputs/contract/*.mlir and counts, per file, the kernel groups by
strategy family. Ends with a line
  plans: N files, N groups, N without a strategy, N naive, N failures
(a failure is a file memopt-opt does not plan).

Usage: utils/check_plans.py --bin BUILD/bin [--root SRC] [-v]
"""
import argparse, collections, glob, os, re, subprocess, sys

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    files = []
    for pat in ("examples/*.mlir", "bench/inputs/*.mlir", "test/Inputs/contract/*.mlir"):
        files += sorted(glob.glob(os.path.join(a.root, pat)))
    total = collections.Counter()
    groups = unplanned = failures = 0
    for f in files:
        p = subprocess.run([os.path.join(a.bin, "memopt-opt"), f, "--memopt-plan-stage"],
                           capture_output=True, text=True)
        rel = os.path.relpath(f, a.root)
        if p.returncode != 0:
            failures += 1
            print(f"{rel}: FAILED\n{p.stderr}")
            continue
        n = len(re.findall(r"memopt\.kernel_group", p.stdout))
        fams = re.findall(r"memopt\.kernel_group attributes \{strategy = #memopt\.(\w+)<", p.stdout)
        groups += n
        unplanned += n - len(fams)
        c = collections.Counter(fams)
        total.update(c)
        print(f"{rel}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
        if a.v:
            for m in re.findall(r"strategy = (#memopt\.[^>]*>)", p.stdout):
                print("   ", m)
    print("families: " + ", ".join(f"{k} {v}" for k, v in sorted(total.items())))
    print(f"plans: {len(files)} files, {groups} groups, {unplanned} without a strategy, "
          f"{total['naive']} naive, {failures} failures")
    return 0 if failures == 0 and unplanned == 0 else 1

sys.exit(main())
