"""The texts of Debian's fortune packages, as tools/train_models.py trains on them and
tools/make_corpora.py holds out the bundled corpora from them (the same documents: every 20th
of each file).  Reads only /usr/share/games/fortunes (apt-get install fortunes fortunes-zh)."""
import os
import re
import sys

FORTUNES = "/usr/share/games/fortunes"
# Package `fortunes` (fortune-mod's data; BSD licence, /usr/share/doc/fortunes/copyright).  The
# package's files minus those about politics, religion, drugs, ethnic jokes and the sexes, so
# a classroom sees nothing it should not.
ENGLISH_FILES = ["fortunes", "literature", "wisdom", "science", "computers", "people",
                 "songs-poems", "humorists", "platitudes", "education", "kids", "love", "work",
                 "food", "tao", "goedel", "paradoxum", "pets", "sports", "startrek", "linux",
                 "magic", "art", "miscellaneous", "riddles"]
# Package `fortunes-zh` (GPL-3.0+, /usr/share/doc/fortunes-zh/copyright): 300 Tang poems, 100
# Song ci, and Chinese sayings, poems and Debian documentation.
CHINESE_FILES = ["tang300", "song100", "chinese"]

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def read_documents(name):
    """The fortunes of one file: split at lines holding only "%", colour escapes removed (the
    Chinese files colour titles and authors), tabs expanded, trailing blanks stripped."""
    path = os.path.join(FORTUNES, name)
    if not os.path.exists(path):
        sys.exit(f"{os.path.basename(sys.argv[0])}: {path} is missing: apt-get install fortunes fortunes-zh")
    with open(path, encoding="utf-8", errors="replace") as f:
        text = ANSI.sub("", f.read()).replace("\r", "").expandtabs(4)
    docs = []
    for doc in re.split(r"\n%\n", "\n" + text + "\n"):
        lines = [line.rstrip() for line in doc.strip("\n").split("\n")]
        doc = "\n".join(lines).strip("\n")
        if doc:
            docs.append(doc)
    return docs


def split_documents(files):
    """(train, validation): every 20th document of each file is held out."""
    train, val = [], []
    for name in files:
        for k, doc in enumerate(read_documents(name)):
            (val if k % 20 == 0 else train).append(doc)
    return train, val
