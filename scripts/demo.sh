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
sed -n '1,/"shards"/p' "$out/shards/train.manifest.json"
set +x
cat <<EOF

Done. The shards and their manifest are in $out/shards/.
Next:
  build/tfq inspect --stats $out/shards/train-*                 # per-feature statistics
  build/tfq inspect --records --format flat $out/shards/train-00000-of-00002.tfrecord | head -3
  build/tfq shuffle $out/shards/train-* -o $out/shuffled/train --shards 4 --seed 1
  cmake --install build                                          # tfq on the PATH (/usr/local/bin)
  bash scripts/test.sh                                           # the whole test suite
EOF
