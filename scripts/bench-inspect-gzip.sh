#!/usr/bin/env bash
# Benchmark for issue 19's `tfq inspect` of one large gzip file on every core, by how the file
# was written (docs/benchmarks.md, "One gzip file on every core"):
#   tf      written as TensorFlow writes GZIP records (zlib level 6, memLevel 9, one stream) and
#           read without an index: inflated once, by whichever thread needs the next bytes
#   tfz     the same as TensorFlow's ZLIB records (no length in the trailer), read the same way
#   tfq     written by `tfq shard -c gzip` (access points announced in its header)
#   index   the tf file with `tfq inspect --index-beside`'s index beside it
# `tfq inspect --count / --verify / --stats --json --threads T FILE`, and the peers reading the
# same tf file: `gzip -dc` and `pigz -dc` (one inflating thread). Optionally the same commands of
# another tfq binary (BASE, e.g. a build of the commit before a change) on the tf file. Each
# command runs RUNS times in a seeded order; medians. Prints Markdown for docs/benchmarks.md.
#
#   scripts/bench-inspect-gzip.sh [THREADS=1,<cores>] [RUNS=3] [MiB=448]
# Environment: TFQ (default build/tfq, a Release build), BASE (optional), SHARED (default
# ../shared: the records are csv/mayweather-mcgregor-tweets.csv repeated to MiB of CSV),
# BENCH_DIR (default: a new directory under /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
threads=${1:-1,$(nproc)}
runs=${2:-3}
mib=${3:-448}
tfq=${TFQ:-build/tfq}
base=${BASE:-}
shared=${SHARED:-../shared}
table=$shared/csv/mayweather-mcgregor-tweets.csv
[[ -x $tfq ]] || { echo "build tfq first (cmake --build build), or set TFQ" >&2; exit 1; }
command -v pigz >/dev/null || { echo "needs pigz (apt-get install -y pigz)" >&2; exit 1; }
[[ -f $table ]] || { echo "needs $table (set SHARED)" >&2; exit 1; }
dir=${BENCH_DIR:-$(mktemp -d /tmp/tfq-bench-inspect-gzip-XXXXXX)}
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT

/usr/bin/python3 - "$table" "$dir/t.csv" "$mib" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().splitlines(keepends=True)
with open(sys.argv[2], "wb") as f:
    f.write(lines[0])
    size = 0
    while size < int(sys.argv[3]) << 20:
        for l in lines[1:]:
            f.write(l)
            size += len(l)
PY
"$tfq" convert "$dir/t.csv" -o "$dir/t.tfrecord" -q
/usr/bin/python3 - "$dir/t.tfrecord" "$dir" <<'PY'
import sys, zlib
# TensorFlow's ZlibCompressionOptions::GZIP() and DEFAULT() (zlib): level 6, memLevel 9.
for name, bits in (("tf.tfrecord.gz", 16 + 15), ("tfz.tfrecord.zz", 15)):
    c = zlib.compressobj(6, zlib.DEFLATED, bits, 9)
    with open(sys.argv[1], "rb") as src, open(f"{sys.argv[2]}/{name}", "wb") as out:
        while chunk := src.read(1 << 20):
            out.write(c.compress(chunk))
        out.write(c.flush())
PY
"$tfq" shard "$dir/t.tfrecord" -o "$dir/q" --shards 1 -c gzip -q
mv "$dir/q-00000-of-00001" "$dir/tfq.tfrecord.gz"
mkdir -p "$dir/indexed" && cp "$dir/tf.tfrecord.gz" "$dir/indexed/index.tfrecord.gz"
"$tfq" inspect --index-beside "$dir/indexed/index.tfrecord.gz" > /dev/null
rm "$dir/t.csv"

names=() commands=()
names+=("gzip -dc"); commands+=("gzip -dc '$dir/tf.tfrecord.gz'")
names+=("pigz -dc"); commands+=("pigz -dc '$dir/tf.tfrecord.gz'")
binaries=("now|$tfq")
[[ -n $base ]] && binaries+=("base|$base")
for b in "${binaries[@]}"; do
  label=${b%%|*} bin=${b#*|}
  for file in tf tfz tfq index; do
    [[ $label == base && $file != tf ]] && continue
    path=$dir/$file.tfrecord.gz
    [[ $file == tfz ]] && path=$dir/tfz.tfrecord.zz
    [[ $file == index ]] && path=$dir/indexed/index.tfrecord.gz
    for mode in count verify stats; do
      flag=--$mode
      [[ $mode == stats ]] && flag="--stats --json"
      for n in ${threads//,/ }; do
        names+=("$label $file $mode $n"); commands+=("'$bin' inspect $flag --threads $n '$path'")
      done
    done
  done
done
: > "$dir/times"
for ((i = 0; i < runs; ++i)); do
  echo "run $((i + 1)) of $runs ..." >&2
  seeded_order ${#names[@]} "$i"
  for c in "${order[@]}"; do
    cat "$dir"/*.gz "$dir"/*.zz "$dir"/indexed/* > /dev/null
    /usr/bin/time -f "%e" -o "$dir/time" bash -c "${commands[c]} > /dev/null"
    echo "${names[c]}|$(cat "$dir/time")" >> "$dir/times"
  done
done

/usr/bin/python3 - "$dir" "$runs" "$threads" "$("$tfq" --version | head -1)" "${base:+yes}" <<'PY'
import collections, datetime, os, statistics, sys
d, runs, threads, version, base = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4], sys.argv[5]
t = collections.defaultdict(list)
for line in open(f"{d}/times"):
    name, sec = line.strip().split("|")
    t[name].append(float(sec))
med = {k: statistics.median(v) for k, v in t.items()}
span = {k: f"{min(v):.2f}-{max(v):.2f}" if min(v) != max(v) else f"{v[0]:.2f}" for k, v in t.items()}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
raw = os.path.getsize(f"{d}/t.tfrecord") / 1e6
print(f"Machine: {cpu}, {os.cpu_count()} cores; {datetime.date.today()}; {version}; "
      f"load average at the end {' '.join(open('/proc/loadavg').read().split()[:3])}; "
      f"{runs} runs each (min-max), ratios of medians.")
print()
print(f"{raw:.1f} MB of records; gzip: tf {os.path.getsize(f'{d}/tf.tfrecord.gz') / 1e6:.1f} MB, "
      f"tfq {os.path.getsize(f'{d}/tfq.tfrecord.gz') / 1e6:.1f} MB. "
      f"`gzip -dc` of the tf file {span['gzip -dc']} s, `pigz -dc` {span['pigz -dc']} s.")
print()
rows = [("now", f) for f in ("tf", "tfz", "tfq", "index")] + ([("base", "tf")] if base else [])
print("| binary | file | mode | " + " | ".join(f"{n} thread{'s' if n != '1' else ''}" for n in threads) +
      f" | {threads[-1]} over {threads[0]} |")
print("|---|---|---|" + "---|" * len(threads) + "---|")
for label, f in rows:
    for mode in ("count", "verify", "stats"):
        keys = [f"{label} {f} {mode} {n}" for n in threads]
        print(f"| {label} | {f} | `--{mode}` | " + " | ".join(span[k] for k in keys) +
              f" | {med[keys[0]] / med[keys[-1]]:.2f}x |")
PY
