#!/usr/bin/env python3
"""Joins Nsight Compute CSVs (one per workload, kernels in launch order:
baseline schedule, then optimized schedule) with the manifests' modelled
bytes; writes ncu.json and ncu.txt (predicted vs measured DRAM bytes, and
measured shared-memory bank conflicts).

"pred L2" is the model's bytes with the writes of a kernel whose written
bytes fit in L2 (L2_BYTES, 50 MiB on an H100/H200) left out: L2 is
write-back, so such writes are still in L2 when the kernel ends and
Nsight Compute's per-kernel DRAM counters never see them (bigger kernels
leave at most ~27 MB behind, under 3% of what they move at the sizes
compared here)."""
import csv
import json
import pathlib
import sys

L2_BYTES = 50 * 1024 * 1024


def read_ncu(path):
    rows = {}
    order = []
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        key = r["ID"]
        if key not in rows:
            rows[key] = {"kernel": r["Kernel Name"]}
            order.append(key)
        try:
            rows[key][r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
        except ValueError:
            rows[key][r["Metric Name"]] = None
    return [rows[k] for k in order]


def fmt(v):
    return f"{'-':>10s}" if v is None or v < 0 else f"{v:10.0f}"


def per(num, den):
    return f"{num / den:10.2f}" if num and den else f"{'-':>10s}"


def main():
    art, scratch, out = (pathlib.Path(a) for a in sys.argv[1:4])
    out.mkdir(parents=True, exist_ok=True)
    table = []
    for csvf in sorted(scratch.glob("*.csv")):
        w = csvf.stem
        measured = read_ncu(csvf)
        expected = []
        for p in ("baseline", "optimized"):
            m = json.load(open(art / f"{w}.{p}.json"))
            for s in m["schedule"]:
                if s["kind"] == "launch":
                    wr = s["bytes_written"]
                    # The manifest's own figure when it has one.
                    in_kernel = s.get("dram_bytes_in_kernel",
                                      s["bytes_read"] + (wr if wr > L2_BYTES else 0))
                    expected.append((p, s["kernel"], s["bytes_read"] + wr, in_kernel,
                                     s.get("bank_conflicts_ld"), s.get("bank_conflicts_st"),
                                     s["bytes_read"]))
        if len(measured) != len(expected):
            table.append({"workload": w, "error": f"{len(measured)} kernels profiled, "
                          f"{len(expected)} expected"})
            continue
        for (p, k, model, modelL2, pld, pst, modelRead), meas in zip(expected, measured):
            dram = (meas.get("dram__bytes_read.sum") or 0) + (meas.get("dram__bytes_write.sum") or 0)
            table.append({
                "workload": w, "pipeline": p, "kernel": k, "ncu_kernel": meas["kernel"],
                "model_bytes": model, "dram_bytes": dram,
                # Reads alone: the written bytes a kernel leaves dirty in
                # L2 do not blur them.
                "model_bytes_read": modelRead,
                "dram_bytes_read": meas.get("dram__bytes_read.sum"),
                "ratio": (model / dram) if dram else None,
                "model_bytes_l2": modelL2,
                "ratio_l2": (modelL2 / dram) if dram else None,
                "bank_conflicts_ld": meas.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
                "bank_conflicts_st": meas.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
                "predicted_conflicts_ld": pld,
                "predicted_conflicts_st": pst,
                "shared_wavefronts_ld": meas.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
                "shared_wavefronts_st": meas.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
                "shared_inst_ld": meas.get("smsp__sass_inst_executed_op_shared_ld.sum"),
                "shared_inst_st": meas.get("smsp__sass_inst_executed_op_shared_st.sum"),
            })
            # Address-only conflicts from the instruction-level counters:
            # wavefronts minus the ideal wavefronts of the same instructions.
            for op in ("ld", "st"):
                sass = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_" + op
                wf, ideal = meas.get(sass + ".sum"), meas.get(sass + "_ideal.sum")
                direct = meas.get(
                    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum")
                table[-1]["sass_wavefronts_" + op] = wf
                table[-1]["sass_ideal_wavefronts_" + op] = ideal
                table[-1]["sass_conflicts_" + op] = (
                    direct if direct is not None
                    else (wf - ideal if wf is not None and ideal is not None else None))
    json.dump(table, open(out / "ncu.json", "w"), indent=1)
    with open(out / "ncu.txt", "w") as f:
        f.write("predicted (model) vs measured (ncu dram__bytes_read+write) DRAM bytes; "
                "bank conflicts ld/st: predicted (lane model) / measured (l1tex counters); "
                "shared wavefronts per shared instruction (ld, st) measured; sass ld/st: "
                "address-only conflicts from the instruction-level counters (wavefronts "
                "minus ideal wavefronts), '-' when this ncu lacks them\n")
        f.write(f"{'workload':10s} {'pipeline':9s} {'kernel':22s} {'model MB':>10s} "
                f"{'ncu MB':>10s} {'model/ncu':>9s} {'pred L2 MB':>10s} {'/ncu':>6s} {'pred ld':>10s} {'bank ld':>10s} "
                f"{'pred st':>10s} {'bank st':>10s} {'wf/inst ld':>10s} {'wf/inst st':>10s} "
                f"{'sass ld':>10s} {'sass st':>10s}\n")
        for r in table:
            if "error" in r:
                f.write(f"{r['workload']:10s} ERROR {r['error']}\n")
                continue
            ratio = f"{r['ratio']:.3f}" if r["ratio"] else "-"
            ratio_l2 = f"{r['ratio_l2']:.3f}" if r["ratio_l2"] else "-"
            f.write(f"{r['workload']:10s} {r['pipeline']:9s} {r['kernel'][:22]:22s} "
                    f"{r['model_bytes']/1e6:10.1f} {r['dram_bytes']/1e6:10.1f} {ratio:>9s} "
                    f"{r['model_bytes_l2']/1e6:10.3f} {ratio_l2:>6s} "
                    f"{fmt(r['predicted_conflicts_ld'])} {r['bank_conflicts_ld'] or 0:10.0f} "
                    f"{fmt(r['predicted_conflicts_st'])} {r['bank_conflicts_st'] or 0:10.0f} "
                    f"{per(r['shared_wavefronts_ld'], r['shared_inst_ld'])} "
                    f"{per(r['shared_wavefronts_st'], r['shared_inst_st'])} "
                    f"{fmt(r['sass_conflicts_ld'])} {fmt(r['sass_conflicts_st'])}\n")
        f.write("\nDRAM reads alone (model bytes_read vs ncu dram__bytes_read):\n")
        for r in table:
            if "error" in r or not r.get("dram_bytes_read"):
                continue
            f.write(f"{r['workload']:10s} {r['pipeline']:9s} {r['kernel'][:22]:22s} "
                    f"{r['model_bytes_read']/1e6:10.1f} {r['dram_bytes_read']/1e6:10.1f} "
                    f"{r['model_bytes_read']/r['dram_bytes_read']:9.3f}\n")
    print(open(out / "ncu.txt").read())


if __name__ == "__main__":
    main()
