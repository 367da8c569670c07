#!/usr/bin/python3
"""The statistics pass over a long text: `attnviz stats` on 8,192 tokens of a random BF16
checkpoint with Qwen2.5-0.5B's exact shapes (bench/big_checkpoint.py --shape qwen2.5-0.5b
writes it once, about 1 GB), then one head's full map recomputed from the residual stream the
pass keeps (--map).

    /usr/bin/python3 bench/stats_bench.py [--attnviz build/release/app/attnviz]
        [--model /tmp/attnviz-bench/qwen2.5-0.5b-bf16] [--tokens 8192] [--threads 2]
        [--runs 1] [--map 12.7]

Reports, as JSON lines: the sgemm peak (the engine's single-thread figure times --threads, as
`attnviz bench --model` measures it in the same run), then per run: wall time, peak RssAnon
(sampled every 20 ms), the pass's time and GFLOP/s against that peak on two counts, and the
head map's time:
  * "gflops", "fraction_of_peak": both attention products over the full L x L, the count of
    the issue's target (and of every figure before causal attention skipped masked keys);
  * "gflops_computed", "fraction_computed": the products a causal model needs, each query
    against the keys up to it (L (L + 1) / 2 pairs): what the engine computes, to within
    the rows of one block.
A benchmark, never a test.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from big_model_bench import (attention_flops, forward_flops, run_sampled, sgemm_peak,  # noqa: E402
                             text_of)

ROOT = os.path.dirname(HERE)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attnviz", default=os.path.join(ROOT, "build", "release", "app", "attnviz"))
    ap.add_argument("--model", default="/tmp/attnviz-bench/qwen2.5-0.5b-bf16")
    ap.add_argument("--tokens", type=int, default=8192)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--map", default="12.7")
    a = ap.parse_args()

    subprocess.run([sys.executable, os.path.join(HERE, "big_checkpoint.py"), "--shape",
                    "qwen2.5-0.5b", "--out", a.model], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(a.model, "config.json")) as f:
        config = json.load(f)
    peak = sgemm_peak(a.attnviz, a.threads)

    text, got = text_of(a.attnviz, a.model, a.tokens)
    flops = forward_flops(config, got)
    # Both attention products over the lower triangle instead of the square (a causal decoder:
    # the checkpoints big_checkpoint.py writes are all Qwen2 or Llama shapes).
    attention = attention_flops(config, got)
    computed = flops - attention + attention * (got + 1) / (2 * got)
    passes, maps = [], []
    with tempfile.TemporaryDirectory() as tmp:
        text_file = os.path.join(tmp, "text.txt")
        with open(text_file, "w") as f:
            f.write(text)
        out_json = os.path.join(tmp, "s.json")
        cmd = [a.attnviz, "stats", "--model", a.model, "--text-file", text_file, "--threads",
               str(a.threads), "--out-json", out_json, "--out-npy", os.path.join(tmp, "r.npy"),
               "--map", a.map, "--out-map", os.path.join(tmp, "m.npy")]
        for _ in range(max(1, a.runs)):
            wall, rss, cpu = run_sampled(cmd)
            with open(out_json) as f:
                timings = json.load(f)
            pass_s = timings["pass_ms"] / 1e3
            gflops = flops / pass_s / 1e9
            passes.append(pass_s)
            maps.append(timings["map_ms"] / 1e3)
            print(json.dumps({"bench": "stats", "tokens": got, "wall_s": round(wall, 2),
                              "cpu_s": round(cpu, 2), "rss_anon_gib": round(rss / 2**30, 3),
                              "pass_s": round(pass_s, 2), "gflops": round(gflops, 1),
                              "fraction_of_peak": round(gflops / peak, 3),
                              "gflops_computed": round(computed / pass_s / 1e9, 1),
                              "fraction_computed": round(computed / pass_s / 1e9 / peak, 3),
                              "map_s": round(maps[-1], 2), "load": os.getloadavg()[0]}),
                  flush=True)
    print(json.dumps({"bench": "stats_median", "runs": len(passes),
                      "pass_s": round(statistics.median(passes), 2),
                      "fraction_of_peak": round(flops / statistics.median(passes) / 1e9 / peak, 3),
                      "fraction_computed": round(
                          computed / statistics.median(passes) / 1e9 / peak, 3),
                      "map_s": round(statistics.median(maps), 2)}), flush=True)


if __name__ == "__main__":
    main()
