#!/usr/bin/python3
"""AttnViz against torch.nn.MultiheadAttention, in the same run, one thread each.

    /usr/bin/python3 bench/compare_torch.py [--attnviz build/release/app/attnviz] [--rounds 5]

One table: for each shape, AttnViz, PyTorch, and the machine's best single-thread sgemm rate
(bench/gemm_bench, every backend, measured in the same rounds), so that the engine's GFLOP/s
read as a fraction of what the CPU can do: "of peak" on wall-clock time, "(cpu)" on the
process's CPU time, the clock gemm_bench times the peak with (the fair ratio when other work
shares the cores and stretches wall time).

For each (tokens, embed_dim, heads) it alternates rounds of `attnviz bench` and of PyTorch
(each round at least --min-ms of passes, so that a short layer is timed warm on both sides)
(eval, inference mode, need_weights=True, average_attn_weights=False, batch_first) so both see
the same machine load, takes the median of each side's per-round medians and prints the ratio.
"floor" is the least time a float32 engine could take for the same work on this core, from
the same rounds: the layer's two projections ([L, E] x [E, 3E] and [L, E] x [E, E]) at the best
library's rate for those exact shapes (gemm_bench --shape), QK^T and P.V at 100% of the sgemm
peak, and the softmax of every row at the rate this build's SIMD softmax reaches alone on a
cache-sized block (`attnviz bench --softmax`; the exp runs on the same FMA ports as the
products, so it cannot hide behind them).  Writing the weights is left out, as if it overlapped
perfectly.  "bound" is the layer's FLOPs over that time, as a fraction of the peak: no
float32 implementation reaches more here; "of it" is the floor over AttnViz's time.  "libs'
floor" counts each head's QK^T and P.V the way the floor counts the projections, at the best
library's rate for their own shapes (gemm_bench --shape): what the libraries reach on the
products attention is made of.  Each round also times AttnViz with need_weights=False
(`attnviz bench --no-weights`): the difference is what writing the per-head weights and their
mean costs, which the floor counts as free; "floor + write" adds it.  bench/write_bench times
the least that write can cost on this core (the same floats, non-temporal stores, nothing
else), and "most of the bound" is the floor over the floor plus that: the highest fraction of
the bound any float32 engine that keeps the weights can reach here.
It also runs `attnviz attend` on the module's own weights and inputs and prints the largest
difference of the per-head weights and the output from PyTorch's (parity at bench sizes).
Needs Debian's python3-torch; nothing of it is needed to build or test AttnViz.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

# One thread each means torch's BLAS too: torch.set_num_threads() sets ATen's OpenMP team, but
# Debian's torch does its products in whatever libblas.so.3 points to, and OpenBLAS's pthread
# build (installed for the engine) then runs on every core, whatever torch was told.  Its thread
# count is read once, when the library loads: before `import torch`.  (The attnviz subprocess
# inherits it too, so OpenBLAS's idle worker does not spin beside the engine's first runs.)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import safetensors_lite  # noqa: E402

SHAPES = [(512, 768, 12), (128, 256, 8), (2048, 512, 8)]


def torch_median_ms(mha, x, repeats):
    """(wall, cpu) medians in ms; CPU time is what a busy, shared machine distorts least."""
    with torch.inference_mode():
        mha(x, x, x, need_weights=True, average_attn_weights=False)
        wall, cpu = [], []
        for _ in range(repeats):
            c, t = time.process_time(), time.perf_counter()
            mha(x, x, x, need_weights=True, average_attn_weights=False)
            wall.append((time.perf_counter() - t) * 1e3)
            cpu.append((time.process_time() - c) * 1e3)
    return statistics.median(wall), statistics.median(cpu)


def ours_median_ms(exe, L, E, H, repeats, weights=True):
    out = subprocess.run([exe, "bench", "--tokens", str(L), "--embed-dim", str(E),
                          "--num-heads", str(H), "--threads", "1", "--repeats", str(repeats)] +
                         ([] if weights else ["--no-weights"]),
                         check=True, capture_output=True, text=True).stdout
    row = json.loads(out.strip().splitlines()[-1])
    return row["median_ms"], row["cpu_ms"], row.get("gflops", 0.0), row.get("gemm", "?")


def row_rates(line):
    """The GFLOP/s cells of one row of gemm_bench's table, left to right: the numbers after
    the shape's name ("-" for a library this machine lacks: None)."""
    cells = []
    for v in reversed(line.split()):
        if v == "-":
            cells.insert(0, None)
            continue
        try:
            cells.insert(0, float(v))
        except ValueError:
            break
    return cells


def sgemm_peak(gemm_bench, repeats):
    """The machine's best single-thread sgemm rate, GFLOP/s, and which library gave it: the
    largest cell of gemm_bench's table (every backend it knows, at the engine's shapes; the
    one-row product left out), measured now, in this run."""
    out = subprocess.run([gemm_bench, "--repeats", str(repeats), "--no-openblas-cores"], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    names = {}
    for line in out:
        if line.startswith("["):
            key, _, name = line.partition("] ")
            names[int(key[1:]) - 1] = name
    best, who = 0.0, "?"
    for line in out[2:]:
        if line.startswith("[") or line.startswith("1x"):
            continue
        for i, v in enumerate(row_rates(line)):
            if v is not None and v > best:
                best, who = v, names.get(i, "?")
    return best, who


def best_rates(gemm_bench, shapes):
    """The best single-thread rate (GFLOP/s, any library) for each (m, k, n[, "n"]) product, B
    stored [n, k] as nn.Linear keeps its weight (or [k, n] with the "n"): one interleaved round
    of gemm_bench --shape."""
    cmd = [gemm_bench, "--repeats", "1", "--no-openblas-cores"]
    for m, k, n, *order in shapes:
        cmd += ["--shape", f"{m}x{k}x{n}{''.join(order)}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    return [max(v for v in row_rates(line) if v is not None) for line in out[2:2 + len(shapes)]]


# The engine's attention block (layers/attention_core.cpp, kBlockFloats and kMinBlockRows):
# about this many floats of weights per head, and at least this many rows.
BLOCK_FLOATS = 96 * 1024
MIN_BLOCK_ROWS = 48


def softmax_ms(exe, L, H):
    """Milliseconds for the softmax of H * L rows of L keys, from one cache-sized block of rows
    timed alone (as the layer runs it, block by block, in L2)."""
    rows = max(MIN_BLOCK_ROWS, BLOCK_FLOATS // L)
    out = subprocess.run([exe, "bench", "--softmax", "--rows", str(rows), "--cols", str(L),
                          "--threads", "1", "--repeats", "199"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])["median_ms"] * H * L / rows


def least_write_ms(write_bench, L, H):
    """Milliseconds for one core to write the layer's (H + 1) L^2 floats of weights with the
    engine's non-temporal row stores and nothing else (bench/write_bench): the least the
    weights' write can cost when it does not overlap the rest for free."""
    out = subprocess.run([write_bench, "--floats", str((H + 1) * L * L), "--cols", str(L),
                          "--repeats", "7"], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])["median_ms"]


def parity(exe, mha, x, H):
    with tempfile.TemporaryDirectory() as d:
        w = os.path.join(d, "w.safetensors")
        safetensors_lite.save_file(mha.state_dict(), w)
        np.save(os.path.join(d, "q.npy"), x.numpy())
        subprocess.run([exe, "attend", "--weights", w, "--query", os.path.join(d, "q.npy"),
                        "--num-heads", str(H), "--out-weights", os.path.join(d, "a.npy"),
                        "--out-output", os.path.join(d, "o.npy")], check=True)
        ours_w, ours_o = np.load(os.path.join(d, "a.npy")), np.load(os.path.join(d, "o.npy"))
    mha.train()  # the reference path (dropout is 0)
    with torch.no_grad():
        out, w = mha(x, x, x, need_weights=True, average_attn_weights=False)
    mha.eval()
    return float(np.abs(ours_w - w.numpy()).max()), float(np.abs(ours_o - out.numpy()).max())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--attnviz", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "..", "build", "release", "app", "attnviz"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--min-ms", type=float, default=250.0,
                    help="passes per round: at least this many ms of them (at most 1000 passes)")
    ap.add_argument("--gemm-bench", default=None,
                    help="gemm_bench beside --attnviz's build (default: <build>/bench/gemm_bench)")
    args = ap.parse_args()
    gemm_bench = args.gemm_bench or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(args.attnviz))), "bench", "gemm_bench")
    write_bench = os.path.join(os.path.dirname(gemm_bench), "write_bench")
    torch.set_num_threads(1)
    torch.manual_seed(0)
    rows = []
    for L, E, H in SHAPES:
        mha = torch.nn.MultiheadAttention(E, H, batch_first=True).eval()
        x = torch.randn(1, L, E)
        reps = max(2, args.repeats if L <= 512 else args.repeats // 2)
        # Each side's median over at least --min-ms of passes: 5 passes of a 0.6 ms layer, the
        # first ones of a fresh process, ran 6-15% slower than the steady state (0.69-0.75 ms
        # against 0.65 at 50 passes and more), while torch's module stays warm in this process
        # and the floor's parts are timed over hundreds of runs.
        probe = ours_median_ms(args.attnviz, L, E, H, reps)[0]
        reps = min(1000, max(reps, math.ceil(args.min_ms / max(probe, 1e-3))))
        ours, bare, theirs, peaks, floors, lib_floors, writes = [], [], [], [], [], [], []
        for _ in range(args.rounds):
            ours.append(ours_median_ms(args.attnviz, L, E, H, reps))
            bare.append(ours_median_ms(args.attnviz, L, E, H, reps, weights=False)[0])
            theirs.append(torch_median_ms(mha, x, reps))
            if os.path.exists(gemm_bench):  # the peak and the floor, interleaved with both
                peaks.append(sgemm_peak(gemm_bench, 1))
                d = E // H
                qkv, out, qk, pv = best_rates(gemm_bench, [(L, E, 3 * E), (L, E, E), (L, d, L),
                                                           (L, L, d, "n")])
                rest = (2 * L * E * 3 * E / qkv / 1e6 + 2 * L * E * E / out / 1e6 +
                        softmax_ms(args.attnviz, L, H))
                floors.append(rest + 4 * L * L * E / peaks[-1][0] / 1e6)
                # The same with each head's QK^T and P.V at the best library's rate for their
                # own shapes, as the projections are counted: what the libraries reach there.
                lib_floors.append(rest + H * (2 * L * L * d / qk + 2 * L * L * d / pv) / 1e6)
                if os.path.exists(write_bench):
                    writes.append(least_write_ms(write_bench, L, H))
        o, t = statistics.median(r[0] for r in ours), statistics.median(w for w, _ in theirs)
        oc, tc = statistics.median(r[1] for r in ours), statistics.median(c for _, c in theirs)
        gflops = statistics.median(r[2] for r in ours)
        peak = statistics.median(p for p, _ in peaks) if peaks else 0.0
        floor = statistics.median(floors) if floors else 0.0
        lib_floor = statistics.median(lib_floors) if lib_floors else 0.0
        # What keeping the weights costs AttnViz: the same layer with need_weights=False is
        # timed in the same rounds; the difference writes (H + 1) L^2 floats (each head's and
        # their mean), which the floor counts as free.
        o_bare = statistics.median(bare)
        write_ms = max(o - o_bare, 0.0)
        write_gbs = (H + 1) * L * L * 4 / write_ms / 1e6 if write_ms > 0 else None
        least_write = statistics.median(writes) if writes else None
        dw, do = parity(args.attnviz, mha, x, H)
        # torch's rate on the same work, and the most any engine could gain over it here: the
        # speed-up at 100% of the machine's sgemm peak.
        torch_gflops = gflops * o / t
        row = dict(tokens=L, embed_dim=E, num_heads=H, attnviz_ms=round(o, 3),
                   torch_ms=round(t, 3), speedup=round(t / o, 3), attnviz_cpu_ms=round(oc, 3),
                   torch_cpu_ms=round(tc, 3), speedup_cpu=round(tc / oc, 3),
                   attnviz_gflops=round(gflops, 1), sgemm_peak_gflops=round(peak, 1),
                   of_peak=round(gflops / peak, 3) if peak else None,
                   # The peak is timed in thread CPU time (gemm_bench): on a busy, shared
                   # machine the same clock for the layer is the fair ratio.
                   of_peak_cpu=round(gflops * o / oc / peak, 3) if peak else None,
                   floor_ms=round(floor, 3) if floor else None,
                   bound=round(gflops * o / floor / peak, 3) if floor else None,
                   of_bound=round(floor / o, 3) if floor else None,
                   lib_floor_ms=round(lib_floor, 3) if lib_floor else None,
                   of_lib_floor=round(lib_floor / o, 3) if lib_floor else None,
                   attnviz_no_weights_ms=round(o_bare, 3), weights_write_ms=round(write_ms, 3),
                   weights_write_gb_s=round(write_gbs, 1) if write_gbs else None,
                   floor_and_write_ms=round(floor + write_ms, 3) if floor else None,
                   least_write_ms=round(least_write, 3) if least_write else None,
                   # The most of the bound any float32 engine that writes the weights reaches:
                   # the floor over the floor plus the least write; and the same for one whose
                   # QK^T and P.V run at the libraries' best rates on their shapes.
                   most_of_bound=round(floor / (floor + least_write), 3)
                   if floor and least_write else None,
                   most_of_bound_libs=round(floor / (lib_floor + least_write), 3)
                   if floor and least_write else None,
                   torch_gflops=round(torch_gflops, 1),
                   speedup_ceiling=round(peak / torch_gflops, 2) if peak else None,
                   peak_by=peaks[0][1] if peaks else None, gemm=ours[0][3],
                   max_abs_diff_weights=dw, max_abs_diff_output=do, torch=torch.__version__)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print("\n tokens embed heads | wall: attnviz ms  torch ms  speedup | cpu: attnviz ms  torch ms"
          "  speedup | attnviz GFLOP/s  sgemm peak  of peak  (cpu)  floor ms  bound  of it"
          " | libs' floor ms  of it | torch GFLOP/s  ceiling |  max|dW|  max|dOut|")
    for r in rows:
        of_peak = f"{100 * r['of_peak']:6.0f}%" if r["of_peak"] else "      -"
        of_peak += f" {100 * r['of_peak_cpu']:5.0f}%" if r["of_peak_cpu"] else "      -"
        print(f"{r['tokens']:7d} {r['embed_dim']:5d} {r['num_heads']:5d} | {r['attnviz_ms']:16.2f} "
              f"{r['torch_ms']:9.2f} {r['speedup']:7.2f}x | {r['attnviz_cpu_ms']:15.2f} "
              f"{r['torch_cpu_ms']:9.2f} {r['speedup_cpu']:7.2f}x | {r['attnviz_gflops']:15.1f} "
              f"{r['sgemm_peak_gflops']:11.1f} {of_peak} {(r['floor_ms'] or 0):9.2f} "
              f"{100 * (r['bound'] or 0):5.0f}% {(r['of_bound'] or 0):5.2f} | "
              f"{(r['lib_floor_ms'] or 0):14.2f} {(r['of_lib_floor'] or 0):5.2f} | "
              f"{r['torch_gflops']:13.1f} "
              f"{(r['speedup_ceiling'] or 0):7.2f}x | {r['max_abs_diff_weights']:8.1e} "
              f"{r['max_abs_diff_output']:9.1e}")
    print("\n tokens embed heads | attnviz ms  no weights ms | weights' write ms  GB/s |"
          " least write ms | floor ms  of it | floor + write ms  of it | most of the bound:"
          " any  libs")
    for r in rows:
        if not r["floor_ms"]:
            continue
        fw = r["floor_and_write_ms"]
        print(f"{r['tokens']:7d} {r['embed_dim']:5d} {r['num_heads']:5d} | {r['attnviz_ms']:10.2f} "
              f"{r['attnviz_no_weights_ms']:14.2f} | {r['weights_write_ms']:17.2f} "
              f"{(r['weights_write_gb_s'] or 0):5.1f} | {(r['least_write_ms'] or 0):14.2f} | "
              f"{r['floor_ms']:8.2f} {r['of_bound']:5.2f} | {fw:16.2f} "
              f"{fw / r['attnviz_ms']:5.2f} | {(r['most_of_bound'] or 0):22.2f} "
              f"{(r['most_of_bound_libs'] or 0):5.2f}")
    if rows:
        print(f"\nengine products: {rows[0]['gemm']}; sgemm peak by: {rows[0]['peak_by']}; "
              f"one thread each; medians of {args.rounds} interleaved rounds")
        print("ceiling: the speed-up over torch at 100% of the sgemm peak (sgemm peak / torch "
              "GFLOP/s), the most any engine could reach on this machine")
        print("floor / bound: the projections at the best library's rate for their shapes, QK^T "
              "and P.V at the peak, the softmax at its own rate, the weights' write free: the "
              "least time and the highest fraction of the peak float32 allows here; of it: the "
              "floor over AttnViz's time")
        print("libs' floor: the same with each head's QK^T and P.V at the best library's rate "
              "for their own shapes (L x d x L and L x L x d), as the projections are counted")
        print("weights' write: AttnViz's time less its time with need_weights=False (the same "
              "rounds), for (heads + 1) x L^2 floats; floor + write: the floor with that write "
              "added instead of free")
        print("least write: the same floats written by one core and nothing else (write_bench); "
              "most of the bound: the floor over the floor plus the least write (any: the floor's "
              "own products; libs: QK^T and P.V at the libraries' best rates for their shapes), "
              "the highest fraction of the bound an engine that writes the weights can reach")


if __name__ == "__main__":
    main()
