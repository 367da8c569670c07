#!/usr/bin/python3
"""Writes the corpora AttnViz ships (resources/corpora/), for `attnviz corpus` and the window's
Open Corpus: the fortunes the shipped models never saw in training.

    /usr/bin/python3 tools/make_corpora.py [--out resources/corpora]

tools/train_models.py holds out every 20th document of each fortune file for validation
(tools/fortune_texts.py); these are the same documents:
  fortunes_en.txt  the held-out English fortunes (package `fortunes`, BSD)
  fortunes_zh.txt  the held-out Chinese ones: Tang poems, Song ci, sayings (`fortunes-zh`,
                   GPL-3.0+)
each kept when it has at most MAX_CHARS characters, so that with the <|bos|> every shipped
model (character-level; char-zh-en-4l has 256 positions) takes it whole.  One text per paragraph (`attnviz corpus
--format paragraphs`, which a file with blank lines is read as by default): a document's own
blank lines are dropped, its line breaks kept.  Deterministic: the same packages give the same
bytes.  Needs only python3 and the packages (apt-get install fortunes fortunes-zh).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fortune_texts import CHINESE_FILES, ENGLISH_FILES, split_documents  # noqa: E402

MAX_CHARS = 255


def paragraph(doc):
    """The document as one paragraph: no blank line inside it."""
    return "\n".join(line for line in doc.split("\n") if line.strip())


def write(path, docs):
    kept = [paragraph(d) for d in docs if len(d) <= MAX_CHARS]
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n\n".join(kept) + "\n")
    print(f"{path}: {len(kept)} texts of {len(docs)} held out")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "resources", "corpora"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, files in (("fortunes_en.txt", ENGLISH_FILES), ("fortunes_zh.txt", CHINESE_FILES)):
        _, held_out = split_documents(files)
        write(os.path.join(args.out, name), held_out)


if __name__ == "__main__":
    main()
