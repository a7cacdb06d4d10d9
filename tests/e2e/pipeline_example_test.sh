#!/usr/bin/env bash
# examples/pipeline_example as a training job uses it: the records of an epoch split between ranks
# (the same batch count on each), and a run stopped and resumed from its saved state delivering
# as many batches as an uninterrupted run.
source "$(dirname "$0")/lib.sh"
PIPELINE="$(dirname "$TFQ")/examples/pipeline_example"
[[ -x $PIPELINE ]] || die "no $PIPELINE (build the pipeline_example target)"

{
  echo "label,name"
  for i in $(seq 0 996); do echo "$i,n$i"; done
} >"$WORK/t.csv"
expect_exit 0 "$TFQ" convert "$WORK/t.csv" -o "$WORK/data/part" --shards 5

# "N batches, R records, ..." of the last run.
records() { sed -n 's/^[0-9]* batches, \([0-9]*\) records.*/\1/p' "$WORK/out"; }
batches() { sed -n 's/^\([0-9]*\) batches, .*/\1/p' "$WORK/out"; }

expect_exit 0 "$PIPELINE" --epochs 2 --seed 7 --batch 10 "$WORK/data/part-*"
[[ $(records) == 1994 ]] || fail "an uninterrupted run of 2 epochs read $(records) records, not 1994"
full_batches=$(batches)

# Stop after 7 batches, resume, stop after 50 more, resume to the end: the batch counts add up
# (tests/pipeline/resume_test.cc compares the batches themselves).
rm -f "$WORK/state.json"
expect_exit 0 "$PIPELINE" --epochs 2 --seed 7 --batch 10 --state "$WORK/state.json" --stop-after 7 "$WORK/data/part-*"
first=$(batches)
[[ -s $WORK/state.json ]] || fail "no state saved"
expect_exit 0 "$PIPELINE" --epochs 2 --seed 7 --batch 10 --state "$WORK/state.json" --stop-after 50 "$WORK/data/part-*"
expect_stdout_contains "resumed from"
second=$(batches)
expect_exit 0 "$PIPELINE" --epochs 2 --seed 7 --batch 10 --state "$WORK/state.json" "$WORK/data/part-*"
third=$(batches)
checks=$((checks + 1))
[[ $((first + second + third)) == "$full_batches" ]] ||
  fail "stopped runs delivered $first + $second + $third batches, the uninterrupted one $full_batches"
# A finished state resumes to nothing.
expect_exit 0 "$PIPELINE" --epochs 2 --seed 7 --batch 10 --state "$WORK/state.json" "$WORK/data/part-*"
expect_stdout_contains "0 batches, 0 records"
# Other options refuse the state.
expect_exit 2 "$PIPELINE" --epochs 2 --seed 8 --batch 10 --state "$WORK/state.json" "$WORK/data/part-*"
expect_stderr_contains "other files or options"

# Ranks: 3 ranks of 5 files split by file; every rank the same batches and records per epoch
# (each stops at the smallest share: rank 2's one file, by the default RankBalance::kDrop).
total=0
for rank in 0 1 2; do
  expect_exit 0 "$PIPELINE" --epochs 1 --batch 10 --rank $rank --world-size 3 "$WORK/data/part-*"
  counts[$rank]="$(batches) $(records)"
  total=$((total + $(records)))
done
checks=$((checks + 1))
[[ ${counts[0]} == "${counts[1]}" && ${counts[1]} == "${counts[2]}" ]] ||
  fail "ranks got different batch and record counts: ${counts[*]}"
shard_2=$("$TFQ" inspect --count "$WORK/data/part-00002-of-00005")
(( total == 3 * shard_2 )) || fail "the ranks read $total records, not 3 x $shard_2"
expect_exit 2 "$PIPELINE" --rank 3 --world-size 3 "$WORK/data/part-*"
expect_stderr_contains "rank 3 is not below world_size 3"

finish
