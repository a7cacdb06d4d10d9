# Helpers for end-to-end tests: source it, then call the checks. Each failed check prints what
# was expected and what happened, and the script exits non-zero at the end (or at once for die).
set -uo pipefail
: "${TFQ:?TFQ must name the tfq binary}"
TFQ_SOURCE_DIR=${TFQ_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SHARED=${TFQ_SHARED_DIR:-${TFQ_DEFAULT_SHARED_DIR:-$TFQ_SOURCE_DIR/../shared}}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tfq-e2e-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
failures=0
checks=0
# 1 when $TFQ is an AddressSanitizer build (scripts/test.sh's second pass): memory is shadowed and
# code several times slower, so memory bounds cannot be checked and the largest inputs are cut down.
# The binary is searched directly: `ldd | grep -q` under pipefail fails whenever grep quits
# before ldd has written everything (SIGPIPE).
sanitized=0
grep -q __asan_init "$TFQ" && sanitized=1

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
die() { echo "FATAL: $*" >&2; exit 1; }

# run CMD...: runs it, keeping stdout in $WORK/out, stderr in $WORK/err, exit code in $code.
run() {
  "$@" >"$WORK/out" 2>"$WORK/err"
  code=$?
}

# expect_exit N CMD...: runs CMD and checks its exit code.
expect_exit() {
  local want=$1; shift
  run "$@"
  checks=$((checks + 1))
  if [[ $code != "$want" ]]; then
    fail "'$*' exited $code, expected $want; stderr: $(head -c 600 "$WORK/err")"
  fi
}

# expect_stdout TEXT: the last run's stdout equals TEXT (without trailing newline).
expect_stdout() {
  checks=$((checks + 1))
  local got; got=$(cat "$WORK/out")
  [[ "$got" == "$1" ]] || fail "stdout was '$(head -c 300 <<<"$got")', expected '$1'"
}

# expect_stderr_contains TEXT / expect_stdout_contains TEXT
expect_stderr_contains() {
  checks=$((checks + 1))
  grep -qF -- "$1" "$WORK/err" || fail "stderr lacks '$1'; it was: $(head -c 600 "$WORK/err")"
}
expect_stdout_contains() {
  checks=$((checks + 1))
  grep -qF -- "$1" "$WORK/out" || fail "stdout lacks '$1'; it was: $(head -c 600 "$WORK/out")"
}
expect_stderr_empty() {
  checks=$((checks + 1))
  [[ ! -s "$WORK/err" ]] || fail "stderr not empty: $(head -c 600 "$WORK/err")"
}

have_shared() { [[ -d "$SHARED/corpus" ]]; }
skip_without_shared() {
  if ! have_shared; then
    echo "SKIP: $SHARED/corpus is absent (set TFQ_SHARED_DIR to run this test)"
    exit 77
  fi
}

# flip_byte FILE OFFSET: xors one byte with 0x01 in place.
flip_byte() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys
path, off = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    f.seek(off); b = f.read(1); f.seek(off); f.write(bytes([b[0] ^ 1]))
PY
}

# make_write_failure_inputs: about 6 MB each of JSON lines ($WORK/rows.jsonl), CSV
# ($WORK/table.csv) and TFRecord ($WORK/in.tfrecord), for the tests of writes that fail part way
# (disk_full_test.sh, file_size_limit_test.sh).
make_write_failure_inputs() {
  /usr/bin/python3 - "$WORK" <<'PY'
import json, sys
w = sys.argv[1]
with open(w + "/rows.jsonl", "w") as f:
    for i in range(6000):
        f.write(json.dumps({"id": [i], "pad": ["%d %s" % (i, "x" * 1000)]}) + "\n")
with open(w + "/table.csv", "w") as f:
    f.write("id,text\n")
    for i in range(6000):
        f.write("%d,%s\n" % (i, "z" * 1000))
PY
  "$TFQ" convert "$WORK/rows.jsonl" -o "$WORK/in.tfrecord" -q || die "cannot make the input"
}

finish() {
  if ((failures)); then
    echo "$checks checks, $failures failed"
    exit 1
  fi
  echo "$checks checks passed"
  exit 0
}
