#!/usr/bin/env bash
# CSV and JSON lines -> TFRecord speed by thread count: tfq against DuckDB's CSV reader (parse
# only), measured in the same run.
#
#   scripts/bench-csv.sh [--threads 1,2,4,...] [--no-duckdb] [BUILD_DIR]
#       (default: --threads 1,2; build; needs BUILD_DIR/tfq in Release)
#
# Inputs (rebuilt in $BENCH_DIR, default /tmp/tfq-bench-csv, as shared/csv/PROVENANCE.md says):
#   flights-3m.csv  ../shared/csv/flights-3m.parquet written as CSV by DuckDB (npm @duckdb/node-api,
#                   whose npm packages carry the prebuilt library; the legacy `duckdb` package
#                   downloads its binary from elsewhere at install time)
#   tweets-x40.csv  the header + 40 copies of the body of the tweets file (~95 MB)
#   *.jsonl         each CSV converted by tfq (CSV -> TFRecord -> JSON lines, --format flat)
# Measured, each as the median of $RUNS runs (default 3) after one warm-up run, wall clock:
#   DuckDB: SET threads=1; SELECT count(COLUMNS(*)) FROM read_csv(FILE) -- count(col) needs every
#           value of every column parsed and converted (count(*) alone may skip conversion)
#   tfq:    tfq convert FILE -o /dev/null --threads T --json (the time tfq reports: reading,
#           parsing, converting, encoding, framing with CRCs and writing to /dev/null)
# Prints a Markdown table (MB/s = input bytes / s, rows/s) with ratios, the machine and the date,
# then the 1..N-thread table: MB/s at each --threads count and its ratio to 1 thread.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
THREADS=1,2
USE_DUCKDB=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --threads) THREADS=$2; shift 2 ;;
    --no-duckdb) USE_DUCKDB=0; shift ;;
    *) break ;;
  esac
done
BUILD=${1:-$ROOT/build}
TFQ=$BUILD/tfq
SHARED=${TFQ_SHARED_DIR:-$ROOT/../shared}
DIR=${BENCH_DIR:-/tmp/tfq-bench-csv}
RUNS=${RUNS:-3}
[[ -x $TFQ ]] || { echo "no $TFQ: build it first (Release)"; exit 1; }
[[ -f $SHARED/csv/flights-3m.parquet ]] || { echo "SKIP: $SHARED/csv is absent"; exit 77; }
mkdir -p "$DIR/npm"

if [[ $USE_DUCKDB == 1 && ! -d $DIR/npm/node_modules/@duckdb/node-api ]]; then
  (cd "$DIR/npm" && npm install --silent --no-audit --no-fund @duckdb/node-api >/dev/null)
fi
DUCK_VERSION=none
[[ $USE_DUCKDB == 1 ]] && DUCK_VERSION=$(node -p "require('$DIR/npm/node_modules/@duckdb/node-api/package.json').version")

# duck SQL...: runs the statements in one in-memory DuckDB; prints the last one's seconds.
duck() {
  NODE_PATH="$DIR/npm/node_modules" node - "$@" <<'JS'
const { DuckDBInstance } = require('@duckdb/node-api');
(async () => {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const sql = process.argv.slice(2);
  let seconds = 0;
  for (const s of sql) {
    const t = process.hrtime.bigint();
    await c.run(s);
    seconds = Number(process.hrtime.bigint() - t) / 1e9;
  }
  console.log(seconds.toFixed(4));
})().catch(e => { console.error(e.message); process.exit(1); });
JS
}

FLIGHTS=$DIR/flights-3m.csv
TWEETS=$DIR/tweets-x40.csv
[[ -s $FLIGHTS || $USE_DUCKDB == 0 ]] || duck "COPY (SELECT * FROM '$SHARED/csv/flights-3m.parquet') TO '$FLIGHTS' (HEADER)" >/dev/null
if [[ ! -s $TWEETS ]]; then
  src=$SHARED/csv/mayweather-mcgregor-tweets.csv
  { head -n 1 "$src"; for _ in $(seq 40); do tail -n +2 "$src"; done; } > "$TWEETS"
fi

# The JSON lines twin of each CSV: the same rows, converted by tfq itself.
for f in "$FLIGHTS" "$TWEETS"; do
  [[ -s $f && ! -s ${f%.csv}.jsonl ]] || continue
  "$TFQ" convert "$f" -o "$DIR/twin.tfrecord" --quiet
  "$TFQ" convert "$DIR/twin.tfrecord" -o "${f%.csv}.jsonl" --format flat --quiet
  rm -f "$DIR/twin.tfrecord"
done

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# duck_parse FILE: median seconds of the parse-only query with one thread.
duck_parse() {
  local q="SELECT count(COLUMNS(*)) FROM read_csv('$1')"
  duck "SET threads=1" "$q" >/dev/null
  for _ in $(seq "$RUNS"); do duck "SET threads=1" "$q"; done | median
}
# tfq_run FILE THREADS: median seconds and the row (or record) count.
tfq_run() {
  "$TFQ" convert "$1" -o /dev/null --to tfrecord --threads "$2" --quiet >/dev/null
  for _ in $(seq "$RUNS"); do
    "$TFQ" convert "$1" -o /dev/null --to tfrecord --threads "$2" --json |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["seconds"], d.get("rows", d["records"]))'
  done | sort -g | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'
}

echo "load before: $(uptime | sed 's/.*load average: //')" >&2
# The 1..N-thread table, CSV and JSON lines, the thread counts of one input run one after another.
IFS=, read -r -a COUNTS <<< "$THREADS"
scaling_table=""
for f in "$FLIGHTS" "$TWEETS" "${FLIGHTS%.csv}.jsonl" "${TWEETS%.csv}.jsonl"; do
  [[ -s $f ]] || continue
  mb=$(awk -v b="$(stat -c %s "$f")" 'BEGIN {printf "%.1f", b / 1e6}')
  line="| $(basename "$f") ($mb MB) |"
  base=""
  for t in "${COUNTS[@]}"; do
    read -r secs _ < <(tfq_run "$f" "$t")
    [[ -n $base ]] || base=$secs
    line+=$(awk -v mb="$mb" -v s="$secs" -v b="$base" 'BEGIN {printf " %.0f MB/s (%.2fx) |", mb / s, b / s}')
  done
  scaling_table+="$line"$'\n'
done
scaling_header="| input |"
scaling_rule="|---|"
for t in "${COUNTS[@]}"; do
  scaling_header+=" $t thread$([[ $t == 1 ]] || echo s) |"
  scaling_rule+="---|"
done

rows_table=""
for f in "$FLIGHTS" "$TWEETS"; do
  [[ $USE_DUCKDB == 1 && -s $f ]] || continue
  bytes=$(stat -c %s "$f")
  mb=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1e6}')
  d=$(duck_parse "$f")
  read -r t1 rows < <(tfq_run "$f" 1)
  read -r t2 _ < <(tfq_run "$f" 2)
  rows_table+=$(awk -v n="$(basename "$f")" -v mb="$mb" -v rows="$rows" -v d="$d" -v t1="$t1" -v t2="$t2" 'BEGIN {
    printf "| %s (%s MB, %d rows) | %.0f MB/s, %.2f M rows/s | %.0f MB/s, %.2f M rows/s | %.0f MB/s, %.2f M rows/s | %.2fx | %.2fx |\n",
      n, mb, rows, mb / d, rows / d / 1e6, mb / t1, rows / t1 / 1e6, mb / t2, rows / t2 / 1e6, d / t1, t1 / t2 }')
  rows_table+=$'\n'
done
echo "load after: $(uptime | sed 's/.*load average: //')" >&2

cat <<MD
## CSV -> TFRecord ($(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, load $(uptime | sed 's/.*load average: //' | cut -d, -f1))

| input | DuckDB $DUCK_VERSION parse only, 1 thread | tfq, 1 thread | tfq, 2 threads | tfq 1T / DuckDB | tfq 2T / 1T |
|---|---|---|---|---|---|
${rows_table}
Median of $RUNS runs after a warm-up, wall clock, files in the page cache. tfq: $(basename "$BUILD") build,
\`tfq convert FILE -o /dev/null --threads T --json\` (parse, infer from 1000 rows, convert, encode,
frame with CRC32C, write). DuckDB: \`SET threads=1; SELECT count(COLUMNS(*)) FROM read_csv(FILE)\`
(auto-detected dialect and types; every column parsed). Script: scripts/bench-csv.sh.

## CSV and JSON lines -> TFRecord by thread count

$scaling_header
$scaling_rule
${scaling_table}
MB/s of input, and (in brackets) the rate over the 1-thread rate; median of $RUNS runs after a
warm-up, \`tfq convert FILE -o /dev/null --to tfrecord --threads T --json\`. Load after: $(uptime | sed 's/.*load average: //').
MD
