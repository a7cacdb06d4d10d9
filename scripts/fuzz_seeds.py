#!/usr/bin/env python3
"""Seed corpora for the fuzz targets of tests/fuzz (used by scripts/fuzz.sh).

Writes OUT/<target>/ with: the committed seeds and regression inputs of tests/fuzz; small slices
of the shared corpus, images and CSV tables (read from --shared, never copied into the repo;
skipped with a message where it is absent); and small files made by tfq itself from testdata/
when --tfq names a binary. Every seed carries the option bytes its target reads first
(tests/fuzz/*_fuzzer.cc). Seeds are kept small (tens of KB) so that the fuzzers stay fast.
"""
import argparse
import gzip
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

TARGETS = ["tfrecord_reader", "example_decode", "example_columns", "jsonl_read", "csv_read",
           "image_convert"]
MAX_SEED = 32 << 10
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def decompress(data):
    """The record stream of a TFRecord file: plain, gzip or zlib."""
    try:
        if data[:2] == b"\x1f\x8b":
            return gzip.decompress(data)
        if len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0:
            return zlib.decompress(data)
    except (OSError, EOFError, zlib.error):
        return b""
    return data


def records(stream, limit):
    """Up to `limit` record payloads from framed bytes (CRCs not checked: seeds only)."""
    out, pos = [], 0
    while len(out) < limit and pos + 12 <= len(stream):
        (length,) = struct.unpack_from("<Q", stream, pos)
        if pos + 16 + length > len(stream):
            break
        out.append(stream[pos + 12:pos + 12 + length])
        pos += 16 + length
    return out


class Seeds:
    def __init__(self, out):
        self.out = out
        self.count = {t: 0 for t in TARGETS}

    def add(self, target, data):
        name = hashlib.sha1(data).hexdigest()[:16]
        with open(os.path.join(self.out, target, name), "wb") as f:
            f.write(data)
        self.count[target] += 1


def add_committed(seeds):
    for target in TARGETS:
        for kind in ("seeds", "regressions"):
            folder = os.path.join(REPO, "tests", "fuzz", kind, target)
            for root, _, files in os.walk(folder):
                for name in sorted(files):
                    with open(os.path.join(root, name), "rb") as f:
                        seeds.add(target, f.read())


def add_tfrecord_file(seeds, data):
    stream = decompress(data)
    recs = records(stream, 8)
    if not recs:
        return
    seeds.add("tfrecord_reader", b"\x03" + data[:MAX_SEED])  # sniffed, fail on corruption
    seeds.add("tfrecord_reader", b"\x0b" + data[:MAX_SEED // 4])  # sniffed, resync, cut short
    seeds.add("tfrecord_reader", b"\x13" + data[:MAX_SEED // 4])  # sniffed, skip only
    for i, r in enumerate(recs):
        if len(r) <= MAX_SEED:
            seeds.add("example_decode", r)
            seeds.add("example_columns", bytes([i % 3]) + r)  # first byte: the bytes layout


def add_shared(seeds, shared):
    corpus = os.path.join(shared, "corpus")
    if not os.path.isdir(corpus):
        print(f"fuzz seeds: {shared} is absent: no shared seeds (corpus, images, csv)")
        return
    for root, _, files in os.walk(corpus):
        for name in sorted(files):
            path = os.path.join(root, name)
            if name.endswith(".proto.jsonl.gz"):
                lines = gzip.open(path, "rb").read().splitlines()[:4]
                text = b"\n".join(line for line in lines if len(line) <= MAX_SEED // 4)
                if text:
                    seeds.add("jsonl_read", (b"\x01" if b"featureLists" in text else b"\x00") + text + b"\n")
            elif not name.endswith((".idx", ".json", ".md", ".gz")) or "tfrecord" in name:
                if os.path.getsize(path) <= 256 << 20:
                    with open(path, "rb") as f:
                        add_tfrecord_file(seeds, f.read(4 << 20))
    images = os.path.join(shared, "images")
    picks = []
    odd = os.path.join(images, "odd")
    if os.path.isdir(odd):
        picks += [os.path.join(odd, n) for n in sorted(os.listdir(odd))]
    for root, _, files in sorted(os.walk(os.path.join(images, "imagenet"))):
        picks += [os.path.join(root, n) for n in sorted(files)[:2]]
        if len(picks) > 40:
            break
    for i, path in enumerate(picks):
        if os.path.isfile(path) and os.path.getsize(path) <= 256 << 10:
            with open(path, "rb") as f:
                # Alternate resize modes and formats; size 32 (see image_convert_fuzzer.cc).
                seeds.add("image_convert", bytes([(i * 5) & 0x1F | 0x01, 31]) + f.read())
    csv_dir = os.path.join(shared, "csv")
    if os.path.isdir(csv_dir):
        for i, name in enumerate(sorted(os.listdir(csv_dir))):
            if name.endswith((".csv", ".tsv")):
                with open(os.path.join(csv_dir, name), "rb") as f:
                    head = f.read(MAX_SEED // 4)
                head = head[: head.rfind(b"\n") + 1] or head
                seeds.add("csv_read", bytes([0x40 if i % 2 else 0x00, 63]) + head)
                seeds.add("csv_read", bytes([0x90, 7]) + head[:2048])


def add_made_by_tfq(seeds, tfq):
    if not tfq:
        print("fuzz seeds: no tfq binary (build/tfq): no seeds made by tfq")
        return
    jsonl = os.path.join(REPO, "testdata", "flowers.jsonl")
    with tempfile.TemporaryDirectory() as tmp:
        for suffix, mode in (("", 0x00), (".gz", 0x01), (".zz", 0x02)):
            out = os.path.join(tmp, "flowers.tfrecord" + suffix)
            subprocess.run([tfq, "convert", "-q", "--threads", "1", jsonl, "-o", out], check=True)
            with open(out, "rb") as f:
                data = f.read()
            seeds.add("tfrecord_reader", bytes([mode]) + data[:MAX_SEED])
            add_tfrecord_file(seeds, data)
        plain = os.path.join(tmp, "flowers.tfrecord")
        for form in ("flat", "proto-json"):
            text = subprocess.run([tfq, "inspect", "--records", "--format", form, "--head", "4", plain],
                                  check=True, capture_output=True).stdout
            seeds.add("jsonl_read", b"\x00" + text)
        csv = os.path.join(tmp, "flowers.csv")
        subprocess.run([tfq, "convert", "-q", plain, "-o", csv], check=True)
        with open(csv, "rb") as f:
            seeds.add("csv_read", b"\x00\x20" + f.read(MAX_SEED // 4))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", required=True)
    parser.add_argument("--tfq", default="")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    for target in TARGETS:
        os.makedirs(os.path.join(args.out, target))
    seeds = Seeds(args.out)
    add_committed(seeds)
    add_shared(seeds, args.shared)
    add_made_by_tfq(seeds, args.tfq)
    print("fuzz seeds: " + ", ".join(f"{t} {n}" for t, n in seeds.count.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
