#!/usr/bin/env python3
# ===- bench/report.py - Merge a GPU run into results.json + plot -------=== #
#
# Part of the memopt project.
#
# Merges the memopt-run JSON reports (one per workload), the peers.py JSON
# and the compute-sanitizer results of one bench/run_gpu.sh run into
# OUT/results.json, draws OUT/bandwidth.png (fraction of copy bandwidth per
# workload for memopt baseline, memopt optimized, PyTorch eager,
# torch.compile and JAX jit) and prints a compact table, which it also writes
# to OUT/table.txt. It only reports numbers found in its inputs.
#
# Usage: report.py --runs-dir DIR --out OUT [--peers peers.json]
#                  [--sanitizer sanitizer.tsv] [--env env.txt]
#                  [--git-commit SHA] [--artifacts DIR]
#
# ===--------------------------------------------------------------------=== #

import argparse
import datetime
import glob
import json
import math
import os
import sys

# Targets from docs (DESIGN.md "Workloads and targets"): fraction of copy
# bandwidth the optimized pipeline should reach.
TARGETS = {"w1": 0.90, "w2": 0.90, "w3": 0.90, "w4": 0.90, "w5": 0.90,
           "w6": 0.90, "w7": 0.90, "w8": 0.85}


def peer_key(name):
    """w1_gelu -> w1: peers are keyed by the prefix before the first '_'."""
    return name.split("_", 1)[0].lower()


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f), None
    except Exception as e:  # report, never crash on one bad file
        return None, "%s: %s" % (path, e)


def get(d, *keys, default=None):
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return default
        d = d[k]
    return d


def num(x):
    return x if isinstance(x, (int, float)) and not (
        isinstance(x, float) and math.isnan(x)) else None


def load_sanitizer(path):
    """Reads run_gpu.sh's TSV: name, status, exit code, seconds, summary."""
    out = {}
    if not path or not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 5 or parts[0] == "name":
                continue
            name, status, rc, secs, summary = parts[:5]
            entry = {"status": status, "exit_code": int(rc),
                     "seconds": float(secs), "summary": summary}
            log = path.replace(".tsv", "") + "." + name + ".log"
            if os.path.exists(log):
                with open(log, errors="replace") as lf:
                    lines = lf.read().splitlines()
                entry["log_tail"] = lines[-40:]
            out[name] = entry
    return out


def fmt(x, spec, missing="-"):
    return missing if x is None else format(x, spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs-dir", required=True,
                    help="directory with <workload>.json from memopt-run")
    ap.add_argument("--out", required=True)
    ap.add_argument("--peers", default="")
    ap.add_argument("--sanitizer", default="")
    ap.add_argument("--env", default="")
    ap.add_argument("--git-commit", default="")
    ap.add_argument("--artifacts", default="")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    problems = []
    runs = {}
    for path in sorted(glob.glob(os.path.join(args.runs_dir, "*.json"))):
        name = os.path.basename(path)[:-len(".json")]
        data, err = load_json(path)
        if err:
            problems.append(err)
            continue
        runs[name] = data

    peers, err = (None, None)
    if args.peers:
        peers, err = load_json(args.peers)
        if err:
            problems.append(err)
    sanitizer = load_sanitizer(args.sanitizer)
    env_text = ""
    if args.env and os.path.exists(args.env):
        with open(args.env, errors="replace") as f:
            env_text = f.read()

    commit = args.git_commit or "unknown"
    gpu = driver = None
    for r in runs.values():
        gpu = gpu or get(r, "device", "name")
        driver = driver or get(r, "device", "driver_version_string")
    if not gpu and peers:
        gpu = peers.get("device")
    peer_copy = num(get(peers, "copy_bandwidth", "gbps")) if peers else None

    rows = []
    names = sorted(set(runs) | set(sanitizer))
    for name in names:
        r = runs.get(name, {})
        key = peer_key(name)
        row = {"workload": name, "peer_key": key}
        row["memopt_status"] = r.get("status", "missing")
        row["memopt_exit_code"] = r.get("exit_code")
        if r.get("status") == "error":
            row["memopt_error"] = r.get("error")
        row["verification_passed"] = get(r, "verification", "passed")
        copy = num(get(r, "copy_bandwidth", "gbps"))
        row["memopt_copy_gbps"] = copy
        min_bytes = None
        for label in ("baseline", "optimized"):
            t = get(r, "pipelines", label, "total", default={})
            min_bytes = min_bytes or num(t.get("min_bytes"))
            row[label] = {
                "median_ms": num(t.get("median_ms")),
                "effective_gbps": num(t.get("effective_gbps")),
                "fraction_of_copy": num(t.get("fraction_of_copy")),
                "model_bytes": num(t.get("model_bytes")),
                "kernels": t.get("kernels"),
                "graph_ms": num(get(t, "graph_replay", "median_ms")),
            }
        row["min_bytes"] = min_bytes
        row["bytes_reduction_model"] = num(
            get(r, "bytes_reduction_model", "factor"))
        row["speedup_vs_baseline"] = num(r.get("speedup"))
        row["target_fraction"] = TARGETS.get(key)
        # Peers: same workload by prefix. Their fraction is recomputed over
        # the manifest's min_bytes when known, so that all five bars divide
        # the same byte count by their time (W6 counts only the fields read).
        pw = get(peers, "workloads", key) if peers else None
        row["notes"] = []
        peer_min = num(get(pw, "min_bytes")) if pw else None
        if peer_min and min_bytes and abs(peer_min - min_bytes) > 0.01 * min_bytes:
            row["notes"].append(
                "manifest min_bytes %d != peer's %d (expected only for "
                "layout-changing workloads like w6); peer %% use the "
                "manifest's" % (min_bytes, peer_min))
        for mode in ("eager", "compile", "jax"):
            p = get(pw, mode) if pw else None
            if not p or "median_ms" not in p:
                row[mode] = {"error": p.get("error")} if p else None
                continue
            ms = p["median_ms"]
            peer_min = num(pw.get("min_bytes"))
            bytes_used = min_bytes or peer_min
            gbps = bytes_used / (ms * 1e-3) / 1e9 if bytes_used else None
            row[mode] = {
                "median_ms": ms,
                "effective_gbps": gbps,
                "fraction_of_copy": gbps / peer_copy
                if gbps and peer_copy else None,
                "min_bytes_used": bytes_used,
                "peer_min_bytes": peer_min,
                "peer_fraction_of_copy_own_bytes":
                    num(p.get("fraction_of_copy")),
                "matches_eager": p.get("matches_eager"),
                "method": p.get("method"),
                "graph_ms": num(get(p, "graph_replay", "median_ms")),
            }
            pipe = num(p.get("pipelined_ms"))  # jax only
            if pipe and bytes_used and peer_copy:
                row[mode]["pipelined_ms"] = pipe
                row[mode]["pipelined_fraction_of_copy"] = \
                    bytes_used / (pipe * 1e-3) / 1e9 / peer_copy
        opt_ms = row["optimized"]["median_ms"]
        comp_ms = get(row, "compile", "median_ms")
        row["speedup_vs_compile"] = comp_ms / opt_ms \
            if opt_ms and comp_ms else None
        row["sanitizer"] = sanitizer.get(name)
        frac = row["optimized"]["fraction_of_copy"]
        row["meets_target"] = (frac >= row["target_fraction"]) \
            if frac is not None and row["target_fraction"] else None
        rows.append(row)

    results = {
        "format": "memopt-bench-results",
        "version": 1,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "gpu": gpu,
        "driver": driver,
        "git_commit": commit,
        "artifacts": args.artifacts or None,
        "peers_copy_gbps": peer_copy,
        "peers_torch_version": get(peers, "torch_version") if peers else None,
        "peers_jax_version": get(peers, "jax_version") if peers else None,
        "peers_status": get(peers, "status") if peers else "not run",
        "workloads": rows,
        "problems": problems,
        "environment": env_text,
        "raw": {"memopt_run": runs, "peers": peers},
    }
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=2)

    plot_error = None
    try:
        plot(rows, results, os.path.join(args.out, "bandwidth.png"))
    except Exception as e:
        plot_error = "bandwidth.png not written: %s" % e

    if sweep_points(rows):
        try:
            plot_sweep(rows, os.path.join(args.out, "sweep.png"))
        except Exception as e:
            plot_error = (plot_error or "") + " sweep.png not written: %s" % e

    lines = table(rows, results)
    if plot_error:
        lines.insert(0, plot_error)
    for p in problems:
        lines.insert(0, "problem: " + p)
    with open(os.path.join(args.out, "table.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


def sweep_points(rows):
    """{panel title: (x label, [(x, row)])} of the row sweep (sw-*: x = row
    length) and the reduction sweep (rs-*: x = parallel extent, one panel
    per reduced-dim set, f32 and bf16 apart) of bench/sweep.py."""
    groups = {}
    for r in rows:
        parts = r["workload"].split("-")
        if len(parts) == 4 and parts[0] == "sw":
            shape = parts[3].split("x")
            groups.setdefault("%s %s (32 MiB input)" % (parts[1], parts[2]),
                              ("row length", []))[1].append(
                (int(shape[1]), r))
        elif len(parts) == 4 and parts[0] == "rs":
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            from sweep import red_parse
            p = red_parse(r["workload"])
            if not p:
                continue
            kind, dtype, shape, dims = p
            par = 1
            for i, v in enumerate(shape):
                if i not in dims:
                    par *= v
            groups.setdefault("sum over %s, %s in" % (kind, dtype),
                              ("parallel extent", []))[1].append((par, r))
    return groups


def plot_sweep(rows, path):
    """% of copy against row length (row sweep) or parallel extent
    (reduction sweep): one panel per op or reduced-dim set and dtype, memopt
    optimized and the peers."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = sweep_points(rows)
    ncol = min(4, len(groups))
    nrow = (len(groups) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(5 * ncol, 4 * nrow),
                             squeeze=False)
    flat = [a for row in axes for a in row]
    for a in flat[len(groups):]:
        a.axis("off")
    for ax, (title, (xlabel, pts)) in zip(flat, sorted(groups.items())):
        pts.sort(key=lambda p: p[0])
        def frac(r, key):
            # CUDA-graph replay where measured (kernels of ~20 us: an event
            # pair around one call measures the launch), else events; JAX
            # back to back.
            copy = r.get("memopt_copy_gbps")
            ms = get(r, key, "graph_ms")
            if ms and copy and r.get("min_bytes"):
                return r["min_bytes"] / (ms * 1e-3) / 1e9 / copy
            if key == "jax":
                return get(r, key, "pipelined_fraction_of_copy")
            return get(r, key, "fraction_of_copy")
        for label, key, color in (("memopt", "optimized", "#1f77b4"),
                                  ("memopt baseline", "baseline", "#9e9e9e"),
                                  ("torch.compile", "compile", "#2ca02c"),
                                  ("JAX (back to back)", "jax", "#9467bd"),
                                  ("eager", "eager", "#ff7f0e")):
            xs = [c for c, r in pts if frac(r, key) is not None]
            ys = [100 * frac(r, key) for c, r in pts
                  if frac(r, key) is not None]
            if xs:
                ax.plot(xs, ys, marker="o", label=label, color=color)
        ax.set_xscale("log", base=2)
        ax.set_ylim(0, 110)
        ax.axhline(80, color="#999", lw=0.8, ls="--")
        ax.set_title(title + "; graph replay")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("% of copy bandwidth")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot(rows, results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = [("memopt baseline", "baseline", "#9e9e9e"),
              ("memopt optimized", "optimized", "#1f77b4"),
              ("PyTorch eager", "eager", "#ff7f0e"),
              ("torch.compile", "compile", "#2ca02c"),
              ("JAX jit (wall clock)", "jax", "#9467bd")]
    from matplotlib.patches import Patch

    n = len(rows)
    fig, ax = plt.subplots(figsize=(max(8, 1.3 * n + 3), 5))
    width = 0.16
    half = len(series) / 2
    for i, (label, key, color) in enumerate(series):
        for j, row in enumerate(rows):
            v = get(row, key, "fraction_of_copy")
            if v is None:
                continue
            x = j + (i + 0.5 - half) * width
            ax.bar([x], [v], width, color=color)
            ax.text(x, v + 0.01, "%.0f" % (100 * v), ha="center",
                    va="bottom", fontsize=6)
    for j, row in enumerate(rows):
        t = row.get("target_fraction")
        if t:
            ax.hlines(t, j - half * width, j + half * width, colors="red",
                      linestyles="dashed", linewidth=1)
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_xticks(range(n))
    ax.set_xticklabels([r["workload"] for r in rows])
    ax.set_ylabel("fraction of measured D2D copy bandwidth")
    ax.set_ylim(0, 1.15)
    ax.axhline(1.0, color="black", linewidth=0.5)
    copies = [r["memopt_copy_gbps"] for r in rows if r["memopt_copy_gbps"]]
    sub = "copy %.0f GB/s (memopt-run median)" % (
        sorted(copies)[len(copies) // 2]) if copies else "no copy bandwidth"
    if results.get("peers_copy_gbps"):
        sub += ", %.0f GB/s (torch)" % results["peers_copy_gbps"]
    ax.set_title("%s: effective bandwidth over minimum bytes\n%s; dashed: "
                 "target; %s, commit %s" % (results.get("gpu") or "GPU", sub,
                                            results["date"][:10],
                                            results["git_commit"][:12]),
                 fontsize=9)
    handles = [Patch(color=color, label=label) for label, _, color in series]
    ax.legend(handles=handles, fontsize=8, loc="upper right",
              ncol=len(series))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def table(rows, results):
    lines = []
    lines.append("memopt GPU run: %s, driver %s, commit %s, %s" % (
        results.get("gpu") or "?", results.get("driver") or "?",
        results["git_commit"], results["date"][:19]))
    lines.append("% = fraction of D2D copy bandwidth over minimum bytes; "
                 "x = model bytes baseline/optimized; "
                 "vs-compile = compile ms / optimized ms; jax: wall clock "
                 "per call (an upper bound), jaxp: calls back to back")
    row_fmt = "%-12s %-6s %-9s" + " %6s" * 7 + " %9s" * 3 + " %10s"
    hdr = row_fmt % (
        "workload", "verify", "memcheck", "bytes", "base%", "opt%", "eager%",
        "comp%", "jax%", "jaxp%", "opt ms", "comp ms", "jax ms",
        "vs-compile")
    lines.append(hdr)
    lines.append("-" * len(hdr))
    for r in rows:
        v = r["verification_passed"]
        verify = "PASS" if v is True else "FAIL" if v is False else \
            ("ERR%s" % (r.get("memopt_exit_code") or "")
             if r["memopt_status"] == "error" else "-")
        s = r.get("sanitizer") or {}
        mc = s.get("status", "-")

        def pct(key, field="fraction_of_copy"):
            x = get(r, key, field)
            return None if x is None else 100 * x
        lines.append(row_fmt % (
            r["workload"][:12], verify, mc[:9],
            fmt(r["bytes_reduction_model"], ".2f", "-") + ("x" if
                                                         r["bytes_reduction_model"] else ""),
            fmt(pct("baseline"), ".1f"), fmt(pct("optimized"), ".1f"),
            fmt(pct("eager"), ".1f"), fmt(pct("compile"), ".1f"),
            fmt(pct("jax"), ".1f"),
            fmt(pct("jax", "pipelined_fraction_of_copy"), ".1f"),
            fmt(get(r, "optimized", "median_ms"), ".4f"),
            fmt(get(r, "compile", "median_ms"), ".4f"),
            fmt(get(r, "jax", "median_ms"), ".4f"),
            fmt(r["speedup_vs_compile"], ".2f") + ("x" if r["speedup_vs_compile"] else "")))
        for note in r.get("notes", []):
            lines.append("    note: %s" % note)
        if r["memopt_status"] == "error":
            lines.append("    memopt-run error: %s" %
                         (r.get("memopt_error") or "").splitlines()[0][:150])
    # Latency: per-call times under CUDA-graph replay (memopt-run's and the
    # torch peers' graphs of many calls), where the kernels are short
    # enough for launch latency to matter.
    short = [r for r in rows
             if (get(r, "optimized", "median_ms") or 1.0) < 0.05]
    if short:
        lines.append("")
        lines.append("graph replay, us per call (kernels under 50 us; "
                     "opt/comp = optimized / torch.compile):")
        gfmt = "%-12s" + " %9s" * 5
        lines.append(gfmt % ("workload", "base", "opt", "eager", "compile",
                             "opt/comp"))
        for r in short:
            def us(key):
                x = get(r, key, "graph_ms")
                return None if x is None else 1e3 * x
            o, c = us("optimized"), us("compile")
            lines.append(gfmt % (
                r["workload"][:12], fmt(us("baseline"), ".2f"), fmt(o, ".2f"),
                fmt(us("eager"), ".2f"), fmt(c, ".2f"),
                fmt(o / c if o and c else None, ".2f")))
    return lines


if __name__ == "__main__":
    sys.exit(main())
