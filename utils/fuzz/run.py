#!/usr/bin/env python3
"""Random-program tester of memopt.

For each seed in [--seed, --seed + --count) generate a program with gen.py and check:
  memopt-compile P --pipeline=reference|baseline-host|optimized-host|baseline|optimized
  memopt-cpu-diff ref.json base.json ; memopt-cpu-diff ref.json opt.json
Classification of each program (worst wins):
  CRASH      a tool died on a signal, printed a crash banner / stack dump, exited
             non-zero without an "error:" diagnostic (or without its outputs), gave a
             diagnostic without a source location, or failed a verifier on an op of a
             dialect that contract input never contains (invalid IR made by a pass)
  TIMEOUT    the program's checks ran past --timeout seconds
  MISMATCH   memopt-cpu-diff reported FAIL (exit 1) or a manifest error (exit 2)
  diagnostic a pipeline refused the program with an error message (allowed)
  ok         everything compiled and agreed
Exit status is non-zero iff there were crashes, mismatches or timeouts.

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

PIPELINES = [("reference", "ref"), ("baseline-host", "base"),
             ("optimized-host", "opt"), ("baseline", "gb"), ("optimized", "go")]
CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump", "Assertion",
                 "Segmentation fault", "UNREACHABLE", "LLVM ERROR", "terminate called",
                 "Aborted", "core dumped")
RANK = {"ok": 0, "diagnostic": 1, "MISMATCH": 2, "TIMEOUT": 3, "CRASH": 4}


class Timeout(Exception):
    pass


def run_tool(cmd, deadline):
    left = deadline - time.time()
    if left <= 0:
        raise Timeout(" ".join(cmd))
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=left, start_new_session=True)
    except subprocess.TimeoutExpired:
        raise Timeout(" ".join(cmd))
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def crash_text(rc, out, err):
    """A crash description, or None."""
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = "signal %d" % -rc
        return "killed by %s" % name
    if rc >= 128:
        return "exit %d (signal?)" % rc
    for m in CRASH_MARKERS:
        if m in err or m in out:
            return "crash banner: " + first_line_with(err + out, m)
    return None


def first_line_with(text, needle):
    for l in text.splitlines():
        if needle in l:
            return l.strip()
    return ""


# A verifier failure on an op of a dialect that never appears in contract input is
# invalid IR produced by a pass, not a diagnostic about the input.
INTERNAL_DIALECTS = ("memref", "gpu", "llvm", "nvvm", "scf", "vector", "affine",
                     "bufferization", "cf", "nvgpu", "index", "ptr")


def is_internal(msg):
    m = msg.split("error:", 1)[-1].strip()
    for d in INTERNAL_DIALECTS:
        if m.startswith("'%s." % d):
            return True
    return False


def first_error(err):
    for l in err.splitlines():
        if "error:" in l:
            return l.strip()
    return err.strip().splitlines()[0] if err.strip() else ""


def check_program(seed, opts):
    """Returns (status, [details], program_text)."""
    text = gen.generate(seed, opts.max_elems, opts.max_ops, opts.avoid, opts.ops)
    half_precision = "bf16" in text or "f16" in text
    work = tempfile.mkdtemp(prefix="memopt-fuzz-%d-" % seed, dir=opts.tmp)
    status = "ok"
    details = []

    def note(st, msg):
        nonlocal status
        if RANK[st] > RANK[status]:
            status = st
        details.append("%s: %s" % (st, msg))

    def step(cmd, label, deadline):
        """Runs one tool; notes a crash (returns None) or a timeout (raises
        Timeout, which ends the program's checks)."""
        try:
            rc, out, err = run_tool(cmd, deadline)
        except Timeout:
            note("TIMEOUT", label)
            raise
        c = crash_text(rc, out, err)
        if c:
            note("CRASH", "%s: %s" % (label, c))
            return None
        return rc, out, err

    try:
        src = os.path.join(work, "p.mlir")
        with open(src, "w") as f:
            f.write(text)
        deadline = time.time() + opts.timeout
        compiled = {}
        for pipe, short in PIPELINES:
            prefix = os.path.join(work, "T." + short)
            cmd = [os.path.join(opts.bin, "memopt-compile"), src,
                   "--pipeline=" + pipe, "-o", prefix]
            if pipe.startswith("optimized"):
                cmd += opts.compile_flag
            result = step(cmd, "memopt-compile --pipeline=%s" % pipe, deadline)
            if result is None:
                continue
            rc, out, err = result
            if rc != 0:
                e = first_error(err)
                if "error:" not in err:
                    note("CRASH", "memopt-compile --pipeline=%s: exit %d without a "
                         "diagnostic: %s" % (pipe, rc, e))
                elif e.startswith("<unknown>:0: error:") or e.startswith("error:"):
                    note("CRASH", "memopt-compile --pipeline=%s: diagnostic without a "
                         "source location: %s" % (pipe, e))
                elif is_internal(e):
                    note("CRASH", "memopt-compile --pipeline=%s: internal verifier error "
                         "(invalid IR produced by a pass): %s" % (pipe, e))
                else:
                    note("diagnostic", "--pipeline=%s: %s" % (pipe, e))
                continue
            if not os.path.exists(prefix + ".json"):
                note("CRASH", "memopt-compile --pipeline=%s: exit 0 but no %s.json"
                     % (pipe, prefix))
                continue
            compiled[short] = prefix + ".json"
        if "ref" in compiled:
            for short in ("base", "opt"):
                if short not in compiled:
                    continue
                cmd = [os.path.join(opts.bin, "memopt-cpu-diff"), compiled["ref"],
                       compiled[short], "--seed", str(opts.input_seed + seed)]
                # Outputs computed through f16/bf16 intermediates inherit their
                # rounding (fused kernels combine 16-bit partials in f32):
                # judge every float output with the bf16 tolerance then.
                if half_precision:
                    cmd += ["--atol", "2e-2", "--rtol", "2e-2"]
                result = step(cmd, "memopt-cpu-diff ref vs %s" % short, deadline)
                if result is None:
                    continue
                rc, out, err = result
                if rc == 1:
                    lines = [l.strip() for l in out.splitlines()
                             if " 0 mismatches" not in l and l.strip() != "FAIL"]
                    note("MISMATCH", "ref vs %s: %s" % (short, " | ".join(lines[:4])))
                elif rc != 0:
                    note("MISMATCH", "ref vs %s: memopt-cpu-diff exit %d: %s"
                         % (short, rc, (err.strip() or out.strip()).splitlines()[-1:]))
        return status, details, text
    except Timeout:
        return status, details, text
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    default_bin = os.path.normpath(os.path.join(here, "..", "..", "build", "bin"))
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1, help="first program seed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--bin", default=default_bin,
                    help="directory with memopt-compile and memopt-cpu-diff")
    ap.add_argument("--keep-failures", default=None, metavar="DIR",
                    help="save crashing/mismatching/timing-out programs (and logs) here")
    ap.add_argument("--keep-diagnostics", action="store_true",
                    help="with --keep-failures, also save refused programs")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per program")
    ap.add_argument("--max-elems", type=int, default=1 << 18,
                    help="largest tensor in a program (elements)")
    ap.add_argument("--max-ops", type=int, default=None,
                    help="ops per program (default: random 2..9)")
    ap.add_argument("--input-seed", type=int, default=0,
                    help="offset added to the program seed for memopt-cpu-diff --seed")
    ap.add_argument("--tmp", default=None, help="parent of the temp dirs")
    ap.add_argument("--avoid", default="",
                    help="comma-separated generator features to leave out while a bug "
                         "is open: " + ", ".join(sorted(gen.AVOIDABLE)))
    ap.add_argument("--compile-flag", action="append", default=[], metavar="FLAG",
                    help="memopt-compile flag for the optimized pipelines (repeatable): "
                         "a small target, e.g. --multiprocessors=2 "
                         "--row-register-elements=4, makes test-sized programs take "
                         "the forms of large ones (clusters, streamed rows)")
    ap.add_argument("--ops", default="",
                    help="comma-separated generator op kinds to draw from (all when "
                         "empty), e.g. general_reduction")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every program")
    opts = ap.parse_args()
    opts.bin = os.path.abspath(opts.bin)
    opts.avoid = [x for x in opts.avoid.split(",") if x]
    opts.ops = [x for x in opts.ops.split(",") if x]
    try:
        gen.Gen(0, avoid=opts.avoid, ops=opts.ops)
    except ValueError as e:
        sys.stderr.write("run.py: %s\n" % e)
        return 2
    for t in ("memopt-compile", "memopt-cpu-diff"):
        if not os.access(os.path.join(opts.bin, t), os.X_OK):
            sys.stderr.write("run.py: %s not found in %s\n" % (t, opts.bin))
            return 2
    if opts.keep_failures:
        os.makedirs(opts.keep_failures, exist_ok=True)

    counts = {k: 0 for k in RANK}
    diag_lines = {}
    t0 = time.time()
    seeds = range(opts.seed, opts.seed + opts.count)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as ex:
        futs = {ex.submit(check_program, s, opts): s for s in seeds}
        results = {}
        for f in concurrent.futures.as_completed(futs):
            s = futs[f]
            try:
                results[s] = f.result()
            except Exception as e:  # a bug in the fuzzer itself
                results[s] = ("CRASH", ["fuzzer exception: %r" % e], "")
            st, det, text = results[s]
            if st not in ("ok",) or opts.verbose:
                for d in det if det else ["ok"]:
                    print("seed %d: %s" % (s, d))
                sys.stdout.flush()
            counts[st] += 1
            for d in det:
                if d.startswith("diagnostic: "):
                    key = d[len("diagnostic: "):]
                    # group by message without the location prefix
                    k2 = key.split("error:", 1)[-1].strip()
                    diag_lines.setdefault(k2, []).append(s)
            bad = RANK[st] >= RANK["MISMATCH"] or (opts.keep_diagnostics and st != "ok")
            if opts.keep_failures and bad and text:
                base = os.path.join(opts.keep_failures, "seed-%d-%s" % (s, st.lower()))
                with open(base + ".mlir", "w") as f2:
                    f2.write(text)
                with open(base + ".log", "w") as f2:
                    f2.write("\n".join(det) + "\n")
    dt = time.time() - t0
    if diag_lines:
        print("diagnostics by message:")
        for k, v in sorted(diag_lines.items(), key=lambda kv: -len(kv[1])):
            print("  %4d  %s   (seeds %s%s)" % (len(v), k[:160],
                                              ", ".join(str(x) for x in sorted(v)[:8]),
                                              ", ..." if len(v) > 8 else ""))
    bad_seeds = sorted(s for s, r in results.items() if RANK[r[0]] >= RANK["MISMATCH"])
    if bad_seeds:
        print("failing seeds: %s" % " ".join(str(s) for s in bad_seeds))
    print("time: %.1f s" % dt)
    print("fuzz: %d programs, %d ok, %d diagnostics, %d crashes, %d mismatches, "
          "%d timeouts" % (opts.count, counts["ok"], counts["diagnostic"], counts["CRASH"],
                           counts["MISMATCH"], counts["TIMEOUT"]))
    return 1 if counts["CRASH"] + counts["MISMATCH"] + counts["TIMEOUT"] else 0


if __name__ == "__main__":
    sys.exit(main())
