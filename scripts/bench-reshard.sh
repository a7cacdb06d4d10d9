#!/usr/bin/env bash
# Benchmark for `tfq shard` and `tfq shuffle` (issue 5), against the baselines the issue names,
# measured in the same run on the same file:
#   shard  : `tfq shard FILE --shards 8` (uncompressed in and out) vs `cp FILE` (goal: >= 0.8x
#            cp's throughput);
#   shuffle: `tfq shuffle FILE --memory 512MB` vs three sequential passes `cat FILE; cat FILE;
#            cp FILE` (goal: <= 1.5x their time), with peak RSS from /usr/bin/time (goal: within
#            --memory plus the constant of docs/shuffle.md). The method tfq picks for this input
#            (re-reading for 64 KiB records, re-scanning for 1 KiB ones: docs/shuffle.md) is timed,
#            and the bucket and re-scanning methods forced (--method buckets, --method rescan).
# Each command runs RUNS times, interleaved with the others (each run in another seeded random
# order), and the median is reported. Before
# every timed command the outputs are deleted, `sync` flushes what earlier commands left dirty
# (untimed), and the input is read once into the page cache; timed commands do not sync.
# Prints a Markdown table for docs/benchmarks.md.
#
#   scripts/bench-reshard.sh [SIZE_MiB=4096] [RECORD_KiB=64] [RUNS=3] [MEMORY=512MB]
#   scripts/bench-reshard.sh 4096 1     # the small-record case: 4 GiB of 1 KiB records
# Environment: TFQ (default build/tfq, a Release build), BENCH_DIR (default: a new directory
# under /tmp; it needs about 4 x SIZE free), BENCH_INPUT (an existing TFRecord file to use
# instead of generating one; SIZE and RECORD_KiB then only label it; it is not deleted).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
size_mib=${1:-4096}
record_kib=${2:-64}
runs=${3:-3}
memory=${4:-512MB}
tfq=${TFQ:-build/tfq}
[[ -x $tfq ]] || { echo "build tfq first (cmake --build build), or set TFQ" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (apt-get install -y time)" >&2; exit 1; }
dir=${BENCH_DIR:-$(mktemp -d /tmp/tfq-bench-reshard-XXXXXX)}
mkdir -p "$dir/out"
trap 'rm -rf "$dir/out" "$dir/data.tfrecord" "$dir/times" "$dir/time"; rmdir "$dir" 2>/dev/null || true' EXIT

# Distinct records of ~RECORD_KiB: an id and a slice of incompressible text, as JSON lines
# converted by tfq itself (nothing else here can frame TFRecords).
file=${BENCH_INPUT:-$dir/data.tfrecord}
[[ -n ${BENCH_INPUT:-} ]] || echo "generating ${size_mib} MiB of ${record_kib} KiB records ..." >&2
[[ -n ${BENCH_INPUT:-} ]] || /usr/bin/python3 - "$size_mib" "$record_kib" <<'PY' | "$tfq" convert - --from jsonl -o "$file" -q
import base64, random, sys
size_mib, record_kib = int(sys.argv[1]), int(sys.argv[2])
random.seed(1)
n = record_kib * 1024 - 48
blob = base64.b64encode(random.randbytes(n)).decode()[:n]
twice = blob + blob
out = sys.stdout
for i in range(size_mib * 1024 // record_kib):
    j = (i * 7919) % (n - 16)
    out.write('{"id":[%d],"image/encoded":["%s%016d"]}\n' % (i, twice[j:j + n - 16], i))
PY
bytes=$(stat -c %s "$file")
records=$("$tfq" inspect --count "$file")

# run NAME COMMAND: one timed run; appends "NAME seconds peak_kib" to $dir/times.
run() {
  local name=$1 cmd=$2
  rm -rf "$dir/out" && mkdir -p "$dir/out"
  sync
  cat "$file" > /dev/null
  /usr/bin/time -f "%e %M" -o "$dir/time" bash -c "$cmd" > /dev/null
  echo "$name $(cat "$dir/time")" >> "$dir/times"
}
: > "$dir/times"
names=(cp shard passes shuffle buckets rescan)
commands=(
  "cp '$file' '$dir/out/copy'"
  "'$tfq' shard '$file' -o '$dir/out/s' --shards 8 -q"
  "cat '$file' > /dev/null; cat '$file' > /dev/null; cp '$file' '$dir/out/copy'"
  "'$tfq' shuffle '$file' -o '$dir/out/x' --seed 1 --memory $memory -q"
  "'$tfq' shuffle '$file' -o '$dir/out/x' --seed 1 --memory $memory --method buckets --tmp-dir '$dir/out' -q"
  "'$tfq' shuffle '$file' -o '$dir/out/x' --seed 1 --memory $memory --method rescan -q"
)
for ((i = 0; i < runs; ++i)); do
  echo "run $((i + 1)) of $runs ..." >&2
  seeded_order ${#names[@]} "$i"
  for c in "${order[@]}"; do
    run "${names[c]}" "${commands[c]}"
  done
done
method=$("$tfq" shuffle "$file" -o "$dir/out/m" --seed 1 --memory "$memory" --json |
         /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["method"])')
rm -rf "$dir/out"

/usr/bin/python3 - "$dir/times" "$bytes" "$records" "$record_kib" "$memory" "$method" "$runs" <<'PY'
import collections, datetime, os, statistics, subprocess, sys
path, b, n, kib, memory, method, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7]
t, rss = collections.defaultdict(list), collections.defaultdict(list)
for line in open(path):
    name, sec, kb = line.split()
    t[name].append(float(sec)); rss[name].append(int(kb))
med = {k: statistics.median(v) for k, v in t.items()}
peak = {k: max(v) for k, v in rss.items()}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
load = open("/proc/loadavg").read().split()[:3]
def size(s):
    s = s.strip().upper().rstrip("B")
    for unit, f in (("GI", 2**30), ("MI", 2**20), ("KI", 2**10), ("G", 1e9), ("M", 1e6), ("K", 1e3)):
        if s.endswith(unit): return float(s[:-len(unit)]) * f
    return float(s)
limit_mib = size(memory) / 2**20
gbs = lambda sec: b / sec / 1e9
print(f"Machine: {cpu}, {os.cpu_count()} cores, {mem_gib:.0f} GiB RAM; {datetime.date.today()}; "
      f"load average at the end {' '.join(load)}. Input: {b / 2**30:.2f} GiB, {n} records of {kib} KiB, "
      f"uncompressed, read into the page cache before each command; median of {runs} runs.")
print()
print("| command | median time | throughput | ratio | goal | peak RSS |")
print("|---|---|---|---|---|---|")
print(f"| `cp FILE OUT` | {med['cp']:.2f} s | {gbs(med['cp']):.2f} GB/s | 1.00x | | |")
print(f"| `tfq shard FILE -o OUT --shards 8` | {med['shard']:.2f} s | {gbs(med['shard']):.2f} GB/s | "
      f"{med['cp'] / med['shard']:.2f}x cp's throughput | >= 0.8x | {peak['shard'] / 1024:.0f} MiB |")
print(f"| `cat FILE; cat FILE; cp FILE OUT` | {med['passes']:.2f} s | | 1.00x | | |")
print(f"| `tfq shuffle FILE -o OUT --seed 1 --memory {memory}` ({method}) | {med['shuffle']:.2f} s | "
      f"{gbs(med['shuffle']):.2f} GB/s | {med['shuffle'] / med['passes']:.2f}x the three passes' time | <= 1.5x | "
      f"{peak['shuffle'] / 1024:.0f} MiB (limit {limit_mib:.0f} + 8) |")
print(f"| same, `--method buckets` (spills to a temporary file) | {med['buckets']:.2f} s | "
      f"{gbs(med['buckets']):.2f} GB/s | {med['buckets'] / med['passes']:.2f}x the three passes' time | | "
      f"{peak['buckets'] / 1024:.0f} MiB (limit {limit_mib:.0f} + 8) |")
print(f"| same, `--method rescan` (scans the input once per key range) | {med['rescan']:.2f} s | "
      f"{gbs(med['rescan']):.2f} GB/s | {med['rescan'] / med['passes']:.2f}x the three passes' time | | "
      f"{peak['rescan'] / 1024:.0f} MiB (limit {limit_mib:.0f} + 8) |")
PY
