#!/usr/bin/python3
"""An 8B checkpoint on this machine: `attnviz attend` over 128 tokens of a random BF16
checkpoint with Llama-3-8B's exact shapes (bench/big_checkpoint.py writes it once, ~16 GB).

    /usr/bin/python3 bench/big_model_bench.py [--attnviz build/release/app/attnviz]
        [--model /tmp/attnviz-bench/llama3-8b-shapes] [--tokens 128] [--threads 2] [--warm 2]

Reports, as JSON lines:
  * open: `attnviz inspect` wall time (headers only), median of 5;
  * peak: the engine's single-thread sgemm peak (`attnviz bench` on a tiny model) times
    --threads, the same figure `attnviz bench --model` divides by;
  * disk: a raw sequential read of one shard after dropping it from the page cache;
  * cold: attend after dropping the checkpoint from the page cache (drop_caches when this
    process may write it, else posix_fadvise(DONTNEED) on every shard);
  * warm: attend again (best of --warm runs) with the files in the page cache.
For each attend run: wall time, CPU time, peak RssAnon (sampled from /proc/PID/status every
20 ms), GFLOP/s of the model's forward FLOPs (engine/models/flops.cpp's count) and its
fraction of the peak, and GFLOP per CPU-second (what the wall-clock figure would be per core
on an idle machine: on a shared one the wall time counts other programs' time slices, and the
peak, measured in wall time too, is lowered with it).  A benchmark, never a test.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def head_dim(c):
    return c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]


def attention_flops(c, L):
    """Both attention products (Q.K^T and P.V) of every layer over the full L x L."""
    return 4 * L * L * c["num_attention_heads"] * head_dim(c) * c["num_hidden_layers"]


def forward_flops(c, L):
    E, d = c["hidden_size"], head_dim(c)
    H, KV, I = c["num_attention_heads"], c["num_key_value_heads"], c["intermediate_size"]
    per_layer = 2 * L * E * (H + 2 * KV) * d + 2 * L * H * d * E + 2 * 3 * L * E * I
    return per_layer * c["num_hidden_layers"] + attention_flops(c, L)


def rss_anon_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_sampled(cmd, env=None):
    """Runs cmd; returns (wall seconds, peak RssAnon in bytes, CPU seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    peak, status, usage = 0, None, None
    while status is None:
        peak = max(peak, rss_anon_kb(p.pid))
        pid, st, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            status, usage = st, ru
        else:
            time.sleep(0.02)
    wall = time.monotonic() - t0
    err = p.stderr.read().decode()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{' '.join(cmd)} failed ({code}): {err.strip()}")
    return wall, peak * 1024, usage.ru_utime + usage.ru_stime


def shards(model):
    return sorted(os.path.join(model, f) for f in os.listdir(model) if f.endswith(".safetensors"))


def drop_cache(model):
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        return "drop_caches"
    except OSError:
        for path in shards(model):
            fd = os.open(path, os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
        return "posix_fadvise"


def sgemm_peak(attnviz, threads):
    """The engine's single-thread sgemm peak (`attnviz bench` on a tiny model) times
    `threads`, printed as a JSON line: the figure `attnviz bench --model` divides by."""
    tiny = os.path.join(ROOT, "tests", "golden", "models", "llama_gqa")
    out = subprocess.run([attnviz, "bench", "--model", tiny, "--tokens", "8", "--threads", "1",
                          "--repeats", "1"], check=True, capture_output=True, text=True).stdout
    peak1 = json.loads(out.strip().splitlines()[-1])["sgemm_peak_gflops"]
    peak = peak1 * threads
    print(json.dumps({"bench": "peak", "threads": threads, "sgemm_gflops_1": peak1,
                      "sgemm_gflops": round(peak, 1)}), flush=True)
    return peak


def text_of(attnviz, model, tokens):
    """A text the model's tokenizer makes exactly `tokens` tokens of (or just over)."""
    words = "the quick brown fox jumps over a lazy dog while seven wizards quietly judge".split()
    def count(n):
        text = " ".join(words[i % len(words)] for i in range(n))
        out = subprocess.run([attnviz, "tokenize", "--model", model, "--text", text], check=True,
                             capture_output=True, text=True).stdout
        return len(json.loads(out)["ids"]), text
    n = tokens
    got, text = count(n)
    while got > tokens and n > 1:
        n -= 1
        got, text = count(n)
    while got < tokens:
        n += 1
        got, text = count(n)
    return text, got


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attnviz", default=os.path.join(ROOT, "build", "release", "app", "attnviz"))
    ap.add_argument("--model", default="/tmp/attnviz-bench/llama3-8b-shapes")
    ap.add_argument("--tokens", type=int, default=128)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--warm", type=int, default=2)
    ap.add_argument("--no-cold", action="store_true")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for attend runs")
    a = ap.parse_args()

    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "big_checkpoint.py"), "--out",
                    a.model], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(a.model, "config.json")) as f:
        config = json.load(f)
    size = sum(os.path.getsize(p) for p in shards(a.model))

    opens = []
    for _ in range(5):
        t0 = time.monotonic()
        subprocess.run([a.attnviz, "inspect", "--model", a.model], check=True,
                       stdout=subprocess.DEVNULL)
        opens.append(time.monotonic() - t0)
    print(json.dumps({"bench": "open", "shards": len(shards(a.model)), "bytes": size,
                      "median_s": round(statistics.median(opens), 3)}), flush=True)

    peak = sgemm_peak(a.attnviz, a.threads)

    text, got = text_of(a.attnviz, a.model, a.tokens)
    flops = forward_flops(config, got)
    env = dict(os.environ)
    for kv in a.env:
        k, v = kv.split("=", 1)
        env[k] = v
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [a.attnviz, "attend", "--model", a.model, "--text", text, "--threads",
               str(a.threads), "--out-weights", os.path.join(tmp, "A.npy")]

        def report(kind, wall, rss, cpu, **extra):
            gflops = flops / wall / 1e9
            # On a shared machine the wall time counts other programs' time slices; the
            # GFLOP per CPU-second against one core's peak does not.
            print(json.dumps(dict({"bench": kind, "tokens": got, "wall_s": round(wall, 2),
                                   "cpu_s": round(cpu, 2),
                                   "rss_anon_gib": round(rss / 2**30, 3),
                                   "gflops": round(gflops, 1),
                                   "fraction_of_peak": round(gflops / peak, 3),
                                   "gflops_per_cpu_s": round(flops / cpu / 1e9, 1),
                                   "load": os.getloadavg()[0]}, **extra)),
                  flush=True)

        if not a.no_cold:
            how = drop_cache(a.model)
            first = shards(a.model)[0]
            t0 = time.monotonic()
            subprocess.run(["dd", f"if={first}", "of=/dev/null", "bs=16M"], check=True,
                           capture_output=True)
            disk = os.path.getsize(first) / (time.monotonic() - t0)
            print(json.dumps({"bench": "disk", "dropped_by": how,
                              "read_gib_s": round(disk / 2**30, 3)}), flush=True)
            drop_cache(a.model)
            wall, rss, cpu = run_sampled(cmd, env)
            report("cold", wall, rss, cpu, read_gib_s=round(size / wall / 2**30, 3),
                   disk_bound_s=round(size / disk, 1))
        runs = [run_sampled(cmd, env) for _ in range(max(1, a.warm))]
        wall, _, cpu = min(runs)
        report("warm", wall, max(r[1] for r in runs), cpu)


if __name__ == "__main__":
    main()
