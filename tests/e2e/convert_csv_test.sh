#!/usr/bin/env bash
# tfq convert for tables: CSV/TSV <-> TFRecord through the real binary. RFC 4180 corners, every
# error message with its exit code, round trips, determinism across threads, shards, .csv.gz,
# and the real files of $SHARED/csv checked against Python's csv module and the protobuf oracle.
source "$(dirname "$0")/lib.sh"
W=$WORK

# to_csv IN.csv OUT.csv [flags...]: CSV -> TFRecord -> CSV.
to_csv() {
  local in=$1 out=$2; shift 2
  "$TFQ" convert "$in" -o "$W/rt.tfrecord" --quiet "$@" && "$TFQ" convert "$W/rt.tfrecord" -o "$out" --quiet
}
# expect_file FILE TEXT: FILE holds exactly TEXT (printf %b escapes).
expect_file() {
  checks=$((checks + 1))
  local want; want=$(printf '%b' "$2"; echo x); want=${want%x}
  local got; got=$(cat "$1"; echo x); got=${got%x}
  [[ "$got" == "$want" ]] || fail "$1 is $(printf %q "$got"), expected $(printf %q "$want")"
}

# --- RFC 4180 corners, through the whole command and back -----------------------------------
printf '\xef\xbb\xbfa,b,c\r\n1,"x,y",2.5\r\n\r\n2,"say ""hi""",-0.5\r\n3,"two\nlines",1e3\r\n4,,' > "$W/corners.csv"
expect_exit 0 to_csv "$W/corners.csv" "$W/corners.out.csv"
expect_file "$W/corners.out.csv" 'a,b,c\n1,"x,y",2.5\n2,"say ""hi""",-0.5\n3,"two\nlines",1000.0\n4,,\n'
# TSV by extension, with a quoted tab.
printf 'k\tv\nx\t"a\tb"\ny\t7\n' > "$W/t.tsv"
expect_exit 0 to_csv "$W/t.tsv" "$W/t.out.tsv"
expect_file "$W/t.out.tsv" 'k\tv\nx\t"a\tb"\ny\t7\n'
# --delimiter '\t' on a .csv name, --no-header with --columns, lone CR line ends.
printf '1\tz\r2\tw\r' > "$W/noh.csv"
expect_exit 0 to_csv "$W/noh.csv" "$W/noh.out.csv" --delimiter '\t' --no-header --columns n,s
expect_file "$W/noh.out.csv" 'n,s\n1,z\n2,w\n'
# Leading zeros stay text, spaces are data, a one-column table keeps its empty rows.
printf 'zip,name\n00501, a \n10001,b\n' > "$W/zip.csv"
expect_exit 0 to_csv "$W/zip.csv" "$W/zip.out.csv"
expect_file "$W/zip.out.csv" 'zip,name\n00501, a \n10001,b\n'
printf 'v\n""\nx\n' > "$W/one.csv"
expect_exit 0 to_csv "$W/one.csv" "$W/one.out.csv"
expect_file "$W/one.out.csv" 'v\n""\nx\n'

# --- schema flags ---------------------------------------------------------------------------
printf 'id,price,tags,label\n1,9.5,a;b,1\n2,NA,,0\n3,,c,1\n' > "$W/s.csv"
expect_exit 0 "$TFQ" convert "$W/s.csv" -o "$W/s.tfrecord" --quiet --print-schema \
  --list-column 'tags:bytes:;' --na-value NA --column id:float --label-column label --exclude price
expect_stdout '{"columns": [
  {"name":"id","kind":"float"},
  {"name":"tags","kind":"bytes","list_separator":";"},
  {"name":"label","kind":"int64","required":true}
]}'
cp "$WORK/out" "$W/s.schema.json"
expect_exit 0 "$TFQ" inspect --records --format flat --head 1 "$W/s.tfrecord"
expect_stdout '{"id":[1.0],"tags":["a","b"],"label":[1]}'
# The printed schema read back gives the same records.
expect_exit 0 "$TFQ" convert "$W/s.csv" -o "$W/s2.tfrecord" --quiet --schema "$W/s.schema.json" --na-value NA --exclude price
checks=$((checks + 1)); cmp -s "$W/s.tfrecord" "$W/s2.tfrecord" || fail "--schema from --print-schema differs"
# A default fills a missing value; --select keeps the label.
printf '{"columns":{"price":{"kind":"float","default":0}}}' > "$W/d.json"
expect_exit 0 "$TFQ" convert "$W/s.csv" -o "$W/d.tfrecord" --quiet --schema "$W/d.json" --select price --label-column label --na-value NA
expect_exit 0 "$TFQ" convert "$W/d.tfrecord" -o "$W/d.csv" --quiet
expect_file "$W/d.csv" 'price,label\n9.5,1\n0.0,0\n0.0,1\n'
# --ragged pad and skip.
printf 'a,b\n1,2\n3\n4,5\n' > "$W/r.csv"
expect_exit 0 to_csv "$W/r.csv" "$W/r.out.csv" --ragged pad
expect_file "$W/r.out.csv" 'a,b\n1,2\n3,\n4,5\n'
expect_exit 0 "$TFQ" convert "$W/r.csv" -o "$W/r.tfrecord" --ragged skip
expect_stderr_contains "skipped 1 rows with the wrong number of fields"
expect_stderr_contains "read 3 rows, wrote 2 records"

# --- errors: bad data is exit 3 and names file, line, row and column --------------------------
err3() {  # err3 FILE-CONTENT MESSAGE [flags...]
  local content=$1 msg=$2; shift 2
  printf '%b' "$content" > "$W/e.csv"
  expect_exit 3 "$TFQ" convert "$W/e.csv" -o "$W/e.tfrecord" --quiet "$@"
  expect_stderr_contains "$msg"
  checks=$((checks + 1)); [[ ! -e "$W/e.tfrecord" ]] || fail "a failed conversion left $W/e.tfrecord"
}
err3 'a,b,c\n1,2,3\n4,5\n' 'e.csv: line 3 (row 2), column 3 "c": missing; the record has 2 fields, 3 expected'
err3 'a,h\n1,5x"\n' 'e.csv: line 2 (row 1), column 2 "h": quote inside an unquoted field'
err3 'a\n"ab"c\n' 'e.csv: line 2 (row 1), column 1 "a": text after the closing quote'
err3 'a,b\n1,"open\n' 'e.csv: line 2 (row 1), column 2 "b": the quote opening this field is never closed'
err3 'id\n1\n2\n003\n' 'e.csv: line 4 (row 3), column 1 "id": "003" is not an int64' --infer-rows 2
err3 'v\n1e39\n' 'e.csv: line 2 (row 1), column 1 "v": "1e39" is beyond the float32 range' --column v:float
err3 'a,b\n,1\n' 'e.csv: line 2 (row 1), column 1 "a": empty in a required column' --label-column a
err3 'a,b,c\n1,2,3\n' 'e.csv: line 1 (header): the header has 3 fields, but 2 column names were given' --columns x,y
err3 'a,b,a\n1,2,3\n' 'e.csv: line 1 (header), column 3: the column name "a" appears twice'
err3 'n\n1;x\n' 'e.csv: line 2 (row 1), column 1 "n"' --list-column 'n:int64:;'
printf 'a\n1\n' > "$W/e2.csv"; printf 'b\n1\n' > "$W/e3.csv"
expect_exit 3 "$TFQ" convert "$W/e2.csv" "$W/e3.csv" -o "$W/e.tfrecord" --quiet
expect_stderr_contains "e3.csv: line 1 (header): the columns differ from those of"
# Bad flags are exit 2.
printf 'a,b\n1,2\n' > "$W/ok.csv"
err2() { expect_exit 2 "$TFQ" convert "$W/ok.csv" -o "$W/e.tfrecord" --quiet "$@"; expect_stderr_contains "$ERR"; }
ERR='ragged-row policy "maybe"' err2 --ragged maybe
ERR='--delimiter must be one byte' err2 --delimiter ab
ERR='--infer-rows must be a number or all' err2 --infer-rows lots
ERR='"zz"' err2 --select zz
ERR='"zz"' err2 --exclude zz
ERR='--label-column zz' err2 --label-column zz
ERR='both write to stdout' err2 --print-schema --json
ERR='zz' err2 --column a:zz
expect_exit 2 "$TFQ" convert - --from csv -o "$W/e.tfrecord" --infer-rows all < "$W/ok.csv"
expect_stderr_contains 'standard input cannot be'
# Standard input otherwise works.
run sh -c "\"$TFQ\" convert - --from csv -o \"$W/stdin.tfrecord\" --quiet < \"$W/ok.csv\""
checks=$((checks + 1)); [[ $code == 0 && -s "$W/stdin.tfrecord" ]] || fail "CSV from standard input: $code $(cat "$W/err")"
printf '{"columns":[{"name":"a","kind":"int64","default":"x"}]}' > "$W/bad.json"
ERR='bad.json: column "a": the default "x" is not an int64' err2 --schema "$W/bad.json"
printf '{"columns":[{"name":"q","kind":"int64"}]}' > "$W/q.json"
ERR='"q"' err2 --schema "$W/q.json"
expect_exit 1 "$TFQ" convert "$W/missing.csv" -o "$W/e.tfrecord" --quiet
expect_stderr_contains "missing.csv"
# Export errors.
printf 't,u\na;b|c,1\n' > "$W/sep.csv"
expect_exit 0 "$TFQ" convert "$W/sep.csv" -o "$W/sep.tfrecord" --quiet --list-column 't:bytes:|'
expect_exit 3 "$TFQ" convert "$W/sep.tfrecord" -o "$W/sep.out.csv" --quiet
expect_stderr_contains 'sep.tfrecord: record 0: feature "t": value 0 of the list holds the list separator'
expect_exit 0 "$TFQ" convert "$W/sep.tfrecord" -o "$W/sep.out.csv" --quiet --list-separator '|'
expect_file "$W/sep.out.csv" 't,u\na;b|c,1\n'
expect_exit 2 "$TFQ" convert "$W/sep.tfrecord" -o "$W/x.csv" --list-separator ','
expect_exit 2 "$TFQ" convert "$W/sep.tfrecord" -o "$W/x.csv" --bytes hex
expect_stderr_contains '--bytes must be auto or base64'

# --- JSON lines: values that do not fit are errors naming the line ----------------------------
printf '{"a":[1]}\n{"a":{"b":1}}\n' > "$W/j1.jsonl"
printf '{"a":[1]}\n\n{"a":[1,"x"]}\n' > "$W/j2.jsonl"
printf '{"a":[9223372036854775808]}\n' > "$W/j3.jsonl"
expect_exit 3 "$TFQ" convert "$W/j1.jsonl" -o "$W/j.tfrecord" --quiet; expect_stderr_contains "j1.jsonl: line 2"
expect_exit 3 "$TFQ" convert "$W/j2.jsonl" -o "$W/j.tfrecord" --quiet; expect_stderr_contains "j2.jsonl: line 3"
expect_stderr_contains "mixed kinds"
expect_exit 3 "$TFQ" convert "$W/j3.jsonl" -o "$W/j.tfrecord" --quiet; expect_stderr_contains "j3.jsonl: line 1"

# --- a generated table: determinism, round trips, shards, gzip ----------------------------------
/usr/bin/python3 - "$W/big.csv" <<'PY'
import random, sys
r = random.Random(7)
with open(sys.argv[1], "w", newline="") as f:
    f.write("id,score,name,note\n")
    for i in range(60000):
        note = r.choice(["", "plain", '"quoted, with ""quotes"""', '"two\nlines"', "émoji 😀"])
        score = repr(r.randint(-999, 999) / 8)  # multiples of 1/8: exact in float32
        # as the export spells floats: repr's "2.0" too, always a '.' or an exponent
        f.write(f"{i},{score},n{r.randint(0, 99)},{note}\n")
PY
expect_exit 0 "$TFQ" convert "$W/big.csv" -o "$W/big1.tfrecord" --threads 1 --quiet
expect_exit 0 "$TFQ" convert "$W/big.csv" -o "$W/big2.tfrecord" --threads 2 --quiet
expect_exit 0 "$TFQ" convert "$W/big.csv" -o "$W/big3.tfrecord" --threads 3 --quiet
checks=$((checks + 1)); cmp -s "$W/big1.tfrecord" "$W/big2.tfrecord" || fail "--threads 1 and 2 differ"
checks=$((checks + 1)); cmp -s "$W/big1.tfrecord" "$W/big3.tfrecord" || fail "--threads 1 and 3 differ"
# Files of several MiB are cut by the workers themselves (csv/range_cutter.h, --threads > 1, a
# file read at offsets): the same bytes as one thread reading the stream, also around a row of
# 3 MiB of quoted lines (more than a worker reads ahead: handed back to the serial reader), and
# the same error word for word from a row deep in the file.
/usr/bin/python3 - "$W" <<'PY'
import random, sys
r = random.Random(11)
rows = []
for i in range(200000):
    note = r.choice(["", "plain", '"quoted, with ""quotes"""', '"two\nlines"', '"cr\r\nlf"'])
    rows.append(f"{i},{r.randint(-999, 999)},n{r.randint(0, 99)},{note}\n")
head = "id,score,name,note\n"
open(sys.argv[1] + "/cut.csv", "w", newline="").write(head + "".join(rows))
long = rows[:]
long[150000] = '150000,1,n1,"' + "line\n" * (3 << 18) + '"\n'
open(sys.argv[1] + "/cut-long.csv", "w", newline="").write(head + "".join(long))
bad = rows[:]
bad[170000] = "170000,x,n1,\n"
open(sys.argv[1] + "/cut-bad.csv", "w", newline="").write(head + "".join(bad))
PY
for f in cut cut-long; do
  expect_exit 0 "$TFQ" convert "$W/$f.csv" -o "$W/$f-1.tfrecord" --threads 1 --quiet
  for t in 2 3; do
    expect_exit 0 "$TFQ" convert "$W/$f.csv" -o "$W/$f-$t.tfrecord" --threads $t --quiet
    checks=$((checks + 1)); cmp -s "$W/$f-1.tfrecord" "$W/$f-$t.tfrecord" || fail "$f.csv: --threads 1 and $t differ"
  done
done
expect_exit 3 "$TFQ" convert "$W/cut-bad.csv" -o "$W/cut-bad.tfrecord" --threads 1 --quiet
cp "$WORK/err" "$W/cut-bad-1.err"
expect_stderr_contains 'cut-bad.csv: line 238394 (row 170001), column 2 "score": "x" is not an int64'
expect_exit 3 "$TFQ" convert "$W/cut-bad.csv" -o "$W/cut-bad.tfrecord" --threads 2 --quiet
checks=$((checks + 1)); cmp -s "$W/cut-bad-1.err" "$WORK/err" || fail "cut-bad.csv: the message differs at 2 threads: $(cat "$WORK/err")"
# CSV -> TFRecord -> CSV gives the table back (scores are multiples of 1/8: exact in float32).
expect_exit 0 "$TFQ" convert "$W/big1.tfrecord" -o "$W/big.out.csv" --quiet
checks=$((checks + 1)); cmp -s "$W/big.csv" "$W/big.out.csv" || fail "CSV round trip differs: $(diff "$W/big.csv" "$W/big.out.csv" | head -5)"
# TFRecord -> JSON lines -> TFRecord, byte-identical.
expect_exit 0 "$TFQ" convert "$W/big1.tfrecord" -o "$W/big.jsonl" --quiet
expect_exit 0 "$TFQ" convert "$W/big.jsonl" -o "$W/big.back.tfrecord" --quiet
checks=$((checks + 1)); cmp -s "$W/big1.tfrecord" "$W/big.back.tfrecord" || fail "JSON lines round trip differs"
# .csv.gz in and out.
expect_exit 0 "$TFQ" convert "$W/big1.tfrecord" -o "$W/big.csv.gz" --quiet
checks=$((checks + 1)); gzip -dc "$W/big.csv.gz" | cmp -s - "$W/big.csv" || fail ".csv.gz output differs"
expect_exit 0 "$TFQ" convert "$W/big.csv.gz" -o "$W/big.gz.tfrecord" --threads 2 --quiet
checks=$((checks + 1)); cmp -s "$W/big1.tfrecord" "$W/big.gz.tfrecord" || fail ".csv.gz input differs"
# Shards: record k in shard k % N, gzip by -c, the summary as JSON.
mkdir -p "$W/sh"
expect_exit 0 "$TFQ" convert "$W/big.csv" -o "$W/sh/part" --shards 3 --suffix .tfrecord.gz -c gzip --json --threads 2
expect_stdout_contains '"records":60000'
expect_stdout_contains '"rows":60000'
expect_exit 0 "$TFQ" inspect --count "$W/sh/part-00000-of-00003.tfrecord.gz"
expect_stdout "20000"
expect_exit 0 "$TFQ" convert "$W/sh/part-00001-of-00003.tfrecord.gz" -o "$W/sh1.csv" --quiet --select id
checks=$((checks + 1)); [[ $(sed -n 2p "$W/sh1.csv") == 1 && $(sed -n 3p "$W/sh1.csv") == 4 ]] || fail "shard 1 does not start with ids 1, 4"

# --- the real files: tfq's records hold what Python's csv module reads --------------------------
if [[ -d "$SHARED/csv" ]]; then
  for f in "$SHARED"/csv/*.csv; do
    name=$(basename "$f" .csv)
    expect_exit 0 "$TFQ" convert "$f" -o "$W/$name.tfrecord" --quiet --print-schema --infer-rows all --threads 2
    cp "$WORK/out" "$W/$name.schema.json"
    checks=$((checks + 1))
    /usr/bin/python3 "$TFQ_SOURCE_DIR/tests/conformance/check_csv.py" "$SHARED/oracle/tfrecord_oracle.py" \
      "$f" "$W/$name.schema.json" "$W/$name.tfrecord" || fail "$name: records differ from Python's csv module"
    # And back: the CSV export reads back into the same records.
    expect_exit 0 "$TFQ" convert "$W/$name.tfrecord" -o "$W/$name.out.csv" --quiet
    expect_exit 0 "$TFQ" convert "$W/$name.out.csv" -o "$W/$name.again.tfrecord" --quiet --schema "$W/$name.schema.json"
    checks=$((checks + 1)); cmp -s "$W/$name.tfrecord" "$W/$name.again.tfrecord" || fail "$name: CSV export does not read back to the same records"
  done
else
  echo "SKIP (real files): $SHARED/csv is absent"
fi

# --- Export: floats read back as floats; --max-columns bounds the exported columns ----------
# Whole floats beyond 2^24 print as "874101400.0": written "874101400" they were re-imported as
# integers float32 cannot hold, and the column became bytes.
printf 'w,n\n0.5,1\n874101376.0,2\n-363887520.5,3\n1e3,4\n' > "$W/big_floats.csv"
expect_exit 0 "$TFQ" convert "$W/big_floats.csv" -o "$W/bf1.tfrecord" --quiet
expect_exit 0 "$TFQ" convert "$W/bf1.tfrecord" -o "$W/bf1.csv" --quiet
expect_file "$W/bf1.csv" 'w,n\n0.5,1\n874101400.0,2\n-363887520.0,3\n1000.0,4\n'
expect_exit 0 "$TFQ" convert "$W/bf1.csv" -o "$W/bf2.tfrecord" --quiet
checks=$((checks + 1)); cmp -s "$W/bf1.tfrecord" "$W/bf2.tfrecord" || fail "CSV -> TFRecord -> CSV -> TFRecord changed the records"
python3 "$TFQ_SOURCE_DIR/tests/e2e/hostile_gen.py" records-distinct-keys 3 50 > "$W/wide.tfrecord"
expect_exit 1 "$TFQ" convert "$W/wide.tfrecord" -o "$W/wide.csv" --max-columns 120 --quiet
expect_stderr_contains "wide.tfrecord: record 2: the features of the records make more than 120 columns (the limit; one per distinct feature name); name the columns to export with --select a,b,... or raise --max-columns"
expect_exit 0 "$TFQ" convert "$W/wide.tfrecord" -o "$W/wide.csv" --max-columns 150 --quiet
expect_exit 0 "$TFQ" convert "$W/wide.tfrecord" -o "$W/wide.csv" --max-columns 120 --select k0,k149 --quiet
expect_file "$W/wide.csv" 'k0,k149\n1,\n,\n,1\n'

finish
