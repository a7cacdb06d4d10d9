#!/usr/bin/env bash
# The every-core figures of issue 19 and the pipeline issue on a lent many-core machine, in one
# short run (the device has no Debian packages of ours, no npm and no network: everything it
# needs travels in one folder).
#
#   scripts/bench-device.sh pack [DIR]   here: copies build/tfq, the .so files it loads (ldd) and
#                                        the tweets CSV of ../shared into DIR (default devkit,
#                                        which .git/info/exclude must ignore; carry it)
#   scripts/bench-device.sh run [DIR]    there: makes the inputs in /dev/shm and prints Markdown
#                                        tables (THREADS, default 1,2,4,8,16; RUNS, default 3)
#
# With the device tool: `run` with carry ["devkit"] and the command
#   WARMUP=0 RUNS=1 bash scripts/bench-device.sh run devkit
# (about 4 minutes on 16 cores). Measured, each the median of RUNS wall-clock runs (after a warm-up
# unless WARMUP=0):
#   convert t.csv (the tweets body x170, ~400 MB of text), n.csv (4 M generated numeric rows, ~280
#   MB) and t.jsonl (6 of t.csv's 16 shards as JSON lines, ~210 MB) -o /dev/null at each thread
#   count;
#   inspect --verify and --count of t.csv's 16 shards, --verify of 16 files of ~256 MB (each shard
#   7 times over: the issue's set), and `cat` of each set;
#   gzip output on every core: convert t.csv -o .tfrecord.gz, shard of the 16 shards into 4 gzip
#   shards, and their peer `pigz -6 -p T` (packed from here when installed) of the same records;
#   inspect --verify and --stats of those records as one gzip file pigz wrote (no index);
#   tfq bench parse-example,reader-batcher,read-gzip at each thread count.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MODE=${1:?pack or run}
DIR=${2:-devkit}
THREADS=${THREADS:-1,2,4,8,16}
RUNS=${RUNS:-3}
PARTS=${PARTS:-bench,convert,duckdb,inspect,gzip}  # which groups of rows (for a second, shorter call)
WARMUP=${WARMUP:-1}  # 0: no warm-up run (the inputs are in /dev/shm already; for a short device call)

if [[ $MODE == pack ]]; then
  SHARED=${TFQ_SHARED_DIR:-$ROOT/../shared}
  mkdir -p "$DIR/lib"
  cp "$ROOT/build/tfq" "$DIR/"
  # Every library the binary loads that is not the C library's own (the device has its own glibc).
  ldd "$ROOT/build/tfq" | awk '/=> \// {print $3}' | grep -v -E '/(libc|libm|libpthread|libdl|librt|ld-linux)[.-]' |
    while read -r lib; do cp -L "$lib" "$DIR/lib/"; done
  cp "$SHARED/csv/mayweather-mcgregor-tweets.csv" "$DIR/tweets.csv"
  # pigz, the peer of gzip output on every core (its libz travels with tfq's libraries).
  if command -v pigz > /dev/null; then
    cp "$(command -v pigz)" "$DIR/"
    ldd "$(command -v pigz)" | awk '/=> \// {print $3}' | grep -v -E '/(libc|libm|libpthread|libdl|librt|ld-linux)[.-]' |
      while read -r lib; do cp -L "$lib" "$DIR/lib/"; done
  fi
  # DuckDB, the peer of CSV and JSON lines conversion: the C library of the npm package that
  # scripts/bench-csv.sh installs, gzipped (70 MB does not fit the device tool's 64 MiB carry), driven
  # there through Python's ctypes (the device has Python, but neither node nor duckdb).
  npm_dir=${BENCH_DIR:-/tmp/tfq-bench-csv}/npm
  if [[ ! -d $npm_dir/node_modules/@duckdb/node-api ]] && command -v npm > /dev/null; then
    mkdir -p "$npm_dir" && (cd "$npm_dir" && npm install --silent --no-audit --no-fund @duckdb/node-api > /dev/null) || true
  fi
  duck_lib=$(find "$npm_dir/node_modules" -name libduckdb.so 2> /dev/null | head -n 1)
  if [[ -n $duck_lib ]]; then
    gzip -c "$duck_lib" > "$DIR/libduckdb.so.gz"
    node -p "require('$npm_dir/node_modules/@duckdb/node-api/package.json').version" > "$DIR/duckdb-version"
  fi
  du -sh "$DIR"
  exit 0
fi

[[ $MODE == run ]] || { echo "pack or run"; exit 2; }
# The device tool brings back what is written under $OUT, also from a run cut short.
[[ -z ${OUT:-} ]] || exec > >(tee "$OUT/bench-device.md") 2>&1
export LD_LIBRARY_PATH=$DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
TFQ=$DIR/tfq
W=/dev/shm/tfq-device
mkdir -p "$W"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ)"

# Inputs.
[[ -s $W/t.csv ]] || { head -n 1 "$DIR/tweets.csv"; for _ in $(seq 170); do tail -n +2 "$DIR/tweets.csv"; done; } > "$W/t.csv"
if [[ ! -s $W/n.csv ]]; then
  python3 - "$W/n.csv" <<'PY'
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    f.write("id,a,b,c,d,e,f,g,h,s1,s2,s3\n")
    for i in range(4_000_000):
        f.write(f"{i},{random.randint(0, 10**6)},{random.random():.6f},{random.randint(-500, 500)},"
                f"{random.random() * 1e4:.3f},{random.randint(0, 9)},{random.random():.4f},{random.randint(0, 10**9)},"
                f"{random.random():.2f},k{random.randint(0, 99)},v{random.randint(0, 9999)},w{i % 7}\n")
PY
fi
[[ -s $W/shards/t-00015-of-00016 ]] || "$TFQ" convert "$W/t.csv" -o "$W/shards/t" --shards 16 --quiet
# The issue's 16 files of about 256 MB: each shard 7 times over (TFRecord files concatenate).
for k in $(seq -w 0 15); do
  [[ -s $W/big/t-$k ]] || { mkdir -p "$W/big"; for _ in 1 2 3 4 5 6 7; do cat "$W/shards/t-000$k-of-00016"; done > "$W/big/t-$k"; }
done
[[ -s $W/t.jsonl ]] || "$TFQ" convert "$W"/shards/t-0000[0-5]-of-00016 -o "$W/t.jsonl" --format flat --quiet
# Image-like records (a 2-8 KiB payload, a caption, a label, 16 ids, 32 floats, as `tfq bench`
# generates), the other kind of training set: 16 shards, each repeated into a file of ~256 MB.
if [[ ! -s $W/gbig/g-15 ]]; then
  python3 - "$W/g.jsonl" <<'PY'
import base64, json, os, random, sys
random.seed(2)
words = "the of a training example record tensor batch shard image label".split()
with open(sys.argv[1], "w") as f:
    for i in range(40_000):
        f.write(json.dumps({
            "image/encoded": base64.b64encode(os.urandom(random.randint(1536, 6144))).decode(),
            "caption": " ".join(random.choices(words, k=random.randint(5, 30))),
            "label": random.randint(0, 999),
            "ids": [random.getrandbits(random.randint(1, 63)) for _ in range(16)],
            "embedding": [random.uniform(-1, 1) for _ in range(32)]}) + "\n")
PY
  "$TFQ" convert "$W/g.jsonl" -o "$W/gshards/g" --shards 16 --to tfrecord --quiet
  mkdir -p "$W/gbig"
  for k in $(seq -w 0 15); do
    for _ in $(seq 24); do cat "$W/gshards/g-000$k-of-00016"; done > "$W/gbig/g-$k"
  done
fi

# The pipeline issue's figures first: they take seconds, and a run cut short still has them.
has() { [[ ,$PARTS, == *,$1,* ]]; }
! has bench || "$TFQ" bench --workloads parse-example,reader-batcher,read-gzip --threads "$THREADS" --seconds 1 --data-size 256MiB

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# timed CMD...: the median wall seconds of RUNS runs after a warm-up.
timed() {
  [[ $WARMUP == 0 ]] || "$@" > /dev/null 2>&1
  for _ in $(seq "$RUNS"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f\n", b - a}'
  done | median
}

IFS=, read -r -a COUNTS <<< "$THREADS"
header="| work |"; rule="|---|"
for t in "${COUNTS[@]}"; do header+=" $t |"; rule+="---:|"; done
rule+="---:|"
echo
echo "$header last over first |"
echo "$rule"
row() {  # row NAME CMD... (with THREADS in the command replaced by each count)
  local name=$1; shift
  local line="| $name |" first="" last=""
  for t in "${COUNTS[@]}"; do
    local args=("${@//THREADS/$t}")
    local s
    s=$(timed "${args[@]}")
    [[ -n $first ]] || first=$s
    last=$s
    line+=" $s s |"
  done
  echo "$line $(awk -v a="$first" -v b="$last" 'BEGIN {printf "%.1fx", a / b}') |"
}
if has convert; then
  row "convert t.csv ($(du -m "$W/t.csv" | cut -f1) MB)" "$TFQ" convert "$W/t.csv" -o /dev/null --threads THREADS --quiet
  row "convert n.csv ($(du -m "$W/n.csv" | cut -f1) MB)" "$TFQ" convert "$W/n.csv" -o /dev/null --threads THREADS --quiet
  row "convert t.jsonl ($(du -m "$W/t.jsonl" | cut -f1) MB)" "$TFQ" convert "$W/t.jsonl" -o /dev/null --to tfrecord --threads THREADS --quiet
fi
if has inspect; then
  row "inspect --verify 16 shards" "$TFQ" inspect --verify --threads THREADS "$W"/shards/t-*
  row "inspect --count 16 shards" "$TFQ" inspect --count --threads THREADS "$W"/shards/t-*
  row "inspect --verify 16 files of ~256 MB" "$TFQ" inspect --verify --threads THREADS "$W"/big/t-*
  row "inspect --verify 16 files of ~256 MB, image-like" "$TFQ" inspect --verify --threads THREADS "$W"/gbig/g-*
fi
if ! has duckdb; then
  :
elif [[ -s $DIR/libduckdb.so.gz ]]; then
  [[ -s $W/libduckdb.so ]] || python3 -c 'import gzip, shutil, sys; shutil.copyfileobj(gzip.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$DIR/libduckdb.so.gz" "$W/libduckdb.so"
  cat > "$W/duck.py" <<'PY'
# duck.py LIB RUNS THREADS QUERY: DuckDB's seconds for QUERY (median of RUNS after a warm-up), for
# each thread count, through its C API; the library's load is not timed.
import ctypes, sys, time
lib = ctypes.CDLL(sys.argv[1])
db, con = ctypes.c_void_p(), ctypes.c_void_p()
result = ctypes.create_string_buffer(256)  # a duckdb_result (48 bytes in duckdb.h), with room to spare
lib.duckdb_result_error.restype = ctypes.c_char_p
assert lib.duckdb_open(None, ctypes.byref(db)) == 0 and lib.duckdb_connect(db, ctypes.byref(con)) == 0
def query(sql):
    if lib.duckdb_query(con, sql.encode(), result) != 0:
        sys.exit(f"duckdb: {lib.duckdb_result_error(result).decode()}")
    lib.duckdb_destroy_result(result)
for threads in sys.argv[3].split(","):
    query(f"SET threads = {threads}")
    query(sys.argv[4])
    seconds = []
    for _ in range(int(sys.argv[2])):
        t0 = time.perf_counter()
        query(sys.argv[4])
        seconds.append(time.perf_counter() - t0)
    print(f"{sorted(seconds)[(len(seconds) - 1) // 2]:.4f}")
PY
  duck_row() {  # duck_row NAME QUERY
    local line="| $1 (DuckDB $(cat "$DIR/duckdb-version" 2> /dev/null), query only) |" first="" last=""
    while read -r s; do
      [[ -n $first ]] || first=$s
      last=$s
      line+=" $s s |"
    done < <(python3 "$W/duck.py" "$W/libduckdb.so" "$RUNS" "$THREADS" "$2")
    echo "$line $(awk -v a="$first" -v b="$last" 'BEGIN {printf "%.1fx", a / b}') |"
  }
  duck_row "read_csv t.csv" "SELECT count(COLUMNS(*)) FROM read_csv('$W/t.csv')"
  duck_row "read_csv n.csv" "SELECT count(COLUMNS(*)) FROM read_csv('$W/n.csv')"
  duck_row "read_json t.jsonl" "SELECT count(COLUMNS(*)) FROM read_json('$W/t.jsonl', format='newline_delimited')"
else
  echo "(no $DIR/libduckdb.so.gz: no DuckDB rows)"
fi
if has gzip; then
  mkdir -p "$W/o"
  row "convert t.csv -o t.tfrecord.gz" "$TFQ" convert "$W/t.csv" -o "$W/o/t.tfrecord.gz" --threads THREADS --quiet
  row "shard 16 shards -> 4 gzip shards" "$TFQ" shard "$W"/shards/t-* -o "$W/o/s" --shards 4 -c gzip --threads THREADS --quiet
  [[ -s $W/all.tfrecord ]] || cat "$W"/shards/t-* > "$W/all.tfrecord"
  [[ ! -x $DIR/pigz ]] || row "pigz -6 of the 16 shards' records" sh -c "$DIR/pigz -6 -p THREADS -c $W/all.tfrecord > $W/o/all.gz"
  # One gzip file another writer made (pigz: no tfq header, no index): inflated once for every thread.
  if [[ -x $DIR/pigz ]]; then
    [[ -s $W/all.tfrecord.gz ]] || "$DIR/pigz" -6 -c "$W/all.tfrecord" > "$W/all.tfrecord.gz"
    row "inspect --verify one gzip file, no index" "$TFQ" inspect --verify --threads THREADS "$W/all.tfrecord.gz"
    row "inspect --stats one gzip file, no index" "$TFQ" inspect --stats --json --threads THREADS "$W/all.tfrecord.gz"
  fi
fi
echo
echo "cat of the 16 shards ($(du -cm "$W"/shards/t-* | tail -1 | cut -f1) MB): $(timed sh -c "cat $W/shards/t-* > /dev/null") s"
echo "cat of the 16 files ($(du -cm "$W"/big/t-* | tail -1 | cut -f1) MB): $(timed sh -c "cat $W/big/t-* > /dev/null") s"
echo "cat of the 16 image-like files ($(du -cm "$W"/gbig/g-* | tail -1 | cut -f1) MB): $(timed sh -c "cat $W/gbig/g-* > /dev/null") s"
