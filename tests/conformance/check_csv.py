#!/usr/bin/python3
"""Checks tfq's CSV -> TFRecord conversion against Python's csv module and the protobuf oracle.

    check_csv.py ORACLE CSV SCHEMA.json RECORDS.tfrecord [--delimiter D] [--na-value V]...

Reads CSV with the standard library's csv module (RFC 4180, a BOM skipped, blank lines skipped),
decodes RECORDS with ORACLE (shared/oracle/tfrecord_oracle.py, Google's protobuf) and checks that
record k holds exactly the values row k has under SCHEMA (what `tfq convert --print-schema`
printed): one feature per schema column, of the column's kind; int64 parsed as Python int, float
as the float32 nearest Python's float(), bytes as the UTF-8 bytes; a list column split on its
separator; an empty (or NA) field as the default, else an empty list. Exit 0 if every record
agrees, 1 with the first differences otherwise.
"""

import argparse
import base64
import csv
import json
import math
import struct
import subprocess
import sys


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def parse_value(kind, text):
    if kind == "int64":
        return int(text)
    if kind == "float":
        return f32(float(text))
    return text.encode("utf-8", "surrogateescape")


def expected_feature(col, field, na_values):
    kind = col["kind"]
    sep = col.get("list_separator")
    if field == "" or field in na_values:
        if "default" not in col:
            return kind, []
        d = col["default"]
        values = d if isinstance(d, list) else [d]
        return kind, [parse_value(kind, str(v)) if kind != "bytes" else str(v).encode() for v in values]
    parts = field.split(sep) if sep else [field]
    return kind, [parse_value(kind, p) for p in parts]


def oracle_values(feature):
    kind = feature["kind"]
    values = feature["values"]
    if kind == "bytes":
        return kind, [base64.b64decode(v) for v in values]
    if kind == "float":
        return kind, [float(v) if not isinstance(v, str) else float(v.replace("Infinity", "inf")) for v in values]
    return kind, values


def same(a, b):
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) and isinstance(y, float):
            if math.isnan(x) and math.isnan(y):
                continue
            if x != y or math.copysign(1, x) != math.copysign(1, y):
                return False
        elif x != y:
            return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("oracle")
    ap.add_argument("csv")
    ap.add_argument("schema")
    ap.add_argument("records")
    ap.add_argument("--delimiter", default=",")
    ap.add_argument("--na-value", action="append", default=[])
    args = ap.parse_args()

    with open(args.schema) as f:
        schema = json.load(f)["columns"]
    with open(args.csv, encoding="utf-8-sig", errors="surrogateescape", newline="") as f:
        reader = csv.reader(f, delimiter=args.delimiter, strict=True)
        header = next(reader)
        index = {name: i for i, name in enumerate(header)}
        rows = [row for row in reader if row]
    oracle = subprocess.run([sys.executable, args.oracle, args.records], check=True,
                            capture_output=True, text=True).stdout.splitlines()
    problems = []
    if len(oracle) != len(rows):
        problems.append(f"{len(oracle)} records, {len(rows)} CSV rows")
    for k, (line, row) in enumerate(zip(oracle, rows)):
        features = json.loads(line)["features"]
        if set(features) != {c["name"] for c in schema}:
            problems.append(f"record {k}: features {sorted(features)}")
        for col in schema:
            want = expected_feature(col, row[index[col["name"]]], args.na_value)
            got = oracle_values(features.get(col["name"], {"kind": None, "values": []}))
            if got[0] != want[0] or not same(got[1], want[1]):
                problems.append(f"record {k} column {col['name']}: tfq {got}, csv module {want}")
        if len(problems) > 10:
            break
    if problems:
        print(f"{args.csv}: " + "\n  ".join(problems[:10]))
        return 1
    print(f"{args.csv}: {len(rows)} rows x {len(schema)} columns agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
