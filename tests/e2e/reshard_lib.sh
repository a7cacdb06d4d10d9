# Helpers shared by shard_test.sh and shuffle_test.sh (sourced after lib.sh).

# make_rows FILE FROM TO [PAD]: JSON lines with ids FROM..TO-1 and a text of PAD extra bytes.
make_rows() {
  /usr/bin/python3 - "$@" <<'PY'
import json, sys
path, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
pad = int(sys.argv[4]) if len(sys.argv) > 4 else 0
with open(path, "w") as f:
    for i in range(lo, hi):
        f.write(json.dumps({"id": [i], "text": ["row %d %s" % (i, "x" * (pad + i % 7))]}) + "\n")
PY
}

# ids FILE...: the "id" of every record, one per line, in file order.
ids() {
  for f in "$@"; do
    "$TFQ" inspect --records --format flat "$f" | /usr/bin/python3 -c '
import json, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
for line in sys.stdin: print(json.loads(line)["id"][0])'
  done
}

# count FILE...: tfq inspect --count over the files.
count() { "$TFQ" inspect --count "$@"; }

# expect_no_temporaries DIR: nothing hidden and unfinished is left in DIR.
expect_no_temporaries() {
  checks=$((checks + 1))
  local left
  left=$(find "$1" -maxdepth 1 -name '.tfq-partial.*' | head -5)
  [[ -z "$left" ]] || fail "temporaries left in $1: $left"
}

# expect_empty_dir DIR: no file at all (neither final nor temporary).
expect_empty_dir() {
  checks=$((checks + 1))
  local left
  left=$(ls -A "$1" | head -5)
  [[ -z "$left" ]] || fail "$1 should be empty after the failed run; it holds: $left"
}

# json_field NAME: a field of the last run's --json output (stdout).
json_field() {
  /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$WORK/out" "$1"
}

# wait_for TIMEOUT_S COMMAND...: polls until COMMAND succeeds (0) or time runs out (1).
wait_for() {
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.05
  done
}

# expect_usage_error FLAG CMD...: CMD ends within 60 s (an absurd value must not hang) with exit
# 2 and an error naming FLAG.
expect_usage_error() {
  local flag=$1; shift
  expect_exit 2 timeout 60 "$@"
  expect_stderr_contains "tfq: error: $flag"
}
