# Sourced by the benchmark scripts.

# seeded_order COUNT RUN: sets the array `order` to 0..COUNT-1 shuffled (Fisher-Yates) with a
# seed from RUN, the same every invocation. Each run takes its commands in another order: on a
# VM a command's time depends on what the one before it left behind (how much freed memory the
# host has taken back, what writeback is still doing), and in a fixed order, or a rotation of
# one, that bias falls on the same command every run.
seeded_order() {
  local count=$1 k j t
  order=()
  for ((k = 0; k < count; ++k)); do order+=("$k"); done
  RANDOM=$(($2 + 1))
  for ((k = count - 1; k > 0; --k)); do
    j=$((RANDOM % (k + 1)))
    t=${order[k]}; order[k]=${order[j]}; order[j]=$t
  done
}
