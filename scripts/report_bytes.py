#!/usr/bin/env python3
"""Prints, per workload, each kernel's modelled DRAM bytes in the baseline and
optimized manifests of an artifact folder, and the reduction. Reads only the
manifests (docs/manifest.md); measures nothing."""
import json
import pathlib
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def mb(n):
    return f"{n / 1e6:10.1f}"


def main():
    art = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts")
    names = sorted(p.name[: -len(".optimized.json")]
                   for p in art.glob("*.optimized.json"))
    if not names:
        print(f"no *.optimized.json in {art}", file=sys.stderr)
        return 2
    print("bytes moved per kernel (static model; MB = 1e6 bytes)")
    for name in names:
        base = load(art / f"{name}.baseline.json")
        opt = load(art / f"{name}.optimized.json")
        print(f"\n{name} ({base['function']}): minimum {mb(base['min_bytes'])} MB")
        for label, m in (("baseline", base), ("optimized", opt)):
            for step in m["schedule"]:
                if step["kind"] == "launch":
                    r, w = step["bytes_read"], step["bytes_written"]
                    what = step["kernel"]
                else:
                    r = w = step["bytes"]
                    what = f"copy {step['src']}->{step['dst']}"
                print(f"  {label:9s} {what:24s} read {mb(r)} MB  "
                      f"written {mb(w)} MB")
        tb = base["model_bytes"]["read"] + base["model_bytes"]["written"]
        to = opt["model_bytes"]["read"] + opt["model_bytes"]["written"]
        nb = sum(1 for s in base["schedule"] if s["kind"] == "launch")
        no = sum(1 for s in opt["schedule"] if s["kind"] == "launch")
        print(f"  total: baseline {nb} kernels {mb(tb)} MB, optimized {no} "
              f"kernels {mb(to)} MB, reduction {tb / max(to, 1):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
