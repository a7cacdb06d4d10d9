#!/usr/bin/env bash
# The rules every command shares (README "Inputs and outputs", "Exit codes"): output folders are
# created, task partitions are honoured or refused, missing inputs and URLs are named before
# anything is printed, a wrong -c names what the bytes look like, dropped data is exit 3, and
# JSON output stays valid whatever bytes names and keys hold.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
cd "$WORK" || die "no work dir"

# A table of 1000 rows and its records, to work on.
$PY -c "
import random
random.seed(7)
print('id,name,w')
for i in range(1000): print(f'{i},n{i},{random.random():.6f}')" > w.csv
"$TFQ" convert w.csv -o w.tfrecord -q || die "convert w.csv failed"
"$TFQ" convert w.tfrecord -o w.jsonl --format flat -q || die "export w.jsonl failed"

# --- An unknown command is named.
expect_exit 2 "$TFQ" frobnicate x
expect_stderr_contains "unknown command 'frobnicate' (commands: "

# --- Output folders: every command that writes creates the folders its output needs.
expect_exit 0 "$TFQ" convert w.csv -o new1/a/w --shards 2 -q
[[ -f new1/a/w-00001-of-00002 ]] || fail "convert CSV did not create new1/a/"
expect_exit 0 "$TFQ" convert w.jsonl -o new2/a/w.tfrecord -q
[[ -f new2/a/w.tfrecord ]] || fail "convert JSONL did not create new2/a/"
expect_exit 0 "$TFQ" convert w.tfrecord -o new3/a/w.csv -q
[[ -f new3/a/w.csv ]] || fail "export CSV did not create new3/a/"
expect_exit 0 "$TFQ" shard w.tfrecord -o new4/a/w --shards 3 -q
[[ -f new4/a/w-00002-of-00003 ]] || fail "shard did not create new4/a/"
expect_exit 0 "$TFQ" shuffle w.tfrecord -o new5/a/w --shards 2 --seed 1 -q
[[ -f new5/a/w-00001-of-00002 ]] || fail "shuffle did not create new5/a/"
for _ in $(seq 600); do cat w.tfrecord; done > big.tfrecord  # over --memory: a bucket file beside the output
expect_exit 0 "$TFQ" shuffle big.tfrecord -o new6/a/w --shards 2 --seed 1 -q --memory 24MiB --method buckets
[[ -f new6/a/w-00001-of-00002 ]] || fail "shuffle with a bucket file did not create new6/a/"
touch afile
expect_exit 1 "$TFQ" convert w.csv -o afile/sub/w.tfrecord -q
expect_stderr_contains "afile/sub/w.tfrecord: cannot create"

# --- Task partitions: each task writes exactly its shards; together they equal one run.
for src in w.csv w.jsonl; do
  rm -rf one tasks
  expect_exit 0 "$TFQ" convert "$src" -o one/w --shards 4 -q
  expect_exit 0 "$TFQ" convert "$src" -o tasks/w --shards 4 --task-index 1 --num-tasks 2 -q
  got=$(cd tasks && ls | tr '\n' ' ')
  [[ $got == "w-00001-of-00004 w-00003-of-00004 " ]] || fail "$src task 1 of 2 wrote: $got"
  expect_exit 0 "$TFQ" convert "$src" -o tasks/w --shards 4 --task-index 0 --num-tasks 2 --json
  expect_stdout_contains '"records":500'
  for f in one/*; do
    cmp -s "$f" "tasks/$(basename "$f")" || fail "$src: tasks' $(basename "$f") differs from one run's"
  done
  expect_exit 2 "$TFQ" convert "$src" -o tasks/w --shards 4 --task-index 5 --num-tasks 2
  expect_stderr_contains "--task-index 5 must be below --num-tasks 2"
  expect_exit 2 "$TFQ" convert "$src" -o single.tfrecord --task-index 0 --num-tasks 2
  expect_stderr_contains "need --shards"
done
expect_exit 2 "$TFQ" convert w.tfrecord -o x.jsonl --task-index 0 --num-tasks 2
expect_stderr_contains "is one jsonl file"
expect_exit 2 "$TFQ" shard w.tfrecord -o s/w --shards 4 --task-index 0 --num-tasks 2
expect_exit 2 "$TFQ" shuffle w.tfrecord -o s/w --shards 4 --seed 1 --task-index 0 --num-tasks 2

# --- Absurd numbers are usage errors naming the flag; more threads than CPUs are capped.
for bad in "--shards -1" "--shards 0" "--shards 100000" "--num-tasks 0" "--num-tasks -1" "--task-index -1" "--threads -4"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$TFQ" convert w.csv -o r/w $bad
  expect_stderr_contains "tfq: error: ${bad%% *}"
done
for src in w.csv w.jsonl; do
  expect_exit 0 "$TFQ" convert "$src" -o r/w.tfrecord --threads 100000 -q
  cmp -s r/w.tfrecord w.tfrecord || fail "$src with --threads 100000 wrote other records"
done
[[ -z $(ls -A r | grep -v '^w.tfrecord$') ]] || fail "left in r/: $(ls -A r)"

# inspect: --head 0 prints nothing (as head -n 0); negative counts are usage errors.
expect_exit 0 "$TFQ" inspect --records --head 0 w.tfrecord
expect_stdout ""
expect_exit 0 "$TFQ" inspect --records --head 2 --skip 998 w.tfrecord
[[ $(wc -l < "$WORK/out") == 2 ]] || fail "--head 2 --skip 998 printed $(wc -l < "$WORK/out") lines"
for bad in "--skip -1" "--head -1" "--top-k -3" "--max-errors -1" "--max-features 0"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$TFQ" inspect --records w.tfrecord $bad
  expect_stderr_contains "tfq: error: ${bad%% *}"
done

# --- What tfq wrote reads back with the obvious glob (the manifest beside shards is not a shard).
mkdir -p wrote && cp one/* wrote/ && echo '{"shards": []}' > wrote/w.manifest.json
echo '{}' > wrote/w.manifest-00000-of-00002.json
expect_exit 0 "$TFQ" inspect --verify wrote/*         # expanded by the shell
expect_exit 0 "$TFQ" inspect --count 'wrote/*'        # expanded by tfq
expect_stdout "1000"
expect_exit 0 "$TFQ" shard wrote/* -o merged/w --shards 1 -q
expect_exit 2 "$TFQ" inspect --count wrote/w.manifest.json
expect_stderr_contains "is the manifest tfq writes beside the shards"

# --- Missing inputs and URLs: named, stdout empty, before anything is read.
expect_exit 1 "$TFQ" inspect --count w.tfrecord missing.tfrecord
expect_stdout ""
expect_stderr_contains "missing.tfrecord: No such file or directory"
expect_exit 1 "$TFQ" inspect --json missing.tfrecord
expect_stdout ""
expect_exit 1 "$TFQ" convert nothere -o x.tfrecord
expect_stderr_contains "nothere: No such file or directory"
# s3://, gs:// and http(s):// are read and written in object_store_test.sh; other schemes are refused.
for url in ftp://host/train-00000-of-00004 hdfs://bucket/x.tfrecord; do
  for cmd in "inspect --count" "shard --shards 2 -o s/x" "shuffle --seed 1 -o s/x" "convert -o x.jsonl"; do
    # shellcheck disable=SC2086
    expect_exit 2 "$TFQ" $cmd "$url"
    expect_stderr_contains "$url: ${url%%://*}:// URLs are not supported"
    expect_stdout ""
  done
done
expect_exit 2 "$TFQ" convert w.csv -o ftp://host/w.tfrecord
expect_stderr_contains "URLs are not supported"

# --- Wrong compression: the message names what the bytes look like.
gzip -c w.tfrecord > w.tfrecord.gz
expect_exit 3 "$TFQ" inspect --verify -c gzip w.tfrecord
expect_stderr_contains "w.tfrecord: not gzip data"
expect_stderr_contains "a plain TFRecord file? read it with -c none"
expect_exit 3 "$TFQ" inspect --verify -c zlib w.tfrecord.gz
expect_stderr_contains "not zlib data"
expect_stderr_contains "look like gzip data (read it with -c gzip"
expect_exit 3 "$TFQ" inspect --verify -c gzip w.csv
expect_stderr_contains "look like text (a CSV or JSON lines file?"
expect_exit 3 "$TFQ" inspect --verify -c none w.tfrecord.gz
expect_stderr_contains "GZIP-compressed"
expect_exit 3 "$TFQ" shard --input-compression zlib w.tfrecord -o s/z --shards 2
expect_stderr_contains "not zlib data"

# --- The convert summary counts the bytes written to disk (compressed, for .gz).
expect_exit 0 "$TFQ" convert w.csv -o sz/w.tfrecord.gz --json
expect_stdout_contains "\"bytes\":$(stat -c %s sz/w.tfrecord.gz),"
expect_exit 0 "$TFQ" inspect --count --input-compression gzip sz/w.tfrecord.gz
expect_stdout "1000"

# --- Dropped data is exit 3 in every command (the rest is still written).
cp w.tfrecord bad.tfrecord
flip_byte bad.tfrecord 100  # a payload byte of the first record
expect_exit 3 "$TFQ" inspect --verify --skip-corrupt bad.tfrecord
expect_exit 3 "$TFQ" shard bad.tfrecord -o d1/x --shards 2 --skip-corrupt
expect_stderr_contains "dropped 1 corrupt records"
[[ -f d1/x-00001-of-00002 ]] || fail "shard --skip-corrupt wrote no outputs"
expect_exit 3 "$TFQ" shuffle bad.tfrecord -o d2/x --shards 2 --seed 1 --skip-corrupt --json
expect_stdout_contains '"dropped_records":1'
[[ -f d2/x-00001-of-00002 ]] || fail "shuffle --skip-corrupt wrote no outputs"

# --- JSON output is valid whatever bytes keys, paths and prefixes hold (U+FFFD for bad bytes).
valid_json() {  # the last run's stdout parses as one JSON value or as JSON lines
  checks=$((checks + 1))
  $PY -c '
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
try:
    json.loads(text)
except ValueError:
    [json.loads(l) for l in text.splitlines() if l.strip()]' "$WORK/out" \
    || fail "stdout is not valid UTF-8 JSON: $(head -c 300 "$WORK/out")"
}
printf 'name,caf\xe9\nbob,1\n' > latin1.csv
expect_exit 0 "$TFQ" convert latin1.csv -o latin1.tfrecord -q
for mode in --stats --json "--stats --json" "--records"; do
  # shellcheck disable=SC2086
  expect_exit 0 "$TFQ" inspect $mode latin1.tfrecord
  valid_json
done
cp latin1.tfrecord "$(printf 'caf\xe9.tfrecord')"
expect_exit 0 "$TFQ" inspect --json "$(printf 'caf\xe9.tfrecord')"
valid_json
expect_exit 0 "$TFQ" inspect --verify --json "$(printf 'caf\xe9.tfrecord')"
valid_json
expect_exit 0 "$TFQ" shard w.tfrecord -o "$(printf 'u/caf\xe9')" --shards 2 --json
valid_json
expect_exit 0 "$TFQ" shuffle w.tfrecord -o "$(printf 'u/th\xe9')" --shards 2 --seed 1 --json
valid_json
expect_exit 0 "$TFQ" convert w.csv -o "$(printf 'u/\xe9t\xe9')" --shards 2 --json
valid_json
expect_exit 0 "$TFQ" convert latin1.csv -o latin1.tfrecord -q --print-schema
valid_json

finish
