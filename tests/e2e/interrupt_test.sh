#!/usr/bin/env bash
# Interrupt and kill safety at random moments. Each command is first run to completion (its time
# and record count are the reference), then started again and sent SIGINT, SIGTERM or SIGKILL at
# a random moment within that time (seeded: TFQ_INTERRUPT_SEED, printed; TFQ_INTERRUPT_TRIALS
# trials per signal). After every trial:
#   - the exit status is 128 + the signal (130, 143, 137), or 0 if the run had already finished;
#   - no file has a final name unless the whole output is there and valid (tfq inspect --verify,
#     and the record count of the reference run): a set of shards is all there or not at all.
#     SIGKILL is the exception it cannot help: a set's files take their final names one rename
#     after another (microseconds), and a kill between two renames leaves the first ones, each
#     complete and valid, and no manifest (renamed last); the run after it then writes the set;
#   - after SIGINT/SIGTERM no temporary (.tfq-partial.*) is left;
#   - after SIGKILL the same command is run again: it succeeds, says it removed what the killed
#     run left, and leaves no temporary.
# Commands: tfq convert (JSON lines into shards, CSV into one file, an image folder into shards),
# tfq shard, tfq shuffle through spilled buckets (small --memory) and in memory (the default).
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
gen="$(dirname "$TFQ")/examples/make_image_folder"
seed=${TFQ_INTERRUPT_SEED:-20240611}
trials=${TFQ_INTERRUPT_TRIALS:-3}
RANDOM=$seed
echo "interrupt_test: seed $seed ($trials trials per signal and command)"

# --- Inputs ------------------------------------------------------------------------------------
$PY - "$WORK" <<'PY'
import json, sys
w = sys.argv[1]
with open(w + "/rows.jsonl", "w") as f:
    for i in range(60000):
        f.write(json.dumps({"id": [i], "text": ["row %d %s" % (i, "y" * (i % 50))]}) + "\n")
with open(w + "/big.jsonl", "w") as f:  # ~40 MB of records: more than shuffle's 24 MiB budget
    for i in range(40000):
        f.write(json.dumps({"id": [i], "pad": ["%d %s" % (i, "x" * 1000)]}) + "\n")
with open(w + "/table.csv", "w") as f:
    f.write("id,name,score,tag\n")
    for i in range(300000):
        f.write("%d,name %d,%g,t%d\n" % (i, i, i * 0.25, i % 13))
PY
"$TFQ" convert "$WORK/big.jsonl" -o "$WORK/big.tfrecord" -q || die "cannot make big.tfrecord"
have_images=0
if [[ -x "$gen" ]]; then
  "$gen" "$WORK/imgs" --classes 2 --per-class 40 >/dev/null && have_images=1
else
  echo "note: $gen not built; the image-folder trials are skipped"
fi

# --- Checks ------------------------------------------------------------------------------------
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }

temporaries() { find "$1" -maxdepth 1 -name '.tfq-partial.*' 2>/dev/null; }

# check_outputs DIR WANT_FILES WANT_RECORDS [WHAT [CUT_OK]]: the record files in DIR are none, or
# all WANT_FILES of them, verified and holding WANT_RECORDS records together. A manifest only
# beside shards. With CUT_OK (after SIGKILL), also fewer files if each verifies and no manifest is
# there: the kill fell between the commit's renames.
check_outputs() {
  local dir=$1 want_files=$2 want_records=$3 what=${4:-} cut_ok=${5:-}
  local files=()
  local f
  for f in "$dir"/*; do
    [[ -e $f && $f != *.json ]] && files+=("$f")
  done
  checks=$((checks + 1))
  if ((${#files[@]} == 0)); then
    [[ ! -e $dir/out.manifest.json ]] || fail "$dir: a manifest without its shards"
    return
  fi
  if [[ -n $cut_ok ]] && ((${#files[@]} < want_files)) && ! compgen -G "$dir/*manifest.json" >/dev/null; then
    "$TFQ" inspect --verify "${files[@]}" >/dev/null 2>"$WORK/verify-err" ||
      fail "$what: $dir: a file of a set cut by the kill does not verify: $(head -c 300 "$WORK/verify-err")"
    return
  fi
  if ((${#files[@]} != want_files)); then
    fail "$what: $dir: ${#files[@]} of $want_files outputs under final names: ${files[*]}"
    return
  fi
  "$TFQ" inspect --verify "${files[@]}" >/dev/null 2>"$WORK/verify-err" ||
    fail "$dir: an output under its final name does not verify: $(head -c 300 "$WORK/verify-err")"
  local n
  n=$("$TFQ" inspect --count "${files[@]}")
  [[ $n == "$want_records" ]] || fail "$dir: $n records under final names, expected $want_records"
}

interrupted=0  # trials where the signal found tfq still running
finished=0

# trial NAME SIG DELAY_MS FILES RECORDS DIR CMD...: one run of CMD (writing into DIR) sent SIG
# after DELAY_MS, then the checks above.
trial() {
  local name=$1 sig=$2 delay=$3 files=$4 records=$5 dir=$6
  shift 6
  rm -rf "$dir" && mkdir -p "$dir"
  # Job control: the background job gets default signal handling (not SIGINT ignored).
  set -m
  "$@" >/dev/null 2>"$WORK/trial-err" &
  local pid=$!
  set +m
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  kill -s "$sig" "$pid" 2>/dev/null
  { wait "$pid"; } 2>/dev/null  # without the shell's "Killed" notice
  local status=$?
  local what="$name SIG$sig at ${delay} ms"
  checks=$((checks + 1))
  if ((status == 0)); then
    finished=$((finished + 1))
  elif ((status == 128 + $(kill -l "$sig"))); then
    interrupted=$((interrupted + 1))
  else
    fail "$what: exit status $status; stderr: $(head -c 300 "$WORK/trial-err")"
  fi
  check_outputs "$dir" "$files" "$records" "$what" "$([[ $sig == KILL ]] && echo cut_ok)"
  local left
  left=$(temporaries "$dir")
  if [[ $sig != KILL ]]; then
    checks=$((checks + 1))
    [[ -z $left ]] || fail "$what: temporaries left: $left"
    return
  fi
  # After SIGKILL: the next run of the same job cleans up what is left and completes.
  run "$@"
  checks=$((checks + 1))
  if [[ $code != 0 ]]; then
    fail "$what: the run after SIGKILL exited $code: $(head -c 300 "$WORK/err")"
    return
  fi
  if [[ -n $left ]]; then
    expect_stderr_contains "left by an earlier run that was killed"
  fi
  checks=$((checks + 1))
  [[ -z $(temporaries "$dir") ]] || fail "$what: temporaries after the rerun: $(temporaries "$dir")"
  check_outputs "$dir" "$files" "$records" "$what, the run after it"
  checks=$((checks + 1))
  [[ $(ls "$dir" | grep -cv '\.json$') == "$files" ]] || fail "$what: the rerun did not write all $files outputs"
}

# exercise NAME FILES RECORDS DIR CMD...: the reference run, then the trials.
exercise() {
  local name=$1 files=$2 records=$3 dir=$4
  shift 4
  rm -rf "$dir" && mkdir -p "$dir"
  local start; start=$(now_ms)
  expect_exit 0 "$@"
  local span=$(($(now_ms) - start))
  check_outputs "$dir" "$files" "$records" "$name, uninterrupted"
  echo "  $name: $span ms uninterrupted"
  local sig i
  for sig in INT TERM KILL; do
    for ((i = 0; i < trials; i++)); do
      trial "$name" "$sig" $((RANDOM % (span + span / 10 + 1))) "$files" "$records" "$dir" "$@"
    done
  done
}

exercise "convert jsonl -> 4 shards" 4 60000 "$WORK/o-jsonl" \
  "$TFQ" convert "$WORK/rows.jsonl" -o "$WORK/o-jsonl/p" --shards 4 -q
exercise "convert csv -> one file" 1 300000 "$WORK/o-csv" \
  "$TFQ" convert "$WORK/table.csv" -o "$WORK/o-csv/out.tfrecord" --threads 2 -q
if ((have_images)); then
  exercise "convert images -> 3 shards" 3 80 "$WORK/o-img" \
    "$TFQ" convert "$WORK/imgs" -o "$WORK/o-img/out" --shards 3 --size 320x320 --threads 2 -q
fi
exercise "shard -> 3 shards" 3 40000 "$WORK/o-shard" \
  "$TFQ" shard "$WORK/big.tfrecord" -o "$WORK/o-shard/p" --shards 3 -q
exercise "shuffle, spilled buckets" 2 40000 "$WORK/o-spill" \
  "$TFQ" shuffle "$WORK/big.tfrecord" -o "$WORK/o-spill/p" --shards 2 --seed 3 --memory 24MiB --method buckets -q
exercise "shuffle, default" 2 40000 "$WORK/o-shuf" \
  "$TFQ" shuffle "$WORK/big.tfrecord" -o "$WORK/o-shuf/p" --shards 2 --seed 3 -q

echo "interrupt_test: $interrupted trials interrupted, $finished finished before the signal"
checks=$((checks + 1))
((interrupted > 0)) || fail "no trial interrupted a running tfq: the test is not testing"
finish
