#!/usr/bin/env bash
# Benchmark for writing gzip on every core (issue 19): tfq's compressing streams cut the data into
# blocks compressed on --threads threads (src/io/deflater.h), against gzip -6 (one thread) and
# pigz -6 -p T (Debian's pigz, the same method) compressing the same TFRecord file, in one run:
#   tfq shard FILE --shards 1 -c gzip --threads T   (read, frame, compress, write one file)
#   tfq convert CSV -o OUT.tfrecord.gz --threads T  (the same records from their CSV)
#   gzip -6 -c FILE, pigz -6 -p T -c FILE           (peers: compress the file, nothing else)
# Two tables: text-heavy rows (where tfq picks zlib 6) and numeric rows (where it picks ISA-L
# level 1, if built with it). Each command runs RUNS times, interleaved; medians. Prints Markdown
# for docs/benchmarks.md, with each output's size against gzip -6's.
#
#   scripts/bench-gzip-write.sh [THREADS=1,<cores>] [RUNS=3] [MiB=100]
# Environment: TFQ (default build/tfq, a Release build), SHARED (default ../shared: the text table
# is its csv/airports.csv, repeated to MiB), BENCH_DIR (default: a new directory under /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
threads=${1:-1,$(nproc)}
runs=${2:-3}
mib=${3:-100}
tfq=${TFQ:-build/tfq}
shared=${SHARED:-../shared}
[[ -x $tfq ]] || { echo "build tfq first (cmake --build build), or set TFQ" >&2; exit 1; }
command -v pigz >/dev/null || { echo "needs pigz (apt-get install -y pigz)" >&2; exit 1; }
[[ -f $shared/csv/airports.csv ]] || { echo "needs $shared/csv/airports.csv (set SHARED)" >&2; exit 1; }
dir=${BENCH_DIR:-$(mktemp -d /tmp/tfq-bench-gzip-XXXXXX)}
mkdir -p "$dir/out"
trap 'rm -rf "$dir"' EXIT

/usr/bin/python3 - "$shared/csv/airports.csv" "$dir" "$mib" <<'PY'
import random, sys
src, d, mib = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(src, encoding="utf-8").read().splitlines(keepends=True)
with open(f"{d}/text.csv", "w", encoding="utf-8") as f:
    f.write(lines[0])
    size = 0
    while size < mib << 20:
        for l in lines[1:]:
            f.write(l)
            size += len(l)
r = random.Random(5)
with open(f"{d}/numbers.csv", "w") as f:
    f.write("id,a,b,c,x,y\n")
    size, i = 0, 0
    while size < mib << 20:
        l = "%d,%d,%d,%d,%.6f,%.6f\n" % (i, r.randrange(1000), r.randrange(10**6), r.randrange(2), r.random(), r.gauss(0, 1))
        f.write(l)
        size += len(l)
        i += 1
PY
for t in text numbers; do "$tfq" convert "$dir/$t.csv" -o "$dir/$t.tfrecord" -q; done

: > "$dir/times"
: > "$dir/sizes"
names=() commands=()
for t in text numbers; do
  names+=("$t gzip-6"); commands+=("gzip -6 -c '$dir/$t.tfrecord' > '$dir/out/o'")
  for n in ${threads//,/ }; do
    names+=("$t pigz-$n"); commands+=("pigz -6 -p $n -c '$dir/$t.tfrecord' > '$dir/out/o'")
    names+=("$t shard-$n"); commands+=("'$tfq' shard '$dir/$t.tfrecord' -o '$dir/out/s' --shards 1 -c gzip --threads $n -q")
    names+=("$t convert-$n"); commands+=("'$tfq' convert '$dir/$t.csv' -o '$dir/out/c.tfrecord.gz' --threads $n -q")
  done
done
for ((i = 0; i < runs; ++i)); do
  echo "run $((i + 1)) of $runs ..." >&2
  seeded_order ${#names[@]} "$i"
  for c in "${order[@]}"; do
    rm -rf "$dir/out" && mkdir -p "$dir/out"
    cat "$dir"/*.tfrecord "$dir"/*.csv > /dev/null
    /usr/bin/time -f "%e" -o "$dir/time" bash -c "${commands[c]}"
    echo "${names[c]}|$(cat "$dir/time")|$(cat "$dir"/out/* | wc -c)" >> "$dir/times"
  done
done

/usr/bin/python3 - "$dir" "$runs" "$threads" "$("$tfq" --version | head -1)" <<'PY'
import collections, datetime, os, statistics, sys
d, runs, threads, version = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4]
t, size = collections.defaultdict(list), {}
for line in open(f"{d}/times"):
    name, sec, b = line.strip().split("|")
    t[name].append(float(sec)); size[name] = int(b)
med = {k: statistics.median(v) for k, v in t.items()}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"Machine: {cpu}, {os.cpu_count()} cores; {datetime.date.today()}; {version}; "
      f"load average at the end {' '.join(open('/proc/loadavg').read().split()[:3])}; median of {runs} runs.")
for kind in ("text", "numbers"):
    mb = os.path.getsize(f"{d}/{kind}.tfrecord") / 1e6
    g = f"{kind} gzip-6"
    print()
    print(f"{kind}: {mb:.0f} MB of TFRecords ({os.path.getsize(f'{d}/{kind}.csv') / 1e6:.0f} MB of CSV)")
    print()
    print("| command | threads | time | MB/s of TFRecords | vs gzip -6 | vs pigz, same threads | size vs gzip -6 |")
    print("|---|---|---|---|---|---|---|")
    print(f"| `gzip -6 -c FILE` | 1 | {med[g]:.2f} s | {mb / med[g]:.0f} | 1.00x | | 1.000 |")
    for n in threads:
        p = f"{kind} pigz-{n}"
        for cmd, key in (("`pigz -6 -p T -c FILE`", p), ("`tfq shard FILE --shards 1 -c gzip`", f"{kind} shard-{n}"),
                         ("`tfq convert CSV -o OUT.tfrecord.gz`", f"{kind} convert-{n}")):
            vs_pigz = "" if key == p else f"{med[p] / med[key]:.2f}x"
            print(f"| {cmd} | {n} | {med[key]:.2f} s | {mb / med[key]:.0f} | {med[g] / med[key]:.2f}x | {vs_pigz} | "
                  f"{size[key] / size[g]:.3f} |")
PY
