#!/usr/bin/python3
"""Generation speed against llama.cpp on the same weights (issue 41), in the same run.

For each shape (default Qwen2.5-0.5B's; --shape llama3-8b for Llama-3-8B's, when the disk has
room), once into --cache:
  * the random BF16 safetensors folder of bench/big_checkpoint.py (AttnViz's own format);
  * GGUF files of the same weights: BF16 and F32 written here with gguf-py (llama.cpp's
    convert_hf_to_gguf.py needs `transformers`), llama.cpp's tensor names and Qwen2's or
    Llama 3's tokenizer metadata; Q4_K_M from the BF16 file by `llama-quantize`.
Then, interleaved for --rounds rounds, on every file: `attnviz bench --model M --tokens 1
--generate 64 --threads 2` and `llama-bench -m M -p 0 -n 64 -t T` (tg64) of two llama.cpp
builds, generic (GGML_NATIVE=OFF: AVX2) and native (-march=native), at 1 and 2 threads. A
one-token prompt makes AttnViz's run the same work as tg64: 64 one-token steps, the KV cache
growing from 0 to 64. Both time their runs after a warm-up run (llama-bench's own; AttnViz's
bench times its first generation apart, as first_ms, kept in the JSON: the mapping's pages and
the scratch are new to it). Each figure is the median of the rounds; "llama.cpp's best" is the
fastest build and thread count on that file (on two shared cores llama.cpp's spinning threads
can lose more than the second one gains); the ratio is AttnViz's tokens/s over it. The BF16
safetensors folder is compared with the BF16 GGUF of the same weights.
Peak RssAnon (sampled every 20 ms, as bench/big_model_bench.py does) of each AttnViz run, and
of `attnviz attend` over a short text on the Q4_K_M file.

llama.cpp comes from /work/shared/tools/build_llamacpp.sh (sources, gguf-py, generic build);
this script adds llama-bench to that build and a native build beside it (build-native/) if
they are missing, both under `nice -n 5`.  A benchmark, never a test.

    /usr/bin/python3 bench/generation_bench.py [--attnviz build/ci/app/attnviz] [--rounds 3]
        [--shape qwen2.5-0.5b|llama3-8b] [--formats st-bf16,bf16,f32,q4_k_m] [--cache DIR]
        [--json PATH] [--threads 2] [--llama-threads 1,2] [--new-tokens 64] [--layers N]
        [--llamacpp /tmp/llamacpp]
        [--llama-bench-generic PATH] [--llama-bench-native PATH] [--llama-quantize PATH]
"""
import argparse
import fcntl
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import big_checkpoint  # noqa: E402
import gguf_checkpoint  # noqa: E402
from big_model_bench import rss_anon_kb  # noqa: E402

BUILD_SCRIPT = "/work/shared/tools/build_llamacpp.sh"
GIB = 2**30

# shape: (GGUF architecture, its tokenizer metadata, formats run by default). The 8B's F32
# copy (32 GB) is left out by default: it is more than this machine's memory.
SHAPES = {
    "qwen2.5-0.5b": ("qwen2", gguf_checkpoint.VOCAB, "st-bf16,bf16,f32,q4_k_m"),
    "llama3-8b": ("llama", "{llamacpp}/llama.cpp/models/ggml-vocab-llama-bpe.gguf",
                  "st-bf16,bf16,q4_k_m"),
}
FORMATS = ("st-bf16", "bf16", "f32", "q4_k_m")


class Steps:
    """Wall time of each step of the script, printed as it goes."""

    def __init__(self):
        self.seconds = {}

    def run(self, name, fn, *args, **kwargs):
        t0 = time.monotonic()
        print(f"[{name}] ...", file=sys.stderr, flush=True)
        result = fn(*args, **kwargs)
        self.seconds[name] = round(time.monotonic() - t0, 1)
        print(f"[{name}] {self.seconds[name]} s", file=sys.stderr, flush=True)
        return result


# ---- llama.cpp --------------------------------------------------------------------------------

def build_llamacpp(a):
    """The generic build (build_llamacpp.sh, plus llama-bench) and the native one."""
    src = os.path.join(a.llamacpp, "llama.cpp")
    if not (a.llama_bench_generic and a.llama_quantize and a.llama_bench_native):
        subprocess.run(["nice", "-n", "5", "bash", BUILD_SCRIPT, a.llamacpp], check=True)
    a.gguf_py = a.gguf_py or os.path.join(src, "gguf-py")
    builds = {"generic": (a.llama_bench_generic, "build", "OFF"),
              "native": (a.llama_bench_native, "build-native", "ON")}
    a.llama_bench = {}
    for name, (given, folder, native) in builds.items():
        a.llama_bench[name] = given or cmake_build(a.llamacpp, src, folder, native)
    # Every build at every thread count: on two shared cores, llama.cpp's spinning threads
    # can lose more to a busy core than the second thread gains.
    a.llama_configs = {f"{b} t{t}": (binary, t) for b, binary in a.llama_bench.items()
                       for t in a.llama_threads}
    a.llama_quantize = a.llama_quantize or os.path.join(src, "build", "bin", "llama-quantize")


def cmake_build(dest, src, folder, native):
    """DEST/llama.cpp/FOLDER/bin/llama-bench, configured and built if it is missing."""
    out = os.path.join(src, folder)
    binary = os.path.join(out, "bin", "llama-bench")
    if os.access(binary, os.X_OK):
        return binary
    # build_llamacpp.sh's lock: one llama.cpp build at a time on this machine.
    with open(os.path.join(dest, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(os.path.join(out, "CMakeCache.txt")):
            gen = ["-G", "Ninja"] if shutil.which("ninja") else []
            subprocess.run(["cmake", "-S", src, "-B", out, *gen, "-DCMAKE_BUILD_TYPE=Release",
                            "-DLLAMA_CURL=OFF", "-DLLAMA_BUILD_TESTS=OFF",
                            "-DLLAMA_BUILD_SERVER=OFF", "-DLLAMA_BUILD_MTMD=OFF",
                            f"-DGGML_NATIVE={native}"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["nice", "-n", "5", "cmake", "--build", out, "--target", "llama-bench",
                        "llama-quantize", f"-j{os.cpu_count()}"], check=True,
                       stdout=subprocess.DEVNULL)
    return binary


# ---- the files --------------------------------------------------------------------------------

def safetensors_tensors(folder):
    """name -> (file, offset, shape) of every BF16 tensor of a safetensors folder, file order."""
    out = {}
    for file in sorted(f for f in os.listdir(folder) if f.endswith(".safetensors")):
        path = os.path.join(folder, file)
        with open(path, "rb") as f:
            n = int.from_bytes(f.read(8), "little")
            header = json.loads(f.read(n))
        for name, t in header.items():
            if name == "__metadata__":
                continue
            if t["dtype"] != "BF16":
                sys.exit(f"{path}: {name} is {t['dtype']}, expected BF16")
            out[name] = (path, 8 + n + t["data_offsets"][0], t["shape"])
    return out


HF_TO_GGUF = {hf: ours for ours, hf in gguf_checkpoint.HF_LAYER_NAMES.items()}


def gguf_name(hf):
    top = {"model.embed_tokens.weight": "token_embd.weight",
           "model.norm.weight": "output_norm.weight", "lm_head.weight": "output.weight"}
    if hf in top:
        return top[hf]
    _, _, n, rest = hf.split(".", 3)  # model.layers.N.self_attn.q_proj.weight
    base, kind = rest.rsplit(".", 1)
    return f"blk.{n}.{HF_TO_GGUF[base]}.{kind}"


def llama_permute(w, heads):
    """convert_hf_to_gguf.py's reordering of a Llama q or k matrix's rows (Hugging Face keeps
    each head's rotary halves apart, llama.cpp interleaves them); AttnViz undoes it."""
    return w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(
        w.shape)


def gguf_tensor(arr, name, c, arch, f32):
    """One tensor as llama.cpp's converter writes it: vectors in F32, matrices in BF16/F32."""
    if arch == "llama" and name.endswith(("attn_q.weight", "attn_k.weight")):
        heads = c["num_attention_heads" if "attn_q" in name else "num_key_value_heads"]
        arr = llama_permute(arr, heads)
    if f32 or arr.ndim == 1:
        return (arr.astype(np.uint32) << 16).view(np.float32)
    return np.ascontiguousarray(arr)


def write_gguf(folder, path, arch, vocab, f32, gguf):
    """A BF16 (or F32) GGUF of the safetensors folder's weights, streamed tensor by tensor."""
    with open(os.path.join(folder, "config.json")) as f:
        c = json.load(f)
    tensors = safetensors_tensors(folder)
    w = gguf.GGUFWriter(path + ".part", arch=arch)
    w.add_name(f"{os.path.basename(folder)} (random)")
    w.add_file_type(gguf.LlamaFileType.ALL_F32 if f32 else gguf.LlamaFileType.MOSTLY_BF16)
    w.add_context_length(c["max_position_embeddings"])
    w.add_embedding_length(c["hidden_size"])
    w.add_feed_forward_length(c["intermediate_size"])
    w.add_block_count(c["num_hidden_layers"])
    w.add_head_count(c["num_attention_heads"])
    w.add_head_count_kv(c["num_key_value_heads"])
    w.add_rope_dimension_count(c.get("head_dim") or
                               c["hidden_size"] // c["num_attention_heads"])
    w.add_rope_freq_base(c["rope_theta"])
    w.add_layer_norm_rms_eps(c["rms_norm_eps"])
    w.add_vocab_size(c["vocab_size"])
    gguf_checkpoint.copy_tokenizer(w, gguf, vocab)

    def load(name):
        file, offset, shape = tensors[name]
        raw = np.memmap(file, np.uint16, "r", offset, tuple(shape))
        return gguf_tensor(raw, gguf_name(name), c, arch, f32)

    for name, (_, _, shape) in tensors.items():
        f32_here = f32 or len(shape) == 1
        dtype = np.float32 if f32_here else np.uint16
        w.add_tensor_info(gguf_name(name), shape, np.dtype(dtype),
                          int(np.prod(shape)) * np.dtype(dtype).itemsize,
                          None if f32_here else gguf.GGMLQuantizationType.BF16)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    for name in tensors:
        w.write_tensor_data(load(name))
    w.close()
    os.replace(path + ".part", path)


def folder_bytes(folder):
    return sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)
               if f.endswith(".safetensors"))


def room_for(path, size, a):
    free = shutil.disk_usage(os.path.dirname(path)).free
    if free >= size + a.min_free_gb * GIB:
        return True
    print(f"skipping {path}: {size / GIB:.1f} GiB would leave less than {a.min_free_gb} GiB of "
          f"{free / GIB:.1f} GiB free", file=sys.stderr)
    return False


def make_files(a, shape, steps):
    """{format: path} of every file of --formats that exists or could be written."""
    arch, vocab, _ = SHAPES[shape]
    vocab = vocab.format(llamacpp=a.llamacpp)
    fewer = f"-{a.layers}l" if a.layers else ""
    folder = os.path.join(a.cache, os.path.basename(big_checkpoint.SHAPES[shape][2]) + fewer)
    command = [sys.executable, os.path.join(HERE, "big_checkpoint.py"), "--shape", shape,
               "--out", folder] + (["--layers", str(a.layers)] if a.layers else [])
    steps.run(f"{shape}: safetensors", subprocess.run, command, check=True,
              stdout=subprocess.DEVNULL)
    sys.path.insert(0, a.gguf_py)
    import gguf  # noqa: E402

    st = folder_bytes(folder)
    files = {"st-bf16": folder}
    stem = os.path.join(a.cache, shape + fewer)
    for fmt, size in (("bf16", st), ("f32", 2 * st)):
        path = f"{stem}-{fmt}.gguf"
        if fmt not in a.formats and not (fmt == "bf16" and "q4_k_m" in a.formats):
            continue
        if not os.path.exists(path) and room_for(path, size, a):
            steps.run(f"{shape}: write {fmt} gguf", write_gguf, folder, path, arch, vocab,
                      fmt == "f32", gguf)
        if os.path.exists(path):
            files[fmt] = path
    q4 = f"{stem}-q4_k_m.gguf"
    if "q4_k_m" in a.formats and "bf16" in files and not os.path.exists(q4) and \
            room_for(q4, st * 0.35, a):
        steps.run(f"{shape}: llama-quantize Q4_K_M", quantize, a, files["bf16"], q4)
    if os.path.exists(q4):
        files["q4_k_m"] = q4
    return {f: p for f, p in files.items() if f in a.formats}


def quantize(a, src, dst):
    subprocess.run(["nice", "-n", "5", a.llama_quantize, src, dst + ".part", "Q4_K_M",
                    str(a.threads)], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    os.replace(dst + ".part", dst)


def file_bytes(path):
    return folder_bytes(path) if os.path.isdir(path) else os.path.getsize(path)


# ---- the runs ---------------------------------------------------------------------------------

def run_sampled(cmd):
    """Runs cmd; returns (stdout, error or None, wall seconds, peak RssAnon in bytes)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=err)
        peak, status = 0, None
        while status is None:
            peak = max(peak, rss_anon_kb(p.pid))
            pid, st, _ = os.wait4(p.pid, os.WNOHANG)
            if pid:
                status = st
            else:
                time.sleep(0.02)
        wall = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        text, problem = out.read().decode(), None
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            lines = err.read().decode().strip().splitlines() or ["(no message)"]
            problem = f"exit {code}: {lines[-1]}"
        return text, problem, wall, peak * 1024


def attnviz_generate(a, model):
    text, problem, wall, rss = run_sampled(
        [a.attnviz, "bench", "--model", model, "--tokens", str(a.prompt_tokens), "--generate",
         str(a.new_tokens), "--threads", str(a.threads), "--repeats", str(a.repeats)])
    result = {"wall_s": round(wall, 2), "rss_anon_bytes": rss}
    if problem:
        return dict(result, error=problem)
    for line in text.splitlines():
        row = json.loads(line)
        if row.get("bench") == "generate":
            return dict(result, tok_s=1000.0 / row["ms_per_token"],
                        ms_per_token=row["ms_per_token"], first_ms=row.get("first_ms"))
    return dict(result, error="no generate line in the output")


def llama_tg(a, binary, threads, model):
    text, problem, wall, rss = run_sampled(
        [binary, "-m", model, "-p", "0", "-n", str(a.new_tokens), "-t", str(threads),
         "-r", str(a.repeats), "-o", "json"])
    result = {"wall_s": round(wall, 2), "rss_anon_bytes": rss}
    if problem:
        return dict(result, error=problem)
    row = json.loads(text)[0]
    return dict(result, tok_s=row["avg_ts"], stddev_ts=row["stddev_ts"],
                commit=row.get("build_commit"))


def attend_rss(a, model):
    with tempfile.TemporaryDirectory() as tmp:
        _, problem, wall, rss = run_sampled(
            [a.attnviz, "attend", "--model", model, "--text", a.attend_text, "--threads",
             str(a.threads), "--out-weights", os.path.join(tmp, "A.npy")])
    return {"model": model, "wall_s": round(wall, 2), "rss_anon_bytes": rss,
            **({"error": problem} if problem else {})}


def median_of(runs, pick=statistics.median):
    good = [r["tok_s"] for r in runs if "tok_s" in r]
    return pick(good) if good else None


def bench_files(a, files):
    """Rounds of every file: AttnViz, then each llama.cpp build; the medians and ratios."""
    runs = {f: {"attnviz": [], **{c: [] for c in a.llama_configs}} for f in files}
    loads = []
    for r in range(a.rounds):
        for fmt, path in files.items():
            runs[fmt]["attnviz"].append(attnviz_generate(a, path))
            if fmt == "st-bf16":
                continue
            for config, (binary, threads) in a.llama_configs.items():
                runs[fmt][config].append(llama_tg(a, binary, threads, path))
        loads.append(os.getloadavg()[0])
        print(f"round {r + 1}/{a.rounds} done, load {loads[-1]:.1f}", file=sys.stderr,
              flush=True)
    rows = []
    for fmt, path in files.items():
        rows.append(summarise(a, fmt, path, runs[fmt], runs.get("bf16", {})))
    return rows, loads


def summarise(a, fmt, path, runs, bf16_runs):
    # The safetensors folder holds the BF16 GGUF's weights: it is measured against that file.
    peer = runs if fmt != "st-bf16" else bf16_runs
    llama = {c: median_of(peer.get(c, [])) for c in a.llama_configs}
    best = max(((t, b) for b, t in llama.items() if t), default=(None, None))
    ours = median_of(runs["attnviz"])
    # Each tool's fastest run too: on shared cores a busy neighbour can halve one run.
    fastest = [median_of(peer.get(c, []), max) for c in a.llama_configs]
    fastest_llama = max((t for t in fastest if t), default=None)
    fastest_ours = median_of(runs["attnviz"], max)
    rss = [r["rss_anon_bytes"] for r in runs["attnviz"]]
    errors = sorted({r["error"] for rr in runs.values() for r in rr if "error" in r})
    return {"format": fmt, "path": path, "bytes": file_bytes(path),
            "attnviz_tok_s": ours, "llamacpp_tok_s": llama, "llamacpp_best": best[1],
            "llamacpp_best_tok_s": best[0],
            "ratio": ours / best[0] if ours and best[0] else None,
            "ratio_fastest_runs": fastest_ours / fastest_llama
            if fastest_ours and fastest_llama else None,
            "attnviz_rss_anon_bytes": max(rss) if rss else None,
            "errors": errors, "runs": runs}


def fmt_num(x, digits=1):
    return "-" if x is None else f"{x:.{digits}f}"


def print_table(a, shape, rows, attend):
    print(f"\n{shape}: tokens/s generating {a.new_tokens} after a {a.prompt_tokens}-token "
          f"prompt, {a.threads} threads, medians of {a.rounds} rounds")
    configs = list(a.llama_configs)
    print("| file | size | AttnViz tok/s | llama.cpp's best tok/s | AttnViz / llama.cpp | "
          "fastest runs' ratio | " + "".join(f"llama.cpp {c} | " for c in configs) +
          "AttnViz RssAnon |")
    print("|---|" + "---:|" * (6 + len(configs)))
    for r in rows:
        lc = r["llamacpp_tok_s"]
        ratio, fastest = ("-" if x is None else f"{x:.2f}×"
                          for x in (r["ratio"], r["ratio_fastest_runs"]))
        rss = "-" if r["attnviz_rss_anon_bytes"] is None else \
            f"{r['attnviz_rss_anon_bytes'] / GIB:.2f} GiB"
        label = "BF16 safetensors (vs BF16 GGUF)" if r["format"] == "st-bf16" else \
            f"GGUF {r['format'].upper()}"
        print(f"| {label} | {r['bytes'] / 1e6:.0f} MB | {fmt_num(r['attnviz_tok_s'])} | "
              f"{fmt_num(r['llamacpp_best_tok_s'])} ({r['llamacpp_best'] or '-'}) | {ratio} | "
              f"{fastest} | " +
              "".join(f"{fmt_num(lc.get(c))} | " for c in configs) + f"{rss} |")
    for r in rows:
        for e in r["errors"]:
            print(f"  {r['format']}: {e}")
    if attend:
        extra = f" ({attend['error']})" if "error" in attend else ""
        print(f"attend on {os.path.basename(attend['model'])}: RssAnon "
              f"{attend['rss_anon_bytes'] / GIB:.2f} GiB, {attend['wall_s']} s{extra}")


def bench_shape(a, shape, steps):
    files = make_files(a, shape, steps)
    rows, loads = steps.run(f"{shape}: rounds", bench_files, a, files)
    attend = None
    if "q4_k_m" in files:
        attend = steps.run(f"{shape}: attend RssAnon", attend_rss, a, files["q4_k_m"])
    print_table(a, shape, rows, attend)
    return {"shape": shape, "files": files, "rows": rows, "attend": attend, "loads": loads}


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attnviz", default=os.path.join(ROOT, "build", "ci", "app", "attnviz"))
    ap.add_argument("--shape", action="append", choices=sorted(SHAPES),
                    help="repeatable; default qwen2.5-0.5b")
    ap.add_argument("--formats", dest="formats_given", metavar="LIST",
                    help="comma-separated, of " + ",".join(FORMATS) +
                    "; default: every one for 0.5B, no F32 for 8B")
    ap.add_argument("--layers", type=int, help="fewer layers than the shape's (a quick try)")
    ap.add_argument("--cache", default="/tmp/attnviz-bench")
    ap.add_argument("--json", help="write every run and the summary here")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=1,
                    help="generations per process (attnviz --repeats, llama-bench -r)")
    ap.add_argument("--threads", type=int, default=2, help="AttnViz's threads")
    ap.add_argument("--llama-threads", type=lambda v: [int(t) for t in v.split(",")],
                    default=[1, 2], help="llama-bench -t, each (default 1,2)")
    ap.add_argument("--new-tokens", type=int, default=64)
    ap.add_argument("--prompt-tokens", type=int, default=1)
    ap.add_argument("--attend-text", default="The quick brown fox jumps over the lazy dog, "
                    "while seven wizards quietly judge the boxing match.")
    ap.add_argument("--min-free-gb", type=float, default=10.0,
                    help="leave this much disk free when writing the files")
    ap.add_argument("--llamacpp", default="/tmp/llamacpp", help="build_llamacpp.sh's DEST")
    ap.add_argument("--gguf-py")
    ap.add_argument("--llama-bench-generic")
    ap.add_argument("--llama-bench-native")
    ap.add_argument("--llama-quantize")
    return ap.parse_args()


def main():
    a = parse_args()
    t0 = time.monotonic()
    if not os.access(a.attnviz, os.X_OK):
        sys.exit(f"{a.attnviz} is not built (cmake --build build/ci --target attnviz)")
    steps = Steps()
    steps.run("llama.cpp builds", build_llamacpp, a)
    results = []
    for shape in a.shape or ["qwen2.5-0.5b"]:
        a.formats = (a.formats_given or SHAPES[shape][2]).split(",")
        results.append(bench_shape(a, shape, steps))
    total = round(time.monotonic() - t0, 1)
    print(f"\nsteps (s): {json.dumps(steps.seconds)}; total {total} s")
    if a.json:
        report = {"argv": sys.argv, "attnviz": a.attnviz, "llama_bench": a.llama_bench,
                  "threads": a.threads, "llama_threads": a.llama_threads, "rounds": a.rounds,
                  "repeats": a.repeats,
                  "prompt_tokens": a.prompt_tokens, "new_tokens": a.new_tokens,
                  "shapes": results, "steps_s": steps.seconds, "total_s": total}
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
