#!/usr/bin/env bash
# tfq's main job: build tfq, generate a small folder of images in three class folders (JPEG and
# PNG, made by examples/make_image_folder with tfq's own encoders: nothing to download), convert
# it to sharded TFRecord files of tf.train.Example, then inspect and verify the result.
# Run as root on a fresh Debian 12 machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFQ_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target tfq make_image_folder
out=$(mktemp -d /tmp/tfq-demo-XXXXXX)
set -x
build/examples/make_image_folder "$out/images" --classes 3 --per-class 16
build/tfq convert "$out/images" -o "$out/shards/train" --size 64x64 --shards 2 --suffix .tfrecord
build/tfq inspect "$out"/shards/train-*-of-00002.tfrecord
build/tfq inspect --verify "$out"/shards/train-*-of-00002.tfrecord
head -c 600 "$out/shards/train.manifest.json"
