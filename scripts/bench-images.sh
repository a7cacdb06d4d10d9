#!/usr/bin/env bash
# Images/s of `tfq convert` (writing real TFRecord shards) against its peers doing the same decode,
# resize and JPEG encode, measured in the same run, with 1 and 2 threads (issue 3, docs/convert-images.md):
#   imagenet  ../shared/images/imagenet (500 photos) to --size 224x224 --quality 90
#   large     ../shared/images/large (camera photos)  to --shorter-side 256 --quality 90
# Peers: vipsthumbnail (libvips-tools), Pillow with draft() (python3-pil), OpenCV with
# IMREAD_REDUCED_* + INTER_AREA (python3-opencv), and the plain TurboJPEG reference of
# tests/image/image_perftest.cc (scaled decode to RGB, area resize, encode; no TFRecord writing),
# with its decode alone. N threads = N processes for the peers that are single-threaded,
# --threads N for tfq (N converter threads, each reading, hashing and converting whole images; the
# calling thread writes the records in order). Each
# figure is the best of --runs runs.
#
# Every program is timed the same way: in steady state, reading its files (from the page cache,
# after a warm-up) inside the timed part, and without its start-up:
#   - each program reads every file itself while timed: tfq and vipsthumbnail as always, Pillow
#     with Image.open(path), OpenCV reading the bytes for imdecode, the reference with
#     tfq_image_perftest --from-files. (Until 2026-11-22 the Python workers got the files' bytes
#     pickled through a pipe in every pass, a cost no real program has: it was 15% of Pillow's
#     measured time on the camera set, and made tfq look 1.3x Pillow there instead of 1.2x.)
#   - the Python peers' interpreter start and imports, and the reference's, are outside the timed
#     part (a warm-up pass); tfq's process start, listing, first file and shard and manifest
#     writing cannot be, so the camera set (19 photos, a quarter-second run) is given to every
#     program --repeat times (links under other names; default 4) to make those fixed costs
#     (about 12 ms a run) small beside the work; the imagenet set (500 photos) is given once.
#
#   scripts/bench-images.sh [--runs 3] [--seconds 4] [--repeat 4] [--build DIR]     (root, for apt-get)
# Prints a Markdown table (ratios: tfq / peer) with the machine, the date and the commands.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 seconds=4 repeat=4 build=build
while (($#)); do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--seconds S] [--repeat N] [--build DIR]" >&2; exit 2 ;;
  esac
done
SHARED=${TFQ_SHARED_DIR:-$PWD/../shared}
[[ -d $SHARED/images/imagenet ]] || { echo "bench-images: $SHARED/images is absent" >&2; exit 1; }

missing=()
for p in libvips-tools python3-pil python3-opencv python3-numpy; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[[ -f $build/CMakeCache.txt ]] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target tfq tfq_image_perftest -j2 >/dev/null
tfq=$build/tfq perftest=$build/tests/image/tfq_image_perftest

work=$(mktemp -d /tmp/tfq-bench-images-XXXXXX)
trap 'rm -rf "$work"' EXIT
copies() { if [[ $1 == large ]]; then echo "$repeat"; else echo 1; fi; }
# Every program's input: one class folder (tfq wants DIR/<class>/*) of links, the camera set's
# files under `repeat` names each.
for set in imagenet large; do
  mkdir -p "$work/in-$set/$set"
  for ((c = 1; c <= $(copies "$set"); c++)); do
    for f in "$SHARED/images/$set"/*; do ln -s "$f" "$work/in-$set/$set/$c-$(basename "$f")"; done
  done
done
count() { ls "$work/in-$1/$1" | wc -l; }
now() { date +%s.%N; }
best() { sort -g | tail -1; }  # highest img/s

tfq_rate() {  # set threads args...
  local set=$1 threads=$2; shift 2
  local n; n=$(count "$set")
  "$tfq" convert "$work/in-$set" -o "$work/out/$set" --shards 4 --threads "$threads" -q "$@" || [[ $? == 5 ]]
  for ((r = 0; r < runs; r++)); do
    local t0; t0=$(now)
    "$tfq" convert "$work/in-$set" -o "$work/out/$set" --shards 4 --threads "$threads" -q "$@" || [[ $? == 5 ]]
    echo "$n / ($(now) - $t0)" | bc -l
  done | best
}

vips_rate() {  # set threads
  local set=$1 threads=$2 n; n=$(count "$set")
  mkdir -p "$work/vips"
  # Shorter side 256: -s x256 for landscape files, -s 256x for portrait ones (header via Pillow).
  /usr/bin/python3 - "$work/in-$set/$set" "$set" "$threads" "$work/vips" <<'PY'
import os, sys
from PIL import Image
d, s, t, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
groups = {}
for f in sorted(os.listdir(d)):
    p = os.path.join(d, f)
    if s == "imagenet":
        size = "224x224!"
    else:
        w, h = Image.open(p).size
        size = "x256" if w >= h else "256x"
    groups.setdefault(size, []).append(p)
i = 0
for size, files in groups.items():
    for k in range(t):
        part = files[k::t]
        if part:
            with open(f"{out}/list-{i}-{k}", "w") as fh:
                fh.write(size + "\n" + "\n".join(part) + "\n")
    i += 1
PY
  for ((r = 0; r < runs; r++)); do
    local t0; t0=$(now)
    for k in $(seq 0 $((threads - 1))); do
      (for l in "$work"/vips/list-*-"$k"; do
         [[ -f $l ]] || continue
         VIPS_CONCURRENCY=1 xargs -a <(tail -n +2 "$l") vipsthumbnail -s "$(head -1 "$l")" -o "$work/vips/%s.jpg[Q=90]" 2>/dev/null || true
       done) &
    done
    wait
    echo "$n / ($(now) - $t0)" | bc -l
  done | best
}

py_rate() {  # set threads pillow|opencv
  /usr/bin/python3 - "$work/in-$1/$1" "$1" "$2" "$3" "$runs" <<'PY'
import io, os, sys, time
from multiprocessing import Pool
d, s, threads, which, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
paths = [os.path.join(d, f) for f in sorted(os.listdir(d))]

def target(w, h):
    if s == "imagenet":
        return 224, 224
    k = 256 / min(w, h)
    return max(1, round(w * k)), max(1, round(h * k))

def pillow(path):  # Pillow reads the file itself (as fast as reading it whole first, or faster)
    from PIL import Image
    try:
        im = Image.open(path)
        tw, th = target(*im.size)
        im.draft("RGB", (tw, th))
        im = im.convert("RGB").resize((tw, th), Image.BILINEAR)
        im.save(io.BytesIO(), "JPEG", quality=90)
    except Exception:
        pass

def opencv(path):
    import cv2, numpy as np
    from PIL import Image
    with open(path, "rb") as f:
        b = f.read()
    w, h = Image.open(io.BytesIO(b)).size  # header only, as libjpeg's would be read
    tw, th = target(w, h)
    flag = cv2.IMREAD_COLOR
    for f, r in ((cv2.IMREAD_REDUCED_COLOR_8, 8), (cv2.IMREAD_REDUCED_COLOR_4, 4), (cv2.IMREAD_REDUCED_COLOR_2, 2)):
        if w // r >= tw and h // r >= th:
            flag = f
            break
    img = cv2.imdecode(np.frombuffer(b, np.uint8), flag)
    if img is None:
        return
    img = cv2.resize(img, (tw, th), interpolation=cv2.INTER_AREA)
    cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])

def work(part):  # each worker reads its files, as tfq and vipsthumbnail do
    import cv2
    cv2.setNumThreads(1)
    fn = pillow if which == "pillow" else opencv
    for p in part:
        fn(p)

if __name__ == "__main__":
    parts = [paths[k::threads] for k in range(threads)]
    best = 0
    with Pool(threads) as pool:
        pool.map(work, parts)  # warm-up, imports
        for _ in range(runs):
            t0 = time.perf_counter()
            pool.map(work, parts)
            best = max(best, len(paths) / (time.perf_counter() - t0))
    print(best)
PY
}

ref_rates() {  # set threads -> "reference decode" img/s, summed over `threads` processes
  local set=$1 threads=$2
  for k in $(seq 1 "$threads"); do
    "$perftest" --shared "$SHARED" --set "$set" --seconds "$seconds" --from-files > "$work/ref-$set-$k.txt" &
  done
  wait
  local ref=0 dec=0
  for k in $(seq 1 "$threads"); do
    ref=$(echo "$ref + $(awk '/reference: scaled decode \+ area/ {print $(NF-2)}' "$work/ref-$set-$k.txt")" | bc -l)
    dec=$(echo "$dec + $(awk '/reference: scaled decode alone/ {print $(NF-2)}' "$work/ref-$set-$k.txt")" | bc -l)
  done
  echo "$ref $dec"
}

echo "# tfq convert for images: images/s (best of $runs runs)"
echo
echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); tfq $(git rev-parse --short HEAD 2>/dev/null || echo '?') Release build"
echo "- inputs: imagenet $(count imagenet) files; large $(count large) files (the $(ls "$SHARED/images/large" | wc -l) camera photos x $repeat); every program reads its files while timed"
echo "- peers: vipsthumbnail $(vips --version 2>/dev/null | head -1), Pillow $(/usr/bin/python3 -c 'import PIL; print(PIL.__version__)'), OpenCV $(/usr/bin/python3 -c 'import cv2; print(cv2.__version__)')"
echo
echo "| set | threads | tfq | vipsthumbnail | Pillow+draft | OpenCV | TJ reference | TJ decode alone | tfq/Pillow | tfq/reference | tfq/decode |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for set in imagenet large; do
  if [[ $set == imagenet ]]; then args=(--size 224x224 --quality 90); else args=(--shorter-side 256 --quality 90); fi
  for threads in 1 2; do
    t=$(tfq_rate "$set" "$threads" "${args[@]}")
    v=$(vips_rate "$set" "$threads")
    p=$(py_rate "$set" "$threads" pillow)
    o=$(py_rate "$set" "$threads" opencv)
    read -r r d < <(ref_rates "$set" "$threads")
    printf "| %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.2fx | %.2fx | %.2fx |\n" "$set" "$threads" \
      "$t" "$v" "$p" "$o" "$r" "$d" "$(echo "$t / $p" | bc -l)" "$(echo "$t / $r" | bc -l)" "$(echo "$t / $d" | bc -l)"
  done
done
echo
echo "Commands: \`tfq convert DIR -o OUT --shards 4 --threads N -q --size 224x224 --quality 90\` (imagenet) or"
echo "\`--shorter-side 256 --quality 90\` (large); \`vipsthumbnail -s 224x224! | x256 | 256x -o %s.jpg[Q=90]\`"
echo "(VIPS_CONCURRENCY=1, N processes); Pillow \`draft('RGB', size)\` + \`resize(BILINEAR)\` + \`save(JPEG, quality=90)\`;"
echo "OpenCV \`imdecode(IMREAD_REDUCED_COLOR_{8,4,2})\` + \`resize(INTER_AREA)\` + \`imencode(.jpg, 90)\`; reference:"
echo "\`tfq_image_perftest --set SET --seconds $seconds --from-files\` (N processes, img/s summed). Goals (issue 3): imagenet >= 1.5x Pillow"
echo "and >= 1.2x the reference; large >= 1.3x Pillow and >= 0.9x the reference's decode alone."
