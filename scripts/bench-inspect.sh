#!/usr/bin/env bash
# Benchmark for the foundation issue and issue 19: on FILES uncompressed TFRecord files in the
# page cache, `tfq inspect --verify` (every CRC + every payload parsed), `--count` (headers only)
# and `--stats` at each thread count of THREADS, against `cat FILES > /dev/null`, measured in the
# same run. Prints a Markdown table with the machine, the date and the ratios (paste it into
# docs/benchmarks.md).
#
#   scripts/bench-inspect.sh [SIZE_MiB=1024] [RECORD_KiB=64] [RUNS=7] [FILES=1] [THREADS=1,all]
#
# SIZE_MiB is per file; THREADS is a comma-separated list of --threads values, "all" for the
# default (every usable core). Issue 19's goals: 16 files on 16 cores, `--verify` >= 4x `cat`;
# on 2 cores, `--verify --threads 2` >= 1.6x `--threads 1` (one file of 1 GiB or several).
# Needs a Release build in build/ (scripts/demo.sh or cmake --build build).
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib=${1:-1024}
record_kib=${2:-64}
runs=${3:-7}
files=${4:-1}
threads_list=${5:-1,all}
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
paths=("$dir/data.tfrecord")
for ((i = 1; i < files; ++i)); do
  cp "$dir/data.tfrecord" "$dir/data-$i.tfrecord"  # copies, not links: each in the cache once
  paths+=("$dir/data-$i.tfrecord")
done
bytes=$(cat "${paths[@]}" | wc -c)
records=$($tfq inspect --count "${paths[@]}")
cat "${paths[@]}" > /dev/null  # into the page cache

# Median wall times of RUNS runs of each command, in seconds. The commands take turns (cat,
# verify, count, cat, ...) so that a drift in the machine (another process, the kernel splitting
# page-cache folios) falls on all of them alike, and run directly with stdout on /dev/null: no
# shell in between, whose start would add the same constant to every time.
/usr/bin/python3 - "$runs" "$tfq" "$bytes" "$records" "$record_kib" "$threads_list" "${paths[@]}" <<'PY'
import datetime, os, statistics, subprocess, sys, time
runs, tfq, b, n, kib, threads_list = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
paths = sys.argv[7:]
cmds = [("`cat FILES > /dev/null`", ["cat", *paths])]
for t in threads_list.split(","):
    flag = [] if t == "all" else ["--threads", t]
    label = "every core" if t == "all" else t
    for mode in ("--verify", "--count", "--stats"):
        cmds.append((f"`tfq inspect {mode}`, threads: {label}", [tfq, "inspect", mode, "-q", *flag, *paths]))
run = lambda cmd: subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for _, cmd in cmds:
    run(cmd)  # warm-up
times = [[] for _ in cmds]
for _ in range(runs):
    for (_, cmd), t in zip(cmds, times):
        start = time.perf_counter(); run(cmd); t.append(time.perf_counter() - start)
med = [statistics.median(t) for t in times]
spread = [(max(t) - min(t)) / statistics.median(t) for t in times]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"Machine: {cpu}, {os.cpu_count()} cores ({len(os.sched_getaffinity(0))} usable); {datetime.date.today()}; "
      f"{len(paths)} file(s) of {b / len(paths) / 2**20:.0f} MiB, {n} records of {kib} KiB in all, uncompressed, in the page cache; "
      f"median of {runs}")
print()
print("| command | median time | throughput | ratio to cat | spread (max-min)/median |")
print("|---|---|---|---|---|")
cat = med[0]
for (label, _), t, s in zip(cmds, med, spread):
    print(f"| {label} | {t*1000:.1f} ms | {b / t / 1e9:.2f} GB/s | {cat/t:.2f}x | {s*100:.0f}% |")
PY
