#!/usr/bin/env bash
# tfq shuffle as scripts use it: a permutation, deterministic for a seed and independent of
# --memory, the memory bound on an input larger than --memory, the window shuffle, exit codes,
# and that no temporary survives success, failure, SIGINT/SIGTERM or even SIGKILL.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reshard_lib.sh"

mkdir -p "$WORK/in" "$WORK/o"
make_rows "$WORK/a.jsonl" 0 200
make_rows "$WORK/b.jsonl" 200 300
"$TFQ" convert "$WORK/a.jsonl" -o "$WORK/in/a.tfrecord" -q || die "convert a"
"$TFQ" convert "$WORK/b.jsonl" -o "$WORK/in/b.tfrecord.gz" -q || die "convert b"
small=("$WORK/in/a.tfrecord" "$WORK/in/b.tfrecord.gz")
# ~43 MB of 200-byte records: more than the 12 MiB of records --memory 24MiB allows, so a plain
# file is re-scanned once per key range (through buckets when asked, or when compressed). And
# ~30 MB of 24 KB records, which tfq may also re-read one by one (--method reread).
make_rows "$WORK/med.jsonl" 0 200000 150
"$TFQ" convert "$WORK/med.jsonl" -o "$WORK/in/med.tfrecord" -q || die "convert med"
make_rows "$WORK/big.jsonl" 0 1250 24000
"$TFQ" convert "$WORK/big.jsonl" -o "$WORK/in/big.tfrecord" -q || die "convert big"
rm -f "$WORK"/*.jsonl

# A permutation of all inputs, cut into near-equal shards, with the checksum line.
expect_exit 0 "$TFQ" shuffle "${small[@]}" -o "$WORK/o/s" --seed 1 --shards 3
expect_stderr_contains "tfq: shuffle: 300 records in, 300 out in 3 shards (in memory); checksum in 0x"
checks=$((checks + 1))
grep -qE 'checksum in (0x[0-9a-f]{16}) = out \1;' "$WORK/err" || fail "checksums differ: $(cat "$WORK/err")"
checks=$((checks + 1)); [[ $(count "$WORK"/o/s-*) == 300 && $(count "$WORK/o/s-00002-of-00003") == 100 ]] || fail "shard counts"
ids "$WORK"/o/s-* > "$WORK/shuffled"
checks=$((checks + 1)); [[ $(sort -n "$WORK/shuffled" | tr '\n' ' ') == "$(seq 0 299 | tr '\n' ' ')" ]] || fail "not a permutation"
checks=$((checks + 1)); [[ $(head -20 "$WORK/shuffled" | tr '\n' ' ') != "$(seq 0 19 | tr '\n' ' ')" ]] || fail "not shuffled"
expect_no_temporaries "$WORK/o"

# --json; the same seed gives the same bytes, another seed other bytes.
expect_exit 0 "$TFQ" shuffle "${small[@]}" -o "$WORK/o/again" --seed 1 --shards 3 --json
checks=$((checks + 1)); [[ $(json_field checksum_ok) == True && $(json_field records_out) == 300 ]] || fail "--json: $(cat "$WORK/out")"
checks=$((checks + 1)); cmp -s "$WORK/o/s-00001-of-00003" "$WORK/o/again-00001-of-00003" || fail "same seed, different bytes"
expect_exit 0 "$TFQ" shuffle "${small[@]}" -o "$WORK/o/other" --seed 2 --shards 3 -q
checks=$((checks + 1)); ! cmp -s "$WORK/o/s-00001-of-00003" "$WORK/o/other-00001-of-00003" || fail "seed ignored"

# Larger than --memory: re-scanning and buckets, the same bytes as in memory, and no temporary
# left behind.
mkdir -p "$WORK/tmp"
expect_exit 0 "$TFQ" shuffle "$WORK/in/med.tfrecord" -o "$WORK/o/mem" --seed 5 --memory 1GB
expect_stderr_contains "(in memory)"
expect_exit 0 "$TFQ" shuffle "$WORK/in/med.tfrecord" -o "$WORK/o/bkt" --seed 5 --memory 24MiB --tmp-dir "$WORK/tmp" --method buckets
expect_stderr_contains "buckets"
checks=$((checks + 1)); cmp -s "$WORK/o/mem-00000-of-00001" "$WORK/o/bkt-00000-of-00001" || fail "buckets changed the result"
expect_empty_dir "$WORK/tmp"
expect_exit 0 "$TFQ" shuffle "$WORK/in/med.tfrecord" -o "$WORK/o/scan" --seed 5 --memory 24MiB --tmp-dir "$WORK/tmp"
expect_stderr_contains "(re-scanned in"
checks=$((checks + 1)); cmp -s "$WORK/o/mem-00000-of-00001" "$WORK/o/scan-00000-of-00001" || fail "re-scanning changed the result"
expect_empty_dir "$WORK/tmp"
expect_exit 0 "$TFQ" shuffle "$WORK/in/med.tfrecord" "$WORK/in/a.tfrecord" -o "$WORK/o/scan3" --seed 5 --memory 24MiB --shards 3 --method rescan
expect_exit 0 "$TFQ" shuffle "$WORK/in/med.tfrecord" "$WORK/in/a.tfrecord" -o "$WORK/o/mem3" --seed 5 --memory 1GB --shards 3 -q
for k in 0 1 2; do
  checks=$((checks + 1)); cmp -s "$WORK/o/mem3-0000$k-of-00003" "$WORK/o/scan3-0000$k-of-00003" || fail "re-scanning two inputs changed shard $k"
done
expect_exit 2 "$TFQ" shuffle "${small[@]}" -o "$WORK/o/nz" --seed 5 --method rescan
expect_stderr_contains "re-scanning needs regular, uncompressed input files"
expect_exit 0 "$TFQ" shuffle "$WORK/in/big.tfrecord" -o "$WORK/o/rr" --seed 5 --memory 24MiB --method reread
expect_stderr_contains "(re-read in"
expect_exit 0 "$TFQ" shuffle "$WORK/in/big.tfrecord" -o "$WORK/o/rs" --seed 5 --memory 24MiB
expect_stderr_contains "(re-scanned in"  # large records too, while the page cache holds them
checks=$((checks + 1)); cmp -s "$WORK/o/rr-00000-of-00001" "$WORK/o/rs-00000-of-00001" || fail "re-scanning large records changed the result"
expect_exit 0 "$TFQ" shuffle "$WORK/in/big.tfrecord" -o "$WORK/o/rm" --seed 5 --memory 1GB -q
checks=$((checks + 1)); cmp -s "$WORK/o/rr-00000-of-00001" "$WORK/o/rm-00000-of-00001" || fail "re-reading changed the result"
checks=$((checks + 1)); [[ $(count "$WORK/o/bkt-00000-of-00001") == 200000 ]] || fail "bucket count"
expect_no_temporaries "$WORK/o"

# One per-record limit for every method: --memory 24MiB leaves 12 MiB - 32 bytes (12582880) for
# one record. Records of 12.5 MB (re-scanning and re-reading once refused anything over 5 MiB)
# go through every method, and standard input, to the same bytes; one of 12.6 MB is refused by
# every one with the same message (exit 1), and nothing is written.
make_rows "$WORK/l.jsonl" 0 3 12500000
make_rows "$WORK/s.jsonl" 3 40 100
cat "$WORK/l.jsonl" "$WORK/s.jsonl" >"$WORK/ls.jsonl"
"$TFQ" convert "$WORK/ls.jsonl" -o "$WORK/in/large.tfrecord" -q || die "convert large"
make_rows "$WORK/o.jsonl" 0 2 12600000
"$TFQ" convert "$WORK/o.jsonl" -o "$WORK/in/over.tfrecord" -q || die "convert over"
rm -f "$WORK"/*.jsonl
mkdir -p "$WORK/lg"
expect_exit 0 "$TFQ" shuffle "$WORK/in/large.tfrecord" -o "$WORK/lg/mem" --seed 4 --memory 1GB -q
for method in auto buckets reread rescan stdin; do
  if [[ $method == stdin ]]; then
    run "$TFQ" shuffle - -o "$WORK/lg/$method" --seed 4 --memory 24MiB --tmp-dir "$WORK/tmp" <"$WORK/in/large.tfrecord"
    checks=$((checks + 1)); ((code == 0)) || fail "stdin, records of 12.5 MB: exit $code; $(cat "$WORK/err")"
  else
    expect_exit 0 "$TFQ" shuffle "$WORK/in/large.tfrecord" -o "$WORK/lg/$method" --seed 4 --memory 24MiB --method $method --tmp-dir "$WORK/tmp"
  fi
  checks=$((checks + 1)); cmp -s "$WORK/lg/mem-00000-of-00001" "$WORK/lg/$method-00000-of-00001" || fail "$method: records of 12.5 MB shuffled otherwise"
  expect_stderr_contains "40 records in, 40 out"
  too_large="record 0 (byte 0): 12600050 bytes, more than the 12582880 bytes --memory 24.0 MiB leaves for one record; raise --memory to 25.0 MiB or more"
  mkdir -p "$WORK/lg-over"
  if [[ $method == stdin ]]; then
    run "$TFQ" shuffle - -o "$WORK/lg-over/x" --seed 4 --memory 24MiB --tmp-dir "$WORK/tmp" <"$WORK/in/over.tfrecord"
    checks=$((checks + 1)); ((code == 1)) || fail "stdin, a record of 12.6 MB: exit $code; $(cat "$WORK/err")"
    expect_stderr_contains "tfq: error: -: $too_large"
  else
    expect_exit 1 "$TFQ" shuffle "$WORK/in/over.tfrecord" -o "$WORK/lg-over/x" --seed 4 --memory 24MiB --method $method --tmp-dir "$WORK/tmp"
    expect_stderr_contains "tfq: error: $WORK/in/over.tfrecord: $too_large"
  fi
  expect_empty_dir "$WORK/lg-over"
done
expect_empty_dir "$WORK/tmp"

# Re-scanning and re-reading open the inputs again asking not to update their access time
# (O_NOATIME), which only a file's owner may ask for: someone who may read an input but does not
# own it gets the same bytes. Run as nobody where root can switch to it.
if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$TFQ" 2>/dev/null; then
  as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  mkdir -p "$WORK/nobody" && chmod 755 "$WORK" "$WORK/in" && chmod 777 "$WORK/nobody"
  expect_exit 0 "${as_nobody[@]}" "$TFQ" shuffle "$WORK/in/med.tfrecord" -o "$WORK/nobody/scan" --seed 5 --memory 24MiB --method rescan
  checks=$((checks + 1)); cmp -s "$WORK/o/mem-00000-of-00001" "$WORK/nobody/scan-00000-of-00001" || fail "re-scanning another's file changed the result"
  expect_exit 0 "${as_nobody[@]}" "$TFQ" shuffle "$WORK/in/big.tfrecord" -o "$WORK/nobody/rr" --seed 5 --memory 24MiB --method reread
  checks=$((checks + 1)); cmp -s "$WORK/o/rm-00000-of-00001" "$WORK/nobody/rr-00000-of-00001" || fail "re-reading another's file changed the result"
else
  echo "shuffle_test: skipping the not-the-owner runs (needs root and setpriv, and $TFQ runnable by nobody)"
fi

# Peak resident memory within --memory plus a few MiB (not measurable under AddressSanitizer).
if [[ -x /usr/bin/time ]] && ((!sanitized)); then
  # INPUT:METHOD:SHARDS; the bound does not grow with the shards (12 shards re-scanned once
  # peaked at 38.5 MB: read buffers taken anew each pass fragmented the heap).
  for run in med:auto:1 med:auto:12 med:rescan:16 med:buckets:1 med:buckets:12 big:reread:1 big:reread:12; do
    IFS=: read -r input method shards <<<"$run"
    rm -f "$WORK"/o/rss-*
    /usr/bin/time -v "$TFQ" shuffle "$WORK/in/$input.tfrecord" -o "$WORK/o/rss-$input" --seed 1 --memory 24MiB \
      --method "$method" --shards "$shards" --tmp-dir "$WORK/tmp" -q 2>"$WORK/time"
    peak_kb=$(awk -F: '/Maximum resident set size/ {print $2 + 0}' "$WORK/time")
    checks=$((checks + 1))
    ((peak_kb <= 24 * 1024 + 8 * 1024)) || fail "$run: peak RSS ${peak_kb} KiB exceeds --memory 24MiB + 8 MiB"
  done
  # A compressed output: the compressing threads' blocks and encoders come out of --memory
  # (at --memory 64MiB, 2 of the 4 threads asked for; at 24MiB, the writing thread alone).
  for run in 64:auto:1 64:buckets:12 24:buckets:1; do
    IFS=: read -r mib method shards <<<"$run"
    rm -f "$WORK"/o/rss-*
    /usr/bin/time -v "$TFQ" shuffle "$WORK/in/med.tfrecord" -o "$WORK/o/rss-gz" --seed 1 --memory ${mib}MiB \
      --method "$method" --shards "$shards" -c gzip --threads 4 --tmp-dir "$WORK/tmp" -q 2>"$WORK/time"
    peak_kb=$(awk -F: '/Maximum resident set size/ {print $2 + 0}' "$WORK/time")
    checks=$((checks + 1))
    ((peak_kb <= (mib + 8) * 1024)) || fail "gzip $run: peak RSS ${peak_kb} KiB exceeds --memory ${mib}MiB + 8 MiB"
  done
  # Records of 12.5 MB (11.9 MiB), beyond the 4 MiB the input's share covers: re-scanning and
  # re-reading stay within the bound; through buckets (and from standard input) the record's
  # read buffer comes on top of the arena, by at most its size (docs/shuffle.md).
  for run in rescan:0 reread:0 buckets:12 stdin:12; do
    IFS=: read -r method extra_mib <<<"$run"
    rm -f "$WORK"/o/rss-*
    if [[ $method == stdin ]]; then
      /usr/bin/time -v "$TFQ" shuffle - -o "$WORK/o/rss-large" --seed 1 --memory 24MiB \
        --tmp-dir "$WORK/tmp" -q <"$WORK/in/large.tfrecord" 2>"$WORK/time"
    else
      /usr/bin/time -v "$TFQ" shuffle "$WORK/in/large.tfrecord" -o "$WORK/o/rss-large" --seed 1 --memory 24MiB \
        --method "$method" --tmp-dir "$WORK/tmp" -q 2>"$WORK/time"
    fi
    peak_kb=$(awk -F: '/Maximum resident set size/ {print $2 + 0}' "$WORK/time")
    checks=$((checks + 1))
    ((peak_kb <= (24 + 8 + extra_mib) * 1024)) ||
      fail "large records, $method: peak RSS ${peak_kb} KiB exceeds --memory 24MiB + 8 MiB + $extra_mib MiB"
  done
fi

# Compression in and out; --window (tf.data's buffer shuffle).
expect_exit 0 "$TFQ" shuffle "${small[@]}" -o "$WORK/o/z" --seed 3 -c zlib --suffix .zz -q
checks=$((checks + 1)); [[ $(count "$WORK/o/z-00000-of-00001.zz") == 300 ]] || fail "zlib output"
expect_exit 0 "$TFQ" shuffle "${small[@]}" -o "$WORK/o/win" --seed 3 --window 16 --shards 2
expect_stderr_contains "(window of 16 records)"
ids "$WORK"/o/win-* > "$WORK/win"
checks=$((checks + 1)); [[ $(sort -n "$WORK/win" | tr '\n' ' ') == "$(seq 0 299 | tr '\n' ' ')" ]] || fail "window: not a permutation"

# Usage errors: exit 2, nothing written.
mkdir -p "$WORK/u"
expect_exit 2 "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x"
expect_exit 2 "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 1 --memory 1MB
expect_exit 2 "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 1 --memory plenty
expect_exit 2 "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 1 --shards 0
expect_exit 2 "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 1 -c brotli
expect_exit 2 "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 1 --tmp-dir "$WORK/in/a.tfrecord"
expect_exit 1 "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 1 --tmp-dir "$WORK/nowhere"
expect_stderr_contains "nowhere"
expect_empty_dir "$WORK/u"

# Absurd numbers: each a usage error naming its flag, at once, and nothing written. CLI11 reads
# "-1" into an unsigned option as 2^64 - 1 (--shards -1 once ran forever; --seed -1 and
# --window -1 ran as 2^64 - 1) and a number beyond 2^64 - 1 as that. At most 99999 shards.
huge=18446744073709551616
for v in -1 0 100000 "$huge" 1.5 abc ""; do
  expect_usage_error "--shards" "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 1 --shards "$v"
  expect_usage_error "--shards" "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 1 --shards "$v" --window 4
done
for v in -1 "$huge" 0x10 1e3 abc ""; do
  expect_usage_error "--seed" "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed "$v"
done
for v in -1 0 "$huge" abc; do
  expect_usage_error "--window" "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 1 --window "$v"
done
for v in -1 0 23MiB 1e99 100000TB 18446744073709551615 abc; do
  expect_usage_error "--memory" "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 1 --memory "$v"
done
expect_empty_dir "$WORK/u"
# At the ends of the ranges the same flags work.
expect_exit 0 "$TFQ" shuffle "${small[@]}" -o "$WORK/u/x" --seed 18446744073709551615 --shards 3 -q
checks=$((checks + 1)); [[ $(count "$WORK"/u/x-*-of-00003) == 300 ]] || fail "the largest seed"
expect_exit 0 "$TFQ" shuffle "${small[@]}" -o "$WORK/u/w" --seed 0 --window 18446744073709551615 -q
checks=$((checks + 1)); [[ $(count "$WORK/u/w-00000-of-00001") == 300 ]] || fail "the largest window"

# Corrupt input: exit 3, and neither output nor temporary, whichever way the shuffle goes.
mkdir -p "$WORK/bad" "$WORK/c"
cp "$WORK/in/med.tfrecord" "$WORK/bad/med.tfrecord"
flip_byte "$WORK/bad/med.tfrecord" 30000000
for memory in 1GB 24MiB; do
  expect_exit 3 "$TFQ" shuffle "$WORK/bad/med.tfrecord" -o "$WORK/c/x" --seed 1 --memory $memory --tmp-dir "$WORK/c"
  expect_stderr_contains "med.tfrecord: record"
  expect_empty_dir "$WORK/c"
done

# Interrupted runs. The input comes through a FIFO and stops after 43 MB, so tfq is mid-run
# with its bucket file (a nameless temporary: it shows in /proc/PID/fd as "(deleted)") full.
has_spill() { [[ $(ls -l "/proc/$1/fd" 2>/dev/null) == *"(deleted)"* ]]; }
interrupt() {
  local sig=$1 dir="$WORK/int-$1"
  mkdir -p "$dir"
  rm -f "$WORK/fifo" && mkfifo "$WORK/fifo"
  [[ $sig == KILL ]] || set -m  # job control: default signal handling in the background job
  "$TFQ" shuffle "$WORK/fifo" -o "$dir/p" --seed 1 --memory 24MiB --shards 2 -q 2>"$WORK/int-err" &
  local pid=$!
  set +m
  exec 3>"$WORK/fifo"
  cat "$WORK/in/med.tfrecord" >&3
  checks=$((checks + 1))
  wait_for 10 has_spill "$pid" || fail "no bucket file before SIG$sig: $(ls -l /proc/$pid/fd 2>&1; grep State /proc/$pid/status; cat "$WORK/int-err")"
  kill -s "$sig" "$pid"
  wait "$pid" 2>/dev/null
  local status=$?
  exec 3>&-
  checks=$((checks + 1))
  [[ $status == $((128 + $(kill -l "$sig"))) ]] || fail "SIG$sig: exit status $status; $(cat "$WORK/int-err")"
  expect_empty_dir "$dir"
}
interrupt INT
interrupt TERM
interrupt KILL  # even SIGKILL leaves nothing: the bucket file never had a name

# Re-scanning writes no temporary but the staged shards: SIGINT once they exist removes them.
# (A run may finish before the signal on a fast machine; some of the tries must be interrupted.)
has_staged() { compgen -G "$1/.tfq-partial.*" >/dev/null; }
interrupted=0
for try in 1 2 3 4 5; do
  dir="$WORK/int-scan-$try"
  mkdir -p "$dir"
  set -m
  "$TFQ" shuffle "$WORK/in/med.tfrecord" -o "$dir/p" --seed 1 --memory 24MiB --shards 2 --method rescan -q 2>"$WORK/int-err" &
  pid=$!
  set +m
  for ((i = 0; i < 2000; ++i)); do has_staged "$dir" && break; sleep 0.005; done
  kill -s INT "$pid" 2>/dev/null
  wait "$pid"
  status=$?
  checks=$((checks + 1))
  if ((status == 130)); then
    interrupted=$((interrupted + 1))
    expect_empty_dir "$dir"
  else
    ((status == 0)) || fail "re-scan, SIGINT: exit status $status; $(cat "$WORK/int-err")"
    expect_no_temporaries "$dir"
  fi
done
checks=$((checks + 1)); ((interrupted > 0)) || fail "no re-scanning run was interrupted"

finish
