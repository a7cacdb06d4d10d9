#!/usr/bin/env bash
# CSV and JSON lines -> TFRecord speed by thread count: tfq against DuckDB's CSV and JSON readers
# (parse only), measured in the same run.
#
#   scripts/bench-csv.sh [--threads 1,2,4,...] [--scale N] [--no-duckdb] [BUILD_DIR]
#       (default: --threads 1,2, --scale 1; build; needs BUILD_DIR/tfq in Release)
#
# Inputs (rebuilt in $BENCH_DIR, default /tmp/tfq-bench-csv, as shared/csv/PROVENANCE.md says):
#   flights-3m.csv  ../shared/csv/flights-3m.parquet written as CSV by DuckDB (npm @duckdb/node-api,
#                   whose npm packages carry the prebuilt library; the legacy `duckdb` package
#                   downloads its binary from elsewhere at install time); with --scale N, its
#                   header and N copies of its body (flights-3m-xN.csv, ~106 MB each)
#   tweets-x40.csv  the header + 40 copies of the body of the tweets file (~95 MB); with --scale
#                   N, 40 * N copies
#   *.jsonl         each CSV converted by tfq (CSV -> TFRecord -> JSON lines, --format flat)
# --scale 3 gives files of about 300 MB, where a run takes long enough (0.3-1 s) that start-up,
# schema inference and the last slot no longer weigh on the ratios between thread counts.
# Measured, each as the median of $RUNS runs (default 3) after one warm-up run, wall clock:
#   DuckDB: SET threads=T; SELECT count(COLUMNS(*)) FROM read_csv(FILE) -- count(col) needs every
#           value of every column parsed and converted (count(*) alone may skip conversion), at
#           each thread count T of --threads; for *.jsonl read_json(FILE,
#           format='newline_delimited') instead (every value a list, as tfq's flat form writes)
#   tfq:    tfq convert FILE -o /dev/null --threads T --json (the time tfq reports: reading,
#           parsing, converting, encoding, framing with CRCs and writing to /dev/null)
# Prints a Markdown table (MB/s = input bytes / s, rows/s) with ratios, the machine and the date,
# then the 1..N-thread table: MB/s at each --threads count and its ratio to 1 thread.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
THREADS=1,2
USE_DUCKDB=1
SCALE=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --threads) THREADS=$2; shift 2 ;;
    --scale) SCALE=$2; shift 2 ;;
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

# tweets_copies N OUT: the tweets file's header and N copies of its body.
tweets_copies() {
  local src=$SHARED/csv/mayweather-mcgregor-tweets.csv
  [[ -s $2 ]] || { head -n 1 "$src"; for _ in $(seq "$1"); do tail -n +2 "$src"; done; } > "$2"
}
FLIGHTS=$DIR/flights-3m.csv
TWEETS=$DIR/tweets-x40.csv
[[ -s $FLIGHTS || $USE_DUCKDB == 0 ]] || duck "COPY (SELECT * FROM '$SHARED/csv/flights-3m.parquet') TO '$FLIGHTS' (HEADER)" >/dev/null
tweets_copies 40 "$TWEETS"

# The JSON lines twin of each CSV: the same rows, converted by tfq itself (from the --scale 1
# files: 307 and 138 MB already, at a tenth of CSV's speed).
for f in "$FLIGHTS" "$TWEETS"; do
  [[ -s $f && ! -s ${f%.csv}.jsonl ]] || continue
  "$TFQ" convert "$f" -o "$DIR/twin.tfrecord" --quiet
  "$TFQ" convert "$DIR/twin.tfrecord" -o "${f%.csv}.jsonl" --format flat --quiet
  rm -f "$DIR/twin.tfrecord"
done
JSONL=("${FLIGHTS%.csv}.jsonl" "${TWEETS%.csv}.jsonl")

if ((SCALE > 1)); then
  if [[ -s $FLIGHTS ]]; then
    scaled=$DIR/flights-3m-x$SCALE.csv
    [[ -s $scaled ]] || { head -n 1 "$FLIGHTS"; for _ in $(seq "$SCALE"); do tail -n +2 "$FLIGHTS"; done; } > "$scaled"
    FLIGHTS=$scaled
  fi
  TWEETS=$DIR/tweets-x$((40 * SCALE)).csv
  tweets_copies $((40 * SCALE)) "$TWEETS"
fi

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# duck_parse FILE THREADS: median seconds of the parse-only query with THREADS threads.
duck_parse() {
  local q="SELECT count(COLUMNS(*)) FROM read_csv('$1')"
  [[ $1 == *.jsonl ]] && q="SELECT count(COLUMNS(*)) FROM read_json('$1', format='newline_delimited')"
  duck "SET threads=$2" "$q" >/dev/null
  for _ in $(seq "$RUNS"); do duck "SET threads=$2" "$q"; done | median
}
# tfq_run FILE THREADS: median seconds and the row (or record) count. The report is read once tfq
# has exited: a reader started beside it (python3 in a pipe) would take CPU from its threads.
tfq_run() {
  "$TFQ" convert "$1" -o /dev/null --to tfrecord --threads "$2" --quiet >/dev/null
  for _ in $(seq "$RUNS"); do
    "$TFQ" convert "$1" -o /dev/null --to tfrecord --threads "$2" --json > "$DIR/report.json"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["seconds"], d.get("rows", d["records"]))' "$DIR/report.json"
  done | sort -g | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'
}

echo "load before: $(uptime | sed 's/.*load average: //')" >&2
# The 1..N-thread table, CSV and JSON lines, the thread counts of one input run one after another.
IFS=, read -r -a COUNTS <<< "$THREADS"
scaling_table=""
for f in "$FLIGHTS" "$TWEETS" "${JSONL[@]}"; do
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

# Against DuckDB: each thread count of --threads, DuckDB and tfq one after the other.
rows_table=""
for f in "$FLIGHTS" "$TWEETS" "${JSONL[@]}"; do
  [[ $USE_DUCKDB == 1 && -s $f ]] || continue
  bytes=$(stat -c %s "$f")
  mb=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1e6}')
  d1="" t1=""
  for t in "${COUNTS[@]}"; do
    d=$(duck_parse "$f" "$t")
    read -r secs rows < <(tfq_run "$f" "$t")
    [[ -n $d1 ]] || { d1=$d; t1=$secs; }
    rows_table+=$(awk -v n="$(basename "$f")" -v mb="$mb" -v rows="$rows" -v t="$t" -v d="$d" -v s="$secs" \
                      -v d1="$d1" -v t1="$t1" 'BEGIN {
      printf "| %s (%s MB, %d rows) | %d | %.0f MB/s, %.2f M rows/s (%.2fx) | %.0f MB/s, %.2f M rows/s (%.2fx) | %.2fx |\n",
        n, mb, rows, t, mb / d, rows / d / 1e6, d1 / d, mb / s, rows / s / 1e6, t1 / s, d / s }')
    rows_table+=$'\n'
  done
done
echo "load after: $(uptime | sed 's/.*load average: //')" >&2

cat <<MD
## CSV and JSON lines -> TFRecord ($(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, load $(uptime | sed 's/.*load average: //' | cut -d, -f1))

| input | threads | DuckDB $DUCK_VERSION parse only (over its 1 thread) | tfq (over its 1 thread) | tfq / DuckDB |
|---|---|---|---|---|
${rows_table}
Median of $RUNS runs after a warm-up, wall clock, files in the page cache; DuckDB and tfq take
turns at each thread count. tfq: $(basename "$BUILD") build,
\`tfq convert FILE -o /dev/null --threads T --json\` (parse, infer from 1000 rows, convert, encode,
frame with CRC32C, write). DuckDB: \`SET threads=T; SELECT count(COLUMNS(*)) FROM read_csv(FILE)\`
(auto-detected dialect and types; every column parsed), for JSON lines \`read_json(FILE,
format='newline_delimited')\`. Script: scripts/bench-csv.sh.

## CSV and JSON lines -> TFRecord by thread count

$scaling_header
$scaling_rule
${scaling_table}
MB/s of input, and (in brackets) the rate over the 1-thread rate; median of $RUNS runs after a
warm-up, \`tfq convert FILE -o /dev/null --to tfrecord --threads T --json\`. Load after: $(uptime | sed 's/.*load average: //').
MD
