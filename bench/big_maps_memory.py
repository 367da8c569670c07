#!/usr/bin/env python3
"""Issue 25's big attention file under a 2 GB memory budget: the window's anonymous memory.

Writes (once, cached in --dir) a 32 x 32 x 2048 x 2048 float16 .npy of attention maps (8.6 GB;
rows sum to 1) and its tokens.json, then runs `ui_bench --big-maps FILE` with
ATTNVIZ_MEMORY_BUDGET=--budget on the offscreen platform: the window opens the file (taking the
over-budget dialog's offer if one comes) and opens, zooms and pans three heads' full maps.
Meanwhile it samples RssAnon from /proc/PID/status every 10 ms and reports the peak of each
phase.  The file is memory-mapped, so what it reads shows in RssFile, not RssAnon.

    python3 bench/big_maps_memory.py [--dir /tmp/attnviz-big-maps] [--budget 2G]
                                     [--ui-bench build/release/bench/ui_bench]
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import time

from big_model_bench import rss_anon_kb  # beside this script

LAYERS, HEADS, L = 32, 32, 2048


def write_maps(path):
    import numpy as np  # Debian's python3-numpy

    i = np.arange(L)[:, None]
    j = np.arange(L)[None, :]
    past = j <= i

    def norm(m):
        m = np.where(past, m, 0.0)
        return (m / m.sum(axis=1, keepdims=True)).astype(np.float16)

    patterns = [  # sink, previous token, local window, uniform over the past
        norm(np.where(j == 0, 8.0, 0.05) + 0.0 * i),
        norm(np.where(j == i - 1, 6.0, 0.02) + np.where(j == i, 1.0, 0.0)),
        norm(np.exp(-np.abs(i - j) / 16.0)),
        norm(np.ones((L, L))),
    ]
    tmp = path + ".part"
    a = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.float16, shape=(LAYERS, HEADS, L, L))
    for layer in range(LAYERS):
        for head in range(HEADS):
            a[layer, head] = patterns[(layer + head) % 4]
        a.flush()
    del a
    os.replace(tmp, path)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default="/tmp/attnviz-big-maps")
    ap.add_argument("--budget", default="2G")
    ap.add_argument("--ui-bench", default=os.path.join(here, "..", "build", "release", "bench",
                                                       "ui_bench"))
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    maps = os.path.join(args.dir, "big.npy")
    tokens = os.path.join(args.dir, "tokens.json")
    if not os.path.exists(maps):
        print(f"writing {maps} (8.6 GB) ...", flush=True)
        write_maps(maps)
    if not os.path.exists(tokens):
        with open(tokens, "w") as f:
            json.dump([f"tok{k}" for k in range(L)], f)
    env = dict(os.environ, ATTNVIZ_MEMORY_BUDGET=args.budget, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen([args.ui_bench, "--big-maps", maps], stdout=subprocess.PIPE,
                            text=True, env=env)
    peak = [0, 0]  # since the last phase, overall (KiB)
    lock = threading.Lock()

    def sample():
        while proc.poll() is None:
            kib = rss_anon_kb(proc.pid)
            if kib:
                with lock:
                    peak[0] = max(peak[0], kib)
                    peak[1] = max(peak[1], kib)
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start = time.time()
    for line in proc.stdout:
        try:
            phase = json.loads(line)
        except ValueError:
            print(line, end="")
            continue
        with lock:
            phase["rss_anon_peak_mib"] = round(peak[0] / 1024.0, 1)
            phase["rss_anon_now_mib"] = round((rss_anon_kb(proc.pid) or 0) / 1024.0, 1)
            peak[0] = 0
        phase["t_s"] = round(time.time() - start, 2)
        print(json.dumps(phase, ensure_ascii=False), flush=True)
    proc.wait()
    sampler.join()
    budget_mib = {"G": 1024, "M": 1}[args.budget[-1].upper()] * float(args.budget[:-1])
    print(json.dumps({"bench": "big_maps_memory", "file_gb": round(os.path.getsize(maps) / 1e9, 2),
                      "budget": args.budget, "rss_anon_peak_mib": round(peak[1] / 1024.0, 1),
                      "goal": f"RssAnon < {args.budget} while it opens and pans",
                      "exit": proc.returncode,
                      "pass": proc.returncode == 0 and peak[1] / 1024.0 < budget_mib}))
    return 0 if proc.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
