#!/usr/bin/python3
"""Heads across a corpus, timed (issue 39's "Fast"): `attnviz corpus` over 1,000 sentences
(about 30,000 tokens) through a GPT-2-small-shaped model (12 layers x 12 heads, random
weights, GPT-2's own tokenizer) on 2 threads, every head measured; and the joint query-key
view of one head over 50,000 tokens (normalisation and both projections, heads.json's qk_ms).

    /usr/bin/python3 bench/corpus_bench.py [--attnviz build/release/app/attnviz] [--rounds 3]
        [--models build/bench-models]

The checkpoint is written once into --models (about 500 MB of float32, N(0, 0.02)); the
sentences are the English fortunes' (tools/fortune_texts.py: training documents, split at
sentence ends, 100 to 220 characters: about 30 GPT-2 tokens each).  A benchmark, never a test: the machine is shared, so
the table gives the median of the rounds (the pass's wall time as heads.json's pass_ms, and
the whole command's).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import safetensors_lite  # noqa: E402
from fortune_texts import ENGLISH_FILES, split_documents  # noqa: E402

E, V, P, LAYERS = 768, 50257, 1024, 12


def gpt2_small_shaped(folder):
    """GPT-2 small's shapes and config (tests/data/tokenizers/gpt2/config.json is its own)."""
    if os.path.exists(os.path.join(folder, "model.safetensors")):
        return
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(0)

    def normal(*shape):
        return (0.02 * rng.standard_normal(shape, dtype=np.float32)).astype(np.float32)

    t = {"transformer.wte.weight": normal(V, E), "transformer.wpe.weight": normal(P, E),
         "transformer.ln_f.weight": np.ones(E, np.float32),
         "transformer.ln_f.bias": np.zeros(E, np.float32)}
    for i in range(LAYERS):
        p = f"transformer.h.{i}."
        for name, n_in, n_out in (("attn.c_attn", E, 3 * E), ("attn.c_proj", E, E),
                                  ("mlp.c_fc", E, 4 * E), ("mlp.c_proj", 4 * E, E)):
            t[p + name + ".weight"] = normal(n_in, n_out)  # Conv1D: [in, out]
            t[p + name + ".bias"] = np.zeros(n_out, np.float32)
        for n in ("ln_1", "ln_2"):
            t[p + n + ".weight"] = np.ones(E, np.float32)
            t[p + n + ".bias"] = np.zeros(E, np.float32)
    safetensors_lite.save_file(t, os.path.join(folder, "model.safetensors"))
    src = os.path.join(ROOT, "tests", "data", "tokenizers", "gpt2")
    for name in ("config.json", "vocab.json", "merges.txt", "tokenizer_config.json"):
        shutil.copy(os.path.join(src, name), folder)


def sentences(count):
    train, _ = split_documents(ENGLISH_FILES)
    out = []
    for doc in train:
        for s in re.split(r"(?<=[.!?])\s+", " ".join(doc.split())):
            if 100 <= len(s) <= 220:
                out.append(s)
                if len(out) == count:
                    return out
    return out


def run(cmd):
    """(wall seconds, CPU seconds of the process, user and system, all threads)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)}: {p.stderr.read().decode()}")
    return wall, usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--attnviz", default=os.path.join(ROOT, "build", "release", "app", "attnviz"))
    ap.add_argument("--models", default=os.path.join(ROOT, "build", "bench-models"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    model = os.path.join(args.models, "gpt2_small_shaped")
    gpt2_small_shaped(model)
    work = tempfile.mkdtemp(prefix="corpus-bench-")
    try:
        texts = os.path.join(work, "sentences.txt")
        with open(texts, "w", encoding="utf-8") as f:
            f.write("\n".join(sentences(4000)) + "\n")
        out = os.path.join(work, "out")
        base = [args.attnviz, "corpus", "--model", model, "--texts", texts, "--format", "lines",
                "--threads", str(args.threads), "--out", out]
        rows = []
        for what, extra in (("1,000 sentences, every head", ["--limit", "1000"]),
                            ("joint view of L12H1, 50,000 tokens",
                             ["--limit", "1700", "--qk", "12.1", "--qk-tokens", "50000", "--top", "0"])):
            walls, cpus, passes, qk = [], [], [], []
            for _ in range(args.rounds):
                wall, cpu = run(base + extra)
                walls.append(wall)
                cpus.append(cpu)
                with open(os.path.join(out, "heads.json"), encoding="utf-8") as f:
                    heads = json.load(f)
                passes.append(heads["pass_ms"] / 1000)
                qk += heads["qk_ms"]
            rows.append((what, heads["texts"], heads["tokens"], statistics.median(passes),
                         statistics.median(walls), statistics.median(cpus),
                         statistics.median(qk) / 1000 if qk else None))
        # CPU time over the threads is what the run costs on an idle machine; the wall time
        # on a shared one also holds the other programs' share.
        print(f"load average {os.getloadavg()[0]:.1f}, {args.threads} threads")
        print("| run | texts | tokens | pass (s) | command (s) | CPU (s) | joint view (s) |")
        print("|---|---|---|---|---|---|---|")
        for what, n, tokens, p, w, c, q in rows:
            print(f"| {what} | {n} | {tokens} | {p:.1f} | {w:.1f} | {c:.1f} | "
                  f"{'' if q is None else f'{q:.2f}'} |")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
