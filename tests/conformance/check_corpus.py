#!/usr/bin/env python3
"""Conformance: tfq agrees with Google's protobuf (via ../shared/oracle) on real TFRecord files.

For every file of ../shared/corpus listed in oracle/corpus_modes.tsv:
  * `tfq inspect --records --format proto-json` equals *.oracle.proto.jsonl.gz as JSON values;
  * `tfq inspect --count` equals the oracle's record count;
  * `tfq inspect --index` equals *.oracle.idx byte for byte;
  * `tfq inspect --verify` succeeds;
  * `tfq inspect --json` schema (kinds, presence, value counts) and byte totals equal the oracle's
    *.oracle.summary.json.
Usage: check_corpus.py TFQ_BINARY SHARED_DIR. Exits 77 (skip) when SHARED_DIR has no corpus.
Standard library only.
"""
import gzip
import json
import os
import subprocess
import sys

SKIP = 77


def run(tfq, args):
    p = subprocess.run([tfq] + args, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def oracle_kind(kind):
    # The oracle prints a Feature with no list as kind null / kinds_seen "null"; tfq says "none".
    return "none" if kind in (None, "null") else kind


def compare_schema(ours, theirs, sequence):
    problems = []
    sections = [("context", "context"), ("feature_lists", "feature_lists")] if sequence else [
        ("features", "features")]
    for our_key, their_key in sections:
        a = ours.get(our_key, {})
        b = theirs.get(their_key, {})
        if sorted(a) != sorted(b):
            problems.append(f"{our_key}: names differ: {sorted(a)} vs {sorted(b)}")
            continue
        for name in b:
            x, y = a[name], b[name]
            checks = {
                "kind": (x["kind"], oracle_kind(y["kind"])),
                "kinds_seen": (sorted(x["kinds_seen"]), sorted(oracle_kind(k) for k in y["kinds_seen"])),
                "present_in": (x["present_in"], y["present_in"]),
                "min_count": (x["min_count"], y["min_count"]),
                "max_count": (x["max_count"], y["max_count"]),
                "total_values": (x["total_values"], y["total_values"]),
            }
            if our_key == "feature_lists":
                checks["min_steps"] = (x["min_steps"], y["min_steps"])
                checks["max_steps"] = (x["max_steps"], y["max_steps"])
                checks["steps_total"] = (x["steps_total"], y["steps_total"])
            for field, (p, q) in checks.items():
                if p != q:
                    problems.append(f"{our_key}.{name}.{field}: tfq {p} vs oracle {q}")
    return problems


def check_file(tfq, corpus, rel, mode):
    path = os.path.join(corpus, rel)
    problems = []
    seq = ["--sequence"] if mode == "sequence" else []

    code, out, err = run(tfq, ["inspect", "--count", path])
    idx_path = path + ".oracle.idx"
    with open(idx_path, "rb") as f:
        idx = f.read()
    expected_count = idx.count(b"\n")
    if code != 0 or out.strip() != str(expected_count).encode():
        problems.append(f"--count: exit {code}, printed {out.strip()!r}, oracle {expected_count}; {err}")

    code, out, err = run(tfq, ["inspect", "--index", path])
    if code != 0 or out != idx:
        problems.append(f"--index differs from {os.path.basename(idx_path)} (exit {code}); {err}")

    verify_args = ["--raw"] if mode == "raw" else seq
    code, out, err = run(tfq, ["inspect", "--verify"] + verify_args + [path])
    if code != 0:
        problems.append(f"--verify failed (exit {code}): {err.strip()}")

    if mode == "raw":
        return problems

    code, out, err = run(tfq, ["inspect", "--records", "--format", "proto-json"] + seq + [path])
    with gzip.open(path + ".oracle.proto.jsonl.gz", "rt") as f:
        expected = [json.loads(line) for line in f]
    got = [json.loads(line) for line in out.decode().splitlines()]
    if code != 0:
        problems.append(f"--records: exit {code}: {err.strip()}")
    if len(got) != len(expected):
        problems.append(f"--records: {len(got)} records, oracle {len(expected)}")
    for i, (a, b) in enumerate(zip(got, expected)):
        if a != b:
            problems.append(f"--records: record {i} differs:\n  tfq    {json.dumps(a)[:400]}\n  oracle {json.dumps(b)[:400]}")
            break

    code, out, err = run(tfq, ["inspect", "--json"] + seq + [path])
    with open(path + ".oracle.summary.json") as f:
        summary = json.load(f)
    if code != 0:
        problems.append(f"--json: exit {code}: {err.strip()}")
    else:
        ours = json.loads(out)
        for ours_key, theirs_key in [("records", "records"), ("payload_bytes", "payload_bytes"),
                                     ("stream_bytes", "uncompressed_bytes"),
                                     ("file_bytes", "file_bytes"),
                                     ("min_record_bytes", "min_record_bytes"),
                                     ("max_record_bytes", "max_record_bytes")]:
            if ours[ours_key] != summary[theirs_key]:
                problems.append(f"--json {ours_key}: tfq {ours[ours_key]} vs oracle {summary[theirs_key]}")
        if ours["per_file"][0]["compression"] != summary["compression"]:
            problems.append(f"compression: tfq {ours['per_file'][0]['compression']} vs oracle {summary['compression']}")
        problems += compare_schema(ours["schema"], summary, mode == "sequence")
    return problems


def main():
    tfq = sys.argv[1]
    shared = os.environ.get("TFQ_SHARED_DIR") or sys.argv[2]
    corpus = os.path.join(shared, "corpus")
    modes_file = os.path.join(shared, "oracle", "corpus_modes.tsv")
    if not os.path.isdir(corpus) or not os.path.isfile(modes_file):
        print(f"SKIP: no corpus at {corpus} (the shared folder is absent; set TFQ_SHARED_DIR)")
        return SKIP
    failed = passed = 0
    with open(modes_file) as f:
        entries = [line.split() for line in f if line.strip()]
    for rel, mode in entries:
        problems = check_file(tfq, corpus, rel, mode)
        if problems:
            failed += 1
            print(f"FAIL {rel} ({mode})")
            for p in problems:
                print("   ", p)
        else:
            passed += 1
            print(f"ok   {rel} ({mode})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
