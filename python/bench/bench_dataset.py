"""Batches per second of tfq.Dataset against the C++ `tfq bench --workloads reader-batcher` on the
same file in the same run, and against a pure-Python reader (framing in Python,
Example.FromString from python3-protobuf, NumPy arrays per batch). docs/benchmarks.md, "Python".

    python bench_dataset.py --tfq build/tfq --oracle ../shared/oracle [--records 200000]
        [--threads 2] [--seconds 3]

The file is generated (tfq.Writer) unless --input names one. Every reader runs the same work: batches
of 32 with every feature of the first record as a VarLenFeature of its kind (what reader-batcher
does), one file, `--threads` parse threads. A PyTorch DataLoader (num_workers 0 and 2) is measured
where torch imports.
"""

import argparse
import json
import os
import platform
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

import tfq

BATCH = 32


def make_file(path, records):
    rng = np.random.default_rng(1)
    with tfq.Writer(path) as w:
        for i in range(records):
            w.write({"label": int(rng.integers(0, 1000)), "dense": rng.random(16, dtype=np.float32),
                     "tokens": rng.integers(0, 30000, int(rng.integers(1, 16))),
                     "id": b"%032d" % i})


def timed(seconds, make_iter, count):
    """(records/s, batches/s) of passes over make_iter() for about `seconds`, after one warm-up batch."""
    records = batches = 0
    started = None
    while True:
        for batch in make_iter():
            if started is None:
                started = time.perf_counter()
                continue
            records += count(batch)
            batches += 1
            if time.perf_counter() - started >= seconds:
                elapsed = time.perf_counter() - started
                return records / elapsed, batches / elapsed


def tfq_dataset(path, features, threads):
    return lambda: iter(tfq.Dataset(path, batch_size=BATCH, features=features, num_threads=threads,
                                    reader_threads=1, cycle_length=1, epochs=None))


def pure_python_batches(path, pb):
    """A pure-Python reader: framing with struct (CRCs not checked), protobuf per record, NumPy
    arrays per batch (ragged: values + row splits)."""
    def batches():
        with open(path, "rb") as f:
            data = f.read()
        off, rows = 0, []
        while off < len(data):
            (length,) = struct.unpack_from("<Q", data, off)
            rows.append(pb.Example.FromString(data[off + 12:off + 12 + length]))
            off += 16 + length
            if len(rows) == BATCH or off >= len(data):
                out = {}
                for key in ("label", "dense", "tokens", "id"):
                    lists = [getattr(r.features.feature[key], r.features.feature[key].WhichOneof("kind")).value
                             for r in rows]
                    splits = np.cumsum([0] + [len(v) for v in lists], dtype=np.int64)
                    if key == "id":
                        values = np.array([v for vs in lists for v in vs], dtype=object)
                    else:
                        values = np.array([v for vs in lists for v in vs],
                                          dtype=np.float32 if key == "dense" else np.int64)
                    out[key] = (values, splits)
                yield out
                rows = []
    return batches


def cpp_reader_batcher(tfq_binary, path, threads, seconds):
    run = subprocess.run([tfq_binary, "bench", "--workloads", "reader-batcher", "--threads", str(threads),
                          "--seconds", str(seconds), "--json", path], capture_output=True, text=True, check=True)
    report = json.loads(run.stdout)
    (result,) = [r for r in report["results"] if r["workload"] == "reader-batcher"]
    rates = {r["unit"]: r["median"] for r in result["rates"]}
    return rates["records/s"], rates["batches/s"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfq", required=True, help="the tfq binary (build/tfq)")
    parser.add_argument("--input")
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; medians are reported")
    parser.add_argument("--oracle", help="../shared/oracle, for the pure-Python reader's protobuf classes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.input or os.path.join(tmp, "bench.tfrecord")
        if not args.input:
            make_file(path, args.records)
        varlen = {k: tfq.VarLen(spec.dtype) for k, spec in tfq.infer_features(path, max_records=1).items()}
        fixed = tfq.infer_features(path)
        out = {"machine": f"{platform.node()}, {os.cpu_count()} cores, {platform.python_implementation()} "
                          f"{platform.python_version()}", "threads": args.threads,
               "file_bytes": os.path.getsize(path), "records": tfq.count(path)}
        ragged = lambda b: len(next(iter(b.values())).row_splits) - 1  # noqa: E731
        runs = {
            "cpp_reader_batcher": lambda: cpp_reader_batcher(args.tfq, path, args.threads, args.seconds),
            "tfq_dataset_varlen": lambda: timed(args.seconds, tfq_dataset(path, varlen, args.threads), ragged),
            "tfq_dataset_inferred": lambda: timed(args.seconds, tfq_dataset(path, fixed, args.threads),
                                                  lambda b: len(b["label"])),
        }
        if args.oracle:  # its protobuf classes, generated with protoc
            sys.path.insert(0, args.oracle)
            import tfrecord_oracle
            runs["pure_python"] = lambda: timed(args.seconds, pure_python_batches(path, tfrecord_oracle.example_pb2),
                                                lambda b: len(b["label"][1]) - 1)
        # Alternating rounds, medians: on a shared machine the load changes from second to second.
        samples = {name: [] for name in runs}
        for _ in range(args.rounds):
            for name, run in runs.items():
                samples[name].append(run())
        for name, values in samples.items():
            out[name] = {"records_per_s": float(np.median([v[0] for v in values])),
                         "batches_per_s": float(np.median([v[1] for v in values])),
                         "records_per_s_all": [round(v[0]) for v in values]}
        cpp = out["cpp_reader_batcher"]["records_per_s"]
        for name in runs:
            out[name]["vs_cpp_reader_batcher"] = round(out[name]["records_per_s"] / cpp, 3)
        try:
            import torch
            for workers in (0, 2):
                ds = tfq.Dataset(path, batch_size=BATCH, features=fixed, epochs=1)
                loader = lambda: iter(torch.utils.data.DataLoader(ds, batch_size=None, num_workers=workers))  # noqa: E731,B023
                out[f"torch_dataloader_workers_{workers}"] = timed(args.seconds, loader, lambda b: len(b["label"]))
        except ImportError:
            out["torch"] = "not installed"
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
