#!/usr/bin/env bash
# tfq bench as CI uses it: a quick run anywhere, the JSON schema, --save and --baseline with the
# exit codes of the gate, named inputs, usage errors.
source "$(dirname "$0")/lib.sh"

# Short settings for everything but the bare run: one thread, two workloads, little data.
fast=(--quick --threads 1 --workloads read-crc-memory,parse-example --data-size 256KiB --seconds 0.05)

# A bare `tfq bench --quick` works anywhere (generated data) and finishes in seconds.
start=$(date +%s%N)
expect_exit 0 "$TFQ" bench --quick
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
for text in "machine:" "crc32c" "build" "memcpy" "read-crc-memory" "read-crc-file" "read-gzip" \
            "parse-example" "encode-example" "MB/s" "records/s"; do
  expect_stdout_contains "$text"
done
# No progress line when stderr is not a terminal.
checks=$((checks + 1)); ! grep -q $'\r' "$WORK/err" || fail "progress line written to a non-terminal stderr"

# --json: the documented schema, fields present and typed.
expect_exit 0 "$TFQ" bench "${fast[@]}" --json
cp "$WORK/out" "$WORK/run.json"
/usr/bin/python3 - "$WORK/run.json" <<'PY' || fail "bench --json schema"
import json, sys
d = json.load(open(sys.argv[1]))
def typed(obj, key, types):
    assert key in obj, f"missing {key}"
    assert isinstance(obj[key], types) and not (types is int and isinstance(obj[key], bool)), f"{key}: {obj[key]!r}"
num = (int, float)
typed(d, "schema_version", int); assert d["schema_version"] == 1
typed(d, "tool", str); typed(d, "date", str); typed(d, "calibration", str)
assert d["calibration"] == "memcpy"
typed(d, "warnings", list); typed(d, "results", list); typed(d, "skipped", list)
m = d["machine"]
for k in ("cpu_model", "crc32c", "build_type", "sanitizer", "tfq_version", "compiler", "kernel"):
    typed(m, k, str)
typed(m, "cores", int); typed(m, "optimized", bool)
assert m["cores"] >= 1 and m["crc32c"] in ("sse4.2", "portable") and m["build_type"]
s = d["settings"]
typed(s, "threads", list); assert s["threads"] == [1]
for k in ("seconds", "warmup_seconds"): typed(s, k, num)
for k in ("repetitions", "seed", "data_bytes", "data_records"): typed(s, k, int)
typed(s, "quick", bool); typed(s, "inputs", list)
assert s["data"] == "generated" and s["data_bytes"] >= 256 * 1024
assert [r["workload"] for r in d["results"]] == ["memcpy", "read-crc-memory", "parse-example"], d["results"]
for r in d["results"]:
    typed(r, "workload", str); typed(r, "threads", int); typed(r, "unit", str)
    for k in ("median", "min", "max", "q1", "q3", "ratio", "seconds"): typed(r, k, num)
    typed(r, "repetitions", int); typed(r, "passes_per_repetition", int); typed(r, "rates", list)
    assert r["min"] <= r["q1"] <= r["median"] <= r["q3"] <= r["max"] and r["median"] > 0, r
    assert r["repetitions"] >= 3 and r["ratio"] > 0
    assert r["rates"][0]["unit"] == r["unit"] and r["rates"][0]["median"] == r["median"]
    for rate in r["rates"]:
        typed(rate, "unit", str)
        for k in ("median", "min", "max", "q1", "q3"): typed(rate, k, num)
assert d["results"][0]["ratio"] == 1
assert d["results"][1]["unit"] == "MB/s" and d["results"][2]["unit"] == "records/s"
assert "comparison" not in d
PY
sanitizer=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["machine"]["sanitizer"])' "$WORK/run.json")
build_type=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["machine"]["build_type"])' "$WORK/run.json")
if [[ -z $sanitizer && $build_type != Debug ]]; then
  checks=$((checks + 1)); ((elapsed_ms < 30000)) || fail "bench --quick took ${elapsed_ms} ms"
  expect_stderr_empty
else
  expect_stderr_contains "tfq: warning: ****"   # the loud warning of a Debug or sanitizer build
fi

# The alias, and --save writing the same report.
expect_exit 0 "$TFQ" bench-throughput "${fast[@]}" --save "$WORK/base.json"
expect_stdout_contains "parse-example"
checks=$((checks + 1)); /usr/bin/python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["schema_version"] == 1' "$WORK/base.json" || fail "--save did not write the JSON report"

# The gate: a baseline no machine can meet fails with exit 4 naming the workload and by how much;
# an easy one passes. Ratios are scaled because they are what the gate compares.
scale() {
  /usr/bin/python3 - "$WORK/base.json" "$2" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["workload"] != d["calibration"]:
        r["ratio"] *= float(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}
scale 1000 "$WORK/impossible.json"
scale 0.001 "$WORK/easy.json"
expect_exit 4 "$TFQ" bench "${fast[@]}" --baseline "$WORK/impossible.json" --max-regression 10%
expect_stderr_contains "tfq: regression: read-crc-memory on 1 thread is "
expect_stderr_contains "tfq: regression: parse-example on 1 thread is "
expect_stderr_contains "% slower than the baseline"
expect_stderr_contains "2 slower by more than 10.0%"
expect_exit 0 "$TFQ" bench "${fast[@]}" --baseline "$WORK/easy.json" --max-regression 10
expect_stderr_contains "compared 2 result(s)"
expect_stderr_contains "none slower by more than 10.0%"
expect_exit 4 "$TFQ" bench "${fast[@]}" --baseline "$WORK/impossible.json" --json
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "comparison in --json"
import json, sys
c = json.load(open(sys.argv[1]))["comparison"]
assert c["regressed"] is True and c["max_regression"] == 0.1, c
assert {x["workload"] for x in c["compared"] if x["regression"]} == {"read-crc-memory", "parse-example"}, c
# 1000x the measured ratios: even a run 100x noisier than the baseline shows as -90% or worse
assert all(x["change"] < -0.9 for x in c["compared"]), c
PY

# Gate errors: nothing in common is a usage error, a bad file is bad data, a missing one exit 1.
expect_exit 2 "$TFQ" bench --quick --threads 1 --workloads read-gzip --data-size 64KiB --baseline "$WORK/easy.json"
expect_stderr_contains "nothing to compare"
expect_stdout_contains "read-gzip"   # the report is still printed
echo '{"schema_version": 99, "calibration": "memcpy", "results": []}' > "$WORK/future.json"
expect_exit 3 "$TFQ" bench "${fast[@]}" --baseline "$WORK/future.json"
expect_stderr_contains "schema_version 99 is not supported"
expect_exit 1 "$TFQ" bench "${fast[@]}" --baseline "$WORK/missing.json"
expect_stderr_contains "missing.json"

# Usage errors are exit 2, before anything runs.
expect_exit 2 "$TFQ" bench --quick --max-regression 10%
expect_exit 2 "$TFQ" bench "${fast[@]}" --baseline "$WORK/easy.json" --max-regression lots
expect_stderr_contains "--max-regression"
expect_exit 2 "$TFQ" bench --quick --workloads no-such-workload
expect_stderr_contains "unknown workload 'no-such-workload'"
expect_exit 2 "$TFQ" bench --quick --threads 0
expect_exit 2 "$TFQ" bench --quick -
expect_exit 2 "$TFQ" bench --quick --data-size lots

# --list names every workload.
expect_exit 0 "$TFQ" bench --list
expect_stdout_contains "read-crc-memory"
expect_stdout_contains "memcpy"

# Named files: the first records of the inputs are measured; plain and gzip; not-Examples are skipped.
expect_exit 0 "$TFQ" convert "$TFQ_SOURCE_DIR/testdata/flowers.jsonl" -o "$WORK/flowers.tfrecord.gz" --quiet
expect_exit 0 "$TFQ" bench --quick --threads 1 --seconds 0.05 --workloads read-crc-file,parse-example \
  --json "$WORK/flowers.tfrecord.gz"   # the file after --threads/--workloads is an input, not a value
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "bench on named files"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["settings"]["data"] == "files" and d["settings"]["data_records"] == 60, d["settings"]
assert d["settings"]["inputs"][0].endswith("flowers.tfrecord.gz")
assert [r["workload"] for r in d["results"]] == ["memcpy", "read-crc-file", "parse-example"]
PY
expect_exit 1 "$TFQ" bench --quick "$WORK/nothing-*.tfrecord"
expect_exit 3 "$TFQ" bench --quick --threads 1 "$TFQ_SOURCE_DIR/testdata/flowers.jsonl"

# The progress line, when stderr is a terminal (needs script(1) for a pseudo-terminal).
if command -v script >/dev/null; then
  run script -qec "\"$TFQ\" bench ${fast[*]} > /dev/null" /dev/null
  checks=$((checks + 1)); grep -q "read-crc-memory, 1 thread: measuring" "$WORK/out" || fail "no progress line on a terminal: $(head -c 300 "$WORK/out")"
fi

finish
