#!/usr/bin/python3
"""The torch baseline for whole models: one forward pass of a Hugging Face model folder, every
layer's attention maps kept, in float32 on plain torch ops.

    /usr/bin/python3 tests/golden/models/make_models.py --bench /tmp/attnviz-bench
    /usr/bin/python3 bench/compare_models.py /tmp/attnviz-bench/bert_base [--tokens 128] [--runs 7]

Prints one JSON line: {"model", "tokens", "median_ms", "runs", "threads", "cpu_ms", "load_s"}.
median_ms is the median wall time of `runs` forward passes after one warm-up; cpu_ms the median
process CPU time (what a shared, busy machine distorts least).  The model is
tests/golden/models/hf_reference.py (the same code that writes the goldens) in float32, under
torch.inference_mode, on one thread unless --threads says otherwise: that is the speed AttnViz has
to beat, so nothing here holds torch back (weights converted once, before timing; no copies of
the maps beyond what the forward returns).
"""
import argparse
import json
import os
import statistics
import sys
import time


def _threads_asked(argv):
    """--threads N (or --threads=N) from the command line, before argparse runs."""
    for k, a in enumerate(argv):
        if a == "--threads" and k + 1 < len(argv):
            return argv[k + 1]
        if a.startswith("--threads="):
            return a.split("=", 1)[1]
    return "1"


# Debian's torch does its products in libblas.so.3; OpenBLAS's pthread build there uses every
# core whatever torch.set_num_threads() says, and reads its thread count once, as it loads.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = _threads_asked(sys.argv[1:])

import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden", "models"))
import hf_reference as ref  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", help="a Hugging Face model folder (config.json + safetensors)")
    ap.add_argument("--tokens", type=int, default=128)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0, help="for the random input ids")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    t0 = time.perf_counter()
    config, state = ref.load_folder(args.folder)
    family = config["model_type"]
    params = ref.to_params(state, family, torch.float32)
    del state
    load_s = time.perf_counter() - t0

    vocab = config.get("vocab_size")
    max_pos = config.get("max_position_embeddings") or config.get("n_positions")
    if max_pos and args.tokens > max_pos:
        sys.exit(f"--tokens {args.tokens} exceeds the model's {max_pos} positions")
    ids = np.random.default_rng(args.seed).integers(3, vocab, size=args.tokens)

    wall, cpu = [], []
    with torch.inference_mode():
        for i in range(args.runs + 1):
            c, t = time.process_time(), time.perf_counter()
            attentions, hidden = ref.forward(config, None, ids, params=params)
            w, p = (time.perf_counter() - t) * 1e3, (time.process_time() - c) * 1e3
            if i:  # the first pass warms up allocator and caches
                wall.append(w)
                cpu.append(p)
    layers = len(attentions)
    heads = attentions[0].shape[0]
    if attentions[0].shape[-1] != args.tokens:
        sys.exit(f"maps are {list(attentions[0].shape)}, expected {args.tokens} keys")
    print(json.dumps({"model": os.path.basename(os.path.normpath(args.folder)), "tokens": args.tokens,
                      "median_ms": round(statistics.median(wall), 3), "runs": args.runs,
                      "threads": args.threads, "cpu_ms": round(statistics.median(cpu), 3),
                      "layers": layers, "heads": heads, "load_s": round(load_s, 2)}))


if __name__ == "__main__":
    main()
