#!/usr/bin/env bash
# Benchmark for the foundation issue: on an uncompressed TFRecord file in the page cache,
# `tfq inspect --verify` (every CRC + every payload parsed) and `tfq inspect --count` (headers
# only) against `cat FILE > /dev/null`, measured in the same run. Prints a Markdown table with
# the machine, the date and the ratios (paste it into docs/benchmarks.md).
#
#   scripts/bench-inspect.sh [SIZE_MiB=1024] [RECORD_KiB=64] [RUNS=7]
# Needs a Release build in build/ (scripts/demo.sh or cmake --build build).
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib=${1:-1024}
record_kib=${2:-64}
runs=${3:-7}
tfq=${TFQ:-build/tfq}
[[ -x $tfq ]] || { echo "build tfq first: cmake --build build" >&2; exit 1; }
dir=$(mktemp -d /tmp/tfq-bench-XXXXXX)
trap 'rm -rf "$dir"' EXIT

# One Example with a bytes feature of ~RECORD_KiB (incompressible text) and a few numbers,
# framed once by tfq, then repeated to SIZE_MiB: a valid file of identical records.
/usr/bin/python3 - "$dir/one.jsonl" "$record_kib" <<'PY'
import base64, json, random, sys
random.seed(1)
n = int(sys.argv[2]) * 1024 - 64
blob = base64.b64encode(random.randbytes(n * 3 // 4)).decode()[:n]
json.dump({"image/encoded": [blob], "image/class/label": [7], "image/height": [224],
           "image/width": [224], "score": [0.5]}, open(sys.argv[1], "w"))
PY
$tfq convert "$dir/one.jsonl" -o "$dir/one.tfrecord" --quiet
/usr/bin/python3 - "$dir/one.tfrecord" "$dir/data.tfrecord" "$size_mib" <<'PY'
import sys
one = open(sys.argv[1], "rb").read()
count = int(sys.argv[3]) * 1024 * 1024 // len(one)
with open(sys.argv[2], "wb") as f:
    chunk = one * max(1, (8 << 20) // len(one))
    per = len(chunk) // len(one)
    written = 0
    while written + per <= count:
        f.write(chunk); written += per
    f.write(one * (count - written))
PY
file="$dir/data.tfrecord"
bytes=$(stat -c %s "$file")
records=$($tfq inspect --count "$file")
cat "$file" > /dev/null  # into the page cache

# Median wall times of RUNS runs of each command, in seconds. The commands take turns (cat,
# verify, count, cat, ...) so that a drift in the machine (another process, the kernel splitting
# page-cache folios) falls on all of them alike, and run directly with stdout on /dev/null: no
# shell in between, whose start would add the same constant to every time.
read -r t_cat t_verify t_count < <(/usr/bin/python3 - "$runs" "$tfq" "$file" <<'PY'
import statistics, subprocess, sys, time
runs, tfq, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
cmds = [["cat", path], [tfq, "inspect", "--verify", path], [tfq, "inspect", "--count", path]]
run = lambda cmd: subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
for cmd in cmds:
    run(cmd)  # warm-up
times = [[] for _ in cmds]
for _ in range(runs):
    for cmd, t in zip(cmds, times):
        start = time.perf_counter(); run(cmd); t.append(time.perf_counter() - start)
print(" ".join(f"{statistics.median(t):.4f}" for t in times))
PY
)

/usr/bin/python3 - "$bytes" "$records" "$t_cat" "$t_verify" "$t_count" "$record_kib" <<'PY'
import os, platform, subprocess, sys, datetime
b, n, cat, verify, count, kib = int(sys.argv[1]), int(sys.argv[2]), *map(float, sys.argv[3:6]), sys.argv[6]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
gbs = lambda t: b / t / 1e9
print(f"Machine: {cpu}, {os.cpu_count()} cores; {datetime.date.today()}; "
      f"file: {b / 2**20:.0f} MiB, {n} records of {kib} KiB, uncompressed, in the page cache")
print()
print("| command | median time | throughput | ratio to cat |")
print("|---|---|---|---|")
print(f"| `cat FILE > /dev/null` | {cat*1000:.1f} ms | {gbs(cat):.2f} GB/s | 1.00x |")
print(f"| `tfq inspect --verify FILE` | {verify*1000:.1f} ms | {gbs(verify):.2f} GB/s | {cat/verify:.2f}x |")
print(f"| `tfq inspect --count FILE` | {count*1000:.1f} ms | {gbs(count):.2f} GB/s | {cat/count:.2f}x |")
PY
