#!/usr/bin/env python3
"""Writes the tiny tokenizer.json files of tests/test_hf_tokenizer.cpp.

Each folder is a format the real vocabularies under tests/data/tokenizers do not cover, cut
down to a handful of tokens so that every expected id in the test can be derived by hand:

  llama2_tiny/    SentencePiece-style BPE as Llama 2 / TinyLlama write it: Prepend("▁") +
                  Replace(" ", "▁") normaliser, no pre-tokenizer, byte_fallback with <0x..>
                  tokens, fuse_unk, a "<s> $A" template; merges as "a b" strings.
  llama3_tiny/    Llama-3-style byte-level BPE: Llama 3's Split regex + ByteLevel(use_regex
                  false), ignore_merges, merges as [a, b] pairs, a Sequence post-processor
                  (ByteLevel, then a <|begin_of_text|> template).
  wordlevel_tiny/ NFKC + Lowercase + Strip, Whitespace + Digits(individual_digits), WordLevel,
                  BertProcessing.
  roberta_tiny/   ByteLevel BPE with RobertaProcessing (trim_offsets), <mask> with lstrip and
                  a single_word added token.
  metaspace_tiny/ Metaspace(prepend_scheme "first"), BPE with unk_token and fuse_unk, an
                  added special token.

Run with /usr/bin/python3 from this folder; it rewrites the five folders.  With --check it
also prints the ids its small reference of the BPE merge loop derives for the BPE words the
test uses (tokenizers/src/models/bpe/word.rs: merge the best-ranked pair, leftmost first).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def bytes_to_unicode():
    """GPT-2's byte -> printable character table, in its order (id i = i-th entry)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return [(b, chr(c)) for b, c in zip(bs, cs)]


def write(folder, tokenizer):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    with open(os.path.join(HERE, folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer, f, ensure_ascii=False, indent=1)
        f.write("\n")


def added(id_, content, special=True, normalized=False, lstrip=False, rstrip=False,
          single_word=False):
    return {"id": id_, "content": content, "single_word": single_word, "lstrip": lstrip,
            "rstrip": rstrip, "normalized": normalized, "special": special}


def template(first, first_id):
    return {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": first, "type_id": 0}},
                   {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"SpecialToken": {"id": first, "type_id": 0}},
                 {"Sequence": {"id": "A", "type_id": 0}},
                 {"SpecialToken": {"id": first, "type_id": 1}},
                 {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {first: {"id": first, "ids": [first_id], "tokens": [first]}},
    }


def bpe_model(vocab, merges, **options):
    model = {"type": "BPE", "dropout": None, "unk_token": None,
             "continuing_subword_prefix": None, "end_of_word_suffix": None, "fuse_unk": False,
             "byte_fallback": False, "ignore_merges": False, "vocab": vocab, "merges": merges}
    model.update(options)
    return model


# ---- llama2_tiny ------------------------------------------------------------------------

def llama2_tiny():
    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
    for b in range(256):  # ids 3..258, as Llama 2: <0x00> is 3
        vocab["<0x%02X>" % b] = 3 + b
    pieces = ["▁", "h", "e", "l", "o", "w", "r", "d", "▁h", "▁he", "ll", "▁hell", "▁hello",
              "▁w", "or", "▁wor", "ld", "▁world", "▁▁"]
    for p in pieces:  # ids 259..277
        vocab[p] = len(vocab)
    # Ranked: "▁ w" (5) comes before "▁ ▁" (10), which decides "hello  world".
    merges = ["▁ h", "▁h e", "l l", "▁he ll", "▁hell o", "▁ w", "o r", "▁w or", "l d",
              "▁wor ld", "▁ ▁"]
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [added(0, "<unk>"), added(1, "<s>"), added(2, "</s>")],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "▁"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
        "pre_tokenizer": None,
        "model": bpe_model(vocab, merges, unk_token="<unk>", fuse_unk=True, byte_fallback=True),
        "post_processor": template("<s>", 1),
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
    }, vocab, merges


# ---- llama3_tiny ------------------------------------------------------------------------

LLAMA3_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
                  r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")


def llama3_tiny():
    vocab = {c: i for i, (_, c) in enumerate(bytes_to_unicode())}  # ids 0..255, "Ġ" is 220
    merges = [["l", "l"], ["Ġ", "h"], ["Ġh", "e"], ["Ġhe", "ll"], ["Ġhell", "o"], ["h", "e"],
              ["he", "ll"], ["hell", "o"]]
    for a, b in merges:  # ids 256..263: ll Ġh Ġhe Ġhell Ġhello he hell hello
        vocab[a + b] = len(vocab)
    # In the vocabulary but made by no merge: only ignore_merges can produce them.
    vocab["Ġworld"] = len(vocab)  # 264
    vocab["123"] = len(vocab)  # 265
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [added(266, "<|begin_of_text|>"), added(267, "<|end_of_text|>")],
        "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": LLAMA3_PATTERN}, "behavior": "Isolated",
             "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
             "use_regex": False}]},
        "model": bpe_model(vocab, merges, ignore_merges=True),
        "post_processor": {"type": "Sequence", "processors": [
            {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False,
             "use_regex": True},
            template("<|begin_of_text|>", 266)]},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True,
                    "use_regex": True},
    }, vocab, [" ".join(m) for m in merges]


# ---- wordlevel_tiny ---------------------------------------------------------------------

def wordlevel_tiny():
    vocab = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hello": 3, "world": 4, "!": 5, "1": 6,
             "2": 7, "fi": 8, "?!": 9}
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [added(0, "[UNK]"), added(1, "[CLS]"), added(2, "[SEP]")],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "NFKC"}, {"type": "Lowercase"},
            {"type": "Strip", "strip_left": True, "strip_right": True}]},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Whitespace"}, {"type": "Digits", "individual_digits": True}]},
        "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "[UNK]"},
        "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 2], "cls": ["[CLS]", 1]},
        "decoder": None,
    }


# ---- roberta_tiny -----------------------------------------------------------------------

def roberta_tiny():
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for _, c in bytes_to_unicode():  # ids 4..259: "!" is 4, "Ġ" is 224
        vocab[c] = len(vocab)
    merges = ["Ġ h", "Ġh e", "l l", "Ġhe ll", "Ġhell o"]
    for m in merges:  # ids 260..264: Ġh Ġhe ll Ġhell Ġhello
        vocab[m.replace(" ", "")] = len(vocab)
    return {
        "version": "1.0", "truncation": None, "padding": None,
        # tokenizers gives tokens missing from the model the next ids: <mask> 265, [DAY] 266.
        "added_tokens": [added(0, "<s>"), added(1, "<pad>"), added(2, "</s>"), added(3, "<unk>"),
                         added(265, "<mask>", lstrip=True),
                         added(266, "[DAY]", special=False, single_word=True)],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                          "use_regex": True},
        "model": bpe_model(vocab, merges, continuing_subword_prefix="", end_of_word_suffix=""),
        "post_processor": {"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0],
                           "trim_offsets": True, "add_prefix_space": False},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True,
                    "use_regex": True},
    }, vocab, merges


# ---- metaspace_tiny ---------------------------------------------------------------------

def metaspace_tiny():
    vocab = {"<unk>": 0, "▁": 1, "a": 2, "b": 3, "▁a": 4, "▁b": 5, "ab": 6, "▁ab": 7}
    merges = ["a b", "▁ a", "▁ ab"]
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [added(0, "<unk>"), added(8, "<sep>")],
        "normalizer": None,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first",
                          "split": True},
        "model": bpe_model(vocab, merges, unk_token="<unk>", fuse_unk=True),
        "post_processor": None,
        "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first",
                    "split": True},
    }, vocab, merges


# ---- a reference of the merge loop, for --check -----------------------------------------

def bpe(word, vocab, merges, unk=None, fuse_unk=False, byte_fallback=False):
    """tokenizers' Word::merge_all on the characters of `word` (no cache, no dropout)."""
    ranks = {}
    for rank, m in enumerate(merges):
        a, b = m.split(" ")
        ranks[(a, b)] = rank
    symbols = []
    pending_unk = None
    for ch in word:
        if ch in vocab:
            if pending_unk:
                symbols.append(pending_unk)
                pending_unk = None
            symbols.append(ch)
        elif byte_fallback and all("<0x%02X>" % b in vocab for b in ch.encode()):
            symbols.extend("<0x%02X>" % b for b in ch.encode())
        elif unk:
            if pending_unk and fuse_unk:
                continue
            if pending_unk:
                symbols.append(pending_unk)
            pending_unk = unk
    if pending_unk:
        symbols.append(pending_unk)
    while True:
        best = None
        for i in range(len(symbols) - 1):
            r = ranks.get((symbols[i], symbols[i + 1]))
            if r is not None and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            break
        _, i = best
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
    return [vocab[s] for s in symbols]


def main():
    l2, l2_vocab, l2_merges = llama2_tiny()
    l3, l3_vocab, l3_merges = llama3_tiny()
    rb, rb_vocab, rb_merges = roberta_tiny()
    ms, ms_vocab, ms_merges = metaspace_tiny()
    write("llama2_tiny", l2)
    write("llama3_tiny", l3)
    write("wordlevel_tiny", wordlevel_tiny())
    write("roberta_tiny", rb)
    write("metaspace_tiny", ms)
    if "--check" in sys.argv:
        b2u = dict(bytes_to_unicode())
        byte_level = lambda s: "".join(b2u[b] for b in s.encode())
        print("llama2 ▁hello▁world", bpe("▁hello▁world", l2_vocab, l2_merges, "<unk>", True, True))
        print("llama2 ▁hello▁▁world", bpe("▁hello▁▁world", l2_vocab, l2_merges, "<unk>", True, True))
        print("llama2 ▁猫", bpe("▁猫", l2_vocab, l2_merges, "<unk>", True, True))
        print("llama2 ▁hi", bpe("▁hi", l2_vocab, l2_merges, "<unk>", True, True))
        print("llama3 shell", bpe(byte_level("shell"), l3_vocab, l3_merges))
        print("llama3 45", bpe(byte_level("45"), l3_vocab, l3_merges))
        print("llama3 (no ignore_merges) Ġworld", bpe(byte_level(" world"), l3_vocab, l3_merges))
        print("roberta hello", bpe(byte_level("hello"), rb_vocab, rb_merges))
        print("roberta Ġhello", bpe(byte_level(" hello"), rb_vocab, rb_merges))
        print("roberta Ġx [ DAY ]", [bpe(byte_level(w), rb_vocab, rb_merges)
                                      for w in [" x", "[", "DAY", "]"]])
        for w in ["▁ab", "▁ab€€", "▁b", "▁a", "b"]:
            print("metaspace", w, bpe(w, ms_vocab, ms_merges, "<unk>", True))


if __name__ == "__main__":
    main()
