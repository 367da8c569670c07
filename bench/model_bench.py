#!/usr/bin/python3
"""Whole-model speed: AttnViz against the float32 torch reference, same run, interleaved.

    /usr/bin/python3 bench/model_bench.py [--attnviz build/release/app/attnviz] [--rounds 3]
        [--models DIR] [--case bert_base:128:1 --case bert_base:128:2 --case qwen2_0_5b:128:2 ...]

The benchmark checkpoints (random weights, BERT-base and Qwen2.5-0.5B sized) are written by
tests/golden/models/make_models.py --bench into --models (default build/bench-models) when
missing.  For each case (model:tokens:threads) every round runs `attnviz bench --model` and
bench/compare_models.py one after the other, so both see the same machine; the table gives the
median of the rounds' medians, AttnViz's GFLOP/s against the sgemm peak it measured in the
same process, the open time (headers), the time from opening until the first layer's
attention is out, and the first pass (weights read from the files).
A benchmark, never a test: the machines are shared and noisy, so quote ratios, not times.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CASES = ["bert_base:128:1", "bert_base:128:2", "qwen2_0_5b:128:2"]


def run_json(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attnviz", default=os.path.join(ROOT, "build", "release", "app", "attnviz"))
    ap.add_argument("--models", default=os.path.join(ROOT, "build", "bench-models"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=5, help="forward passes per measurement")
    ap.add_argument("--case", action="append", help="model:tokens:threads (repeatable)")
    args = ap.parse_args()
    cases = args.case or DEFAULT_CASES

    if not all(os.path.isdir(os.path.join(args.models, c.split(":")[0])) for c in cases):
        subprocess.run([sys.executable, os.path.join(ROOT, "tests", "golden", "models", "make_models.py"),
                        "--bench", args.models], check=True)

    rows = []
    for case in cases:
        name, tokens, threads = case.split(":")
        folder = os.path.join(args.models, name)
        ours, torch_ms, peaks, last = [], [], [], None
        for _ in range(args.rounds):
            last = run_json([args.attnviz, "bench", "--model", folder, "--tokens", tokens,
                             "--threads", threads, "--repeats", str(args.runs)])
            ours.append(last["median_ms"])
            peaks.append(last["sgemm_peak_gflops"])
            t = run_json([sys.executable, os.path.join(ROOT, "bench", "compare_models.py"), folder,
                          "--tokens", tokens, "--threads", threads, "--runs", str(args.runs)])
            torch_ms.append(t["median_ms"])
        a, b = statistics.median(ours), statistics.median(torch_ms)
        # The pass's floating-point work is fixed: GFLOP/s of the median time, against the
        # median of the peaks each round measured (per thread).
        gflop = last["gflops"] * last["median_ms"] / 1e3
        gflops, peak = gflop / (a / 1e3), statistics.median(peaks)
        rows.append((name, tokens, threads, a, b, b / a, gflops, peak,
                     gflops / (peak * int(threads)), last["open_ms"], last["first_layer_ms"],
                     last["first_pass_ms"]))

    head = ("model", "tokens", "threads", "attnviz ms", "torch ms", "speed-up", "GFLOP/s",
            "sgemm peak", "of peak", "open ms", "open to first layer ms", "first pass ms")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.1f} | {r[4]:.1f} | {r[5]:.2f}x | {r[6]:.1f} | "
              f"{r[7]:.1f} | {r[8]:.0%} | {r[9]:.1f} | {r[10]:.0f} | {r[11]:.0f} |")


if __name__ == "__main__":
    main()
