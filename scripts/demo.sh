#!/usr/bin/env bash
# tfq's main job on data the project ships: build tfq, convert a small dataset to sharded
# TFRecord files, then inspect and verify the result. Run as root on a fresh Debian 12 machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFQ_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target tfq
out=$(mktemp -d /tmp/tfq-demo-XXXXXX)
set -x
build/tfq convert testdata/flowers.jsonl -o "$out/flowers" --shards 2
build/tfq inspect "$out"/flowers-*-of-00002
build/tfq inspect --verify "$out"/flowers-*-of-00002
build/tfq inspect --records --format flat --head 3 "$out/flowers-00000-of-00002"
