#!/usr/bin/env bash
# tfq convert DIR -o PREFIX: a folder of images into sharded TFRecord files, checked from outside:
# tfq inspect --verify, the protobuf oracle, PIL decoding of image/encoded, failure accounting,
# exit codes, determinism across threads and tasks, and interrupts.
source "$(dirname "$0")/lib.sh"
gen="$(dirname "$TFQ")/examples/make_image_folder"
[[ -x "$gen" ]] || { echo "SKIP: $gen not built"; exit 77; }
PY=/usr/bin/python3
ORACLE="$SHARED/oracle/tfrecord_oracle.py"

# check_set PREFIX WANT_W WANT_H: every record decodes with PIL to WANT_WxWANT_H (0 = any), its
# label matches its class text through the manifest's label map, and the oracle parses it.
check_set() {
  checks=$((checks + 1))
  $PY - "$1" "$2" "$3" "$ORACLE" <<'PY' || fail "records of $1 do not check out"
import base64, glob, io, json, os, subprocess, sys
from PIL import Image
prefix, want_w, want_h, oracle = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
m = json.load(open(prefix + ".manifest.json"))
assert m["records"] + m["failed"] == m["files_found"], m
label_of = {l["text"]: l["label"] for l in m["labels"]}
d = os.path.dirname(prefix)
n = 0
for s in m["shards"]:
    path = os.path.join(d, s["file"])
    out = subprocess.run([sys.executable, oracle, path], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert len(lines) == s["records"], (path, len(lines), s["records"])
    for line in lines:
        f = json.loads(line)["features"]
        b = lambda k: base64.b64decode(f[k]["values"][0])
        i = lambda k: f[k]["values"][0]
        img = Image.open(io.BytesIO(b("image/encoded")))
        img.load()
        assert img.size == (i("image/width"), i("image/height")), (img.size, line[:200])
        if want_w:
            assert img.size == (want_w, want_h), img.size
        assert b("image/format").decode() == img.format, img.format
        assert label_of[b("image/class/text").decode()] == i("image/class/label")
        assert len(b("image/key/sha256")) == 64
        n += 1
assert n == m["records"], (n, m["records"])
PY
}

# records.py: `records(tfq, prefix)` lists every record of a converted set (shards from its
# manifest, read back by `tfq convert --to jsonl`) as {key: [values]}, bytes decoded.
cat > "$WORK/records.py" <<'PY'
import base64, json, os, subprocess
def records(tfq, prefix, manifest=None):
    m = json.load(open(manifest or prefix + ".manifest.json"))
    out = []
    for s in m["shards"]:
        path = os.path.join(os.path.dirname(prefix), s["file"])
        text = subprocess.run([tfq, "convert", path, "--to", "jsonl", "-o", "-", "--quiet"],
                              capture_output=True, check=True).stdout
        for line in text.splitlines():
            f = json.loads(line)["features"]["feature"]
            rec = {}
            for k, v in f.items():
                if "bytesList" in v:
                    rec[k] = [base64.b64decode(x) for x in v["bytesList"].get("value", [])]
                elif "int64List" in v:
                    rec[k] = [int(x) for x in v["int64List"].get("value", [])]
                else:
                    rec[k] = v["floatList"].get("value", [])
            out.append(rec)
    return out
PY
export PYTHONPATH="$WORK"

# --- A generated folder: 3 classes x 12 images, plus 3 bad files --------------------------------
"$gen" "$WORK/imgs" --bad || die "make_image_folder failed"
found=$(find "$WORK/imgs" -type f | wc -l)

expect_exit 5 "$TFQ" convert "$WORK/imgs" -o "$WORK/a/train" --size 32x32 --shards 3 --suffix .tfrecord
expect_stderr_contains "skipped $WORK/imgs/cat/bad_empty.jpg: empty file"
expect_stderr_contains "skipped $WORK/imgs/cat/bad_truncated.jpg: truncated JPEG"
expect_stderr_contains "skipped $WORK/imgs/cat/bad_text.jpg: not an image"
expect_stderr_contains "3 inputs failed"
expect_exit 0 "$TFQ" inspect --verify "$WORK"/a/train-*-of-00003.tfrecord
expect_stdout_contains "OK: $((found - 3)) records in 3 files"
checks=$((checks + 1))
$PY - "$WORK/a/train.manifest.json" "$found" <<'PY' || fail "manifest content"
import hashlib, json, os, sys
m = json.load(open(sys.argv[1]))
assert m["files_found"] == int(sys.argv[2]) and m["failed"] == 3, m
assert [l["text"] for l in m["labels"]] == ["cat", "dog", "fish"]
assert [l["label"] for l in m["labels"]] == [0, 1, 2]
assert sorted(os.path.basename(f["path"]) for f in m["failures"]) == ["bad_empty.jpg", "bad_text.jpg", "bad_truncated.jpg"]
for s in m["shards"]:
    p = os.path.join(os.path.dirname(sys.argv[1]), s["file"])
    assert hashlib.sha256(open(p, "rb").read()).hexdigest() == s["sha256"], s
    assert os.path.getsize(p) == s["bytes"]
PY
[[ -f "$ORACLE" ]] && check_set "$WORK/a/train" 32 32

# Options: --label-offset, --labels-out, --keys tfds, --json, --quiet, --format png, --no-shuffle.
expect_exit 5 "$TFQ" convert "$WORK/imgs" -o "$WORK/b/train" --shorter-side 20 --label-offset 1 \
  --labels-out "$WORK/b/labels.txt" --keys tfds --format png --json --shards 2
expect_stdout_contains '"images":36'
expect_stdout_contains '"failures":3'
checks=$((checks + 1)); [[ "$(cat "$WORK/b/labels.txt")" == $'cat\ndog\nfish' ]] || fail "--labels-out: $(cat "$WORK/b/labels.txt")"
expect_exit 0 "$TFQ" inspect "$WORK/b/train-00000-of-00002"
expect_stdout_contains "label"
checks=$((checks + 1))
$PY - "$ORACLE" "$WORK/b/train-00001-of-00002" <<'PY' || fail "--keys tfds / --label-offset / png"
import base64, io, json, subprocess, sys
from PIL import Image
out = subprocess.run([sys.executable, sys.argv[1], sys.argv[2]], capture_output=True, text=True, check=True).stdout
for line in out.splitlines():
    f = json.loads(line)["features"]
    assert "image" in f and "label" in f and "image/encoded" not in f, sorted(f)
    assert 1 <= f["label"]["values"][0] <= 3
    img = Image.open(io.BytesIO(base64.b64decode(f["image"]["values"][0])))
    assert img.format == "PNG" and min(img.size) == 20, (img.format, img.size)
PY

# --- No resize asked: JPEGs keep their bytes, as build_image_data.py keeps them -----------------
# Kept: RGB JPEGs (baseline, progressive). Re-encoded as RGB JPEG: PNG, CMYK, and a gray JPEG
# (the records have the 3 channels asked). --reencode re-encodes all; a resize re-encodes all.
mkdir -p "$WORK/keep/a" "$WORK/keep/b"
cp "$WORK/imgs/cat/img000.jpg" "$WORK/imgs/dog/img001.jpg" "$WORK/keep/a/"
$PY - "$WORK/keep/b" <<'PY' || die "could not write the keep set"
import sys
from PIL import Image
d = sys.argv[1]
rgb = Image.linear_gradient("L").resize((40, 30)).convert("RGB")
rgb.save(d + "/progressive.jpg", progressive=True, quality=80)
rgb.save(d + "/flat.png")
rgb.convert("L").save(d + "/gray.jpg")
rgb.convert("CMYK").save(d + "/cmyk.jpg")
PY
expect_exit 0 "$TFQ" convert "$WORK/keep" -o "$WORK/keep1/train" --shards 1 --quiet
checks=$((checks + 1))
$PY - "$TFQ" "$WORK/keep1/train" "$WORK/keep" <<'PY' || fail "no resize: JPEGs kept, the rest re-encoded"
import hashlib, io, json, sys
from records import records
from PIL import Image
tfq, prefix, src = sys.argv[1], sys.argv[2], sys.argv[3]
assert json.load(open(prefix + ".manifest.json"))["options"]["keep_original"] == "jpeg"
kept = set()
for r in records(tfq, prefix):
    name = r["image/filename"][0].decode()
    cls = r["image/class/text"][0].decode()
    source = open(f"{src}/{cls}/{name}", "rb").read()
    enc = r["image/encoded"][0]
    assert r["image/key/sha256"][0].decode() == hashlib.sha256(source).hexdigest()
    img = Image.open(io.BytesIO(enc))
    assert img.format == "JPEG" and r["image/format"] == [b"JPEG"], name
    assert (img.width, img.height) == (r["image/width"][0], r["image/height"][0]), name
    assert r["image/channels"] == [3] and r["image/colorspace"] == [b"RGB"] and img.mode == "RGB", (name, r["image/channels"])
    if enc == source:
        kept.add(name)
assert kept == {"img000.jpg", "img001.jpg", "progressive.jpg"}, kept
PY
expect_exit 0 "$TFQ" convert "$WORK/keep" -o "$WORK/keep2/train" --shards 1 --quiet --reencode
checks=$((checks + 1))
$PY - "$TFQ" "$WORK/keep2/train" "$WORK/keep" <<'PY' || fail "--reencode re-encodes every image"
import json, sys
from records import records
tfq, prefix, src = sys.argv[1], sys.argv[2], sys.argv[3]
assert json.load(open(prefix + ".manifest.json"))["options"]["keep_original"] == "never"
for r in records(tfq, prefix):
    source = open(f"{src}/{r['image/class/text'][0].decode()}/{r['image/filename'][0].decode()}", "rb").read()
    assert r["image/encoded"][0] != source
PY
expect_exit 0 "$TFQ" convert "$WORK/keep" -o "$WORK/keep3/train" --shards 1 --quiet --keep-original
checks=$((checks + 1))
$PY - "$TFQ" "$WORK/keep3/train" "$WORK/keep" <<'PY' || fail "--keep-original keeps every image"
import json, sys
from records import records
tfq, prefix, src = sys.argv[1], sys.argv[2], sys.argv[3]
assert json.load(open(prefix + ".manifest.json"))["options"]["keep_original"] == "always"
seen = {}
for r in records(tfq, prefix):
    name = r["image/filename"][0].decode()
    source = open(f"{src}/{r['image/class/text'][0].decode()}/{name}", "rb").read()
    assert r["image/encoded"][0] == source, name
    seen[name] = (r["image/format"][0], r["image/colorspace"][0], r["image/channels"][0])
assert seen["flat.png"] == (b"PNG", b"RGB", 3) and seen["gray.jpg"] == (b"JPEG", b"GRAY", 1), seen
assert seen["cmyk.jpg"] == (b"JPEG", b"CMYK", 4), seen
PY
expect_exit 0 "$TFQ" convert "$WORK/keep" -o "$WORK/keep4/train" --shards 1 --quiet --max-side 1000
checks=$((checks + 1))
$PY - "$TFQ" "$WORK/keep4/train" "$WORK/keep" <<'PY' || fail "a resize re-encodes every image"
import json, sys
from records import records
tfq, prefix, src = sys.argv[1], sys.argv[2], sys.argv[3]
assert json.load(open(prefix + ".manifest.json"))["options"]["keep_original"] == "never"
for r in records(tfq, prefix):
    source = open(f"{src}/{r['image/class/text'][0].decode()}/{r['image/filename'][0].decode()}", "rb").read()
    assert r["image/encoded"][0] != source
PY
expect_exit 2 "$TFQ" convert "$WORK/keep" -o "$WORK/keep5/train" --keep-original --reencode
expect_stderr_contains "--keep-original or --reencode"

# --- Names that are not UTF-8, and an output that cannot be written -----------------------------
# A Latin-1 class folder and file name: the JSON (manifest, --json) gets U+FFFD, the records keep
# the bytes. A manifest path that cannot be written fails before any shard takes its final name.
latin="$WORK/latin1"
mkdir -p "$latin/caf"$'\xe9' "$latin/dog"
cp "$WORK/imgs/cat/img000.jpg" "$latin/caf"$'\xe9'"/img"$'\xe8'".jpg"
echo "not an image" > "$latin/caf"$'\xe9'"/bad"$'\xe8'".jpg"
cp "$WORK/imgs/dog/img001.jpg" "$latin/dog/"
expect_exit 5 "$TFQ" convert "$latin" -o "$WORK/l1/train" --shards 2 --json
checks=$((checks + 1))
$PY -c 'import json, sys; j = json.loads(open(sys.argv[1], encoding="utf-8").read()); assert j["images"] == 2, j' \
  "$WORK/out" || fail "--json with a Latin-1 path: $(head -c 300 "$WORK/out")"
checks=$((checks + 1))
$PY - "$TFQ" "$WORK/l1/train" <<'PY' || fail "Latin-1 names: manifest and records"
import json, sys
from records import records
tfq, prefix = sys.argv[1], sys.argv[2]
m = json.loads(open(prefix + ".manifest.json", encoding="utf-8").read())  # strict UTF-8
assert [l["text"] for l in m["labels"]] == ["caf\ufffd", "dog"], m["labels"]
assert m["failures"][0]["path"].endswith("/caf\ufffd/bad\ufffd.jpg"), m["failures"]
texts = sorted(r["image/class/text"][0] for r in records(tfq, prefix))
assert texts == [b"caf\xe9", b"dog"], texts
names = sorted(r["image/filename"][0] for r in records(tfq, prefix))
assert names == [b"img001.jpg", b"img\xe8.jpg"], names
PY
checks=$((checks + 1)); [[ -z "$(ls -A "$WORK/l1" | grep -v '^train')" ]] || fail "left behind: $(ls -A "$WORK/l1")"
mkdir -p "$WORK/l2/train.manifest.json"
expect_exit 2 "$TFQ" convert "$latin" -o "$WORK/l2/train" --shards 2 --quiet
expect_stderr_contains "train.manifest.json: is a directory"
checks=$((checks + 1)); [[ "$(ls -A "$WORK/l2")" == "train.manifest.json" ]] || fail "a failed run left: $(ls -A "$WORK/l2")"

# --- Paths the listing cannot look at: skipped and listed like unreadable files, exit 5 ----------
# A dangling symbolic link (in a class, and at the top where a class folder may have been) and a
# sub-folder that cannot be listed (run as nobody when root, for whom permissions do not apply).
dang="$WORK/dangling"
mkdir -p "$dang/cat" "$dang/dog/secret"
cp "$WORK/imgs/cat/img000.jpg" "$WORK/imgs/cat/img001.jpg" "$dang/cat/"
cp "$WORK/imgs/dog/img001.jpg" "$dang/dog/"
cp "$WORK/imgs/dog/img002.jpg" "$dang/dog/secret/"
ln -s "$WORK/nonexistent.jpg" "$dang/cat/img005.jpg"
ln -s "$WORK/nonexistent" "$dang/bird"
as_user=()
if [[ $(id -u) == 0 ]]; then
  if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$TFQ" 2>/dev/null; then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  else
    as_user=(skip)
  fi
fi
if [[ ${as_user[0]:-} != skip ]]; then
  chmod 755 "$WORK" && chmod -R a+rX "$dang" && chmod 000 "$dang/dog/secret"
  mkdir -p "$WORK/dg" && chmod 777 "$WORK/dg"
  expect_exit 5 "${as_user[@]}" "$TFQ" convert "$dang" -o "$WORK/dg/train" --shards 2
  expect_stderr_contains "skipped $dang/cat/img005.jpg: a symbolic link to a path that does not exist"
  expect_stderr_contains "skipped $dang/bird: a symbolic link to a path that does not exist"
  expect_stderr_contains "skipped $dang/dog/secret: cannot list this folder, its files are skipped: Permission denied"
  expect_stderr_contains "3 images to 2 files"
  expect_stderr_contains "3 inputs failed"
  checks=$((checks + 1))
  $PY - "$WORK/dg/train.manifest.json" "$dang" <<'PY' || fail "listing failures in the manifest"
import json, sys
m = json.load(open(sys.argv[1]))
d = sys.argv[2]
assert m["files_found"] == 6 and m["records"] == 3 and m["failed"] == 3, m
assert sorted(f["path"] for f in m["failures"]) == [d + "/bird", d + "/cat/img005.jpg", d + "/dog/secret"], m["failures"]
assert [l["text"] for l in m["labels"]] == ["cat", "dog"]
PY
  chmod 755 "$dang/dog/secret"
else
  echo "convert_images_test: skipping the unlistable-folder run (root without setpriv)"
fi

# --- Sets without labels: a flat folder, a manifest without a label column ---------------------
mkdir -p "$WORK/flat"
cp "$WORK/imgs/cat/img000.jpg" "$WORK/imgs/dog/img001.jpg" "$WORK/flat/"
echo "not an image" > "$WORK/flat/notes.jpg"
expect_exit 5 "$TFQ" convert "$WORK/flat" -o "$WORK/fl/train" --shards 1 --size 16x16
expect_stderr_contains "wrote 2 images to 1 file"
{ echo "path,weight"; echo "cat/img000.jpg,1.5"; echo "dog/img002.jpg,2"; } > "$WORK/nolabel.csv"
expect_exit 0 "$TFQ" convert "$WORK/imgs" --manifest "$WORK/nolabel.csv" -o "$WORK/fm/train" --shards 1 --quiet
checks=$((checks + 1))
$PY - "$TFQ" "$WORK/fl/train" "$WORK/fm/train" <<'PY' || fail "sets without labels"
import json, sys
from records import records
tfq = sys.argv[1]
for prefix, n in ((sys.argv[2], 2), (sys.argv[3], 2)):
    m = json.load(open(prefix + ".manifest.json"))
    assert m["labelled"] is False and m["labels"] == [], m
    assert not any("class" in f for f in m["options"]["features"]), m["options"]["features"]
    recs = records(tfq, prefix)
    assert len(recs) == n
    for r in recs:
        assert "image/class/label" not in r and "image/class/text" not in r, sorted(r)
        assert r["image/encoded"][0][:2] == b"\xff\xd8"
m = json.load(open(sys.argv[2].rsplit("/", 2)[0] + "/a/train.manifest.json"))
assert m["labelled"] is True, "a labelled set says so"
PY
expect_exit 2 "$TFQ" convert "$WORK/flat" -o "$WORK/fl2/train" --label-offset 1
expect_stderr_contains "--label-offset: $WORK/flat holds no class folders: the set has no labels"
expect_exit 2 "$TFQ" convert "$WORK/flat" -o "$WORK/fl2/train" --labels-out "$WORK/fl2.txt"
expect_stderr_contains "--labels-out: the set has no labels"

# --strict: exit 3 at the first bad file, and no shard left behind.
expect_exit 3 "$TFQ" convert "$WORK/imgs" -o "$WORK/s/train" --size 32x32 --shards 3 --strict --quiet
checks=$((checks + 1)); [[ -z "$(ls -A "$WORK/s" 2>/dev/null)" ]] || fail "--strict left files: $(ls -A "$WORK/s")"
expect_exit 3 "$TFQ" convert "$WORK/imgs" -o "$WORK/s/train" --size 32x32 --max-failures 2 --quiet
expect_stderr_contains "more than 2 inputs failed"
# Usage errors.
expect_exit 2 "$TFQ" convert "$WORK/imgs" -o "$WORK/u/train" --size 32x32 --shorter-side 10
expect_exit 2 "$TFQ" convert "$WORK/imgs" -o "$WORK/u/train" --task-index 3 --num-tasks 3
# Every numeric option has a range; out of it is a usage error naming the flag, before any work.
for bad in "--shorter-side -5" "--shorter-side 0" "--max-side 70000" "--size 0x5" "--quality 0" "--quality 101" \
           "--channels 2" "--max-pixels 0" "--max-pixels -1" "--max-failures -1" "--label-offset 9223372036854775807" \
           "--seed -5" "--shards -1" "--shards 0" "--shards 100000" "--num-tasks 0" "--num-tasks -1" \
           "--task-index -1 --num-tasks 2" "--threads -4"; do
  read -r -a args <<<"$bad"
  expect_exit 2 "$TFQ" convert "$WORK/imgs" -o "$WORK/u/train" "${args[@]}"
  expect_stderr_contains "tfq: error: ${args[0]}"
done
checks=$((checks + 1)); [[ ! -e "$WORK/u" ]] || fail "a usage error wrote $(ls -A "$WORK/u")"
# More threads than CPUs: one per CPU, no crash (creating 100000 threads once crashed libgomp).
expect_exit 0 "$TFQ" convert "$WORK/keep" -o "$WORK/many/train" --threads 100000 --shards 1 --quiet
expect_exit 0 "$TFQ" convert --help
expect_stdout_contains "--task-index 2 --num-tasks 8"

# A CSV manifest with an extra column; paths relative to the input directory.
{ echo "path,label,weight"; echo "dog/img001.jpg,dog,0.5"; echo "fish/img002.jpg,fish,2"; } > "$WORK/m.csv"
expect_exit 0 "$TFQ" convert "$WORK/imgs" --manifest "$WORK/m.csv" -o "$WORK/m/train" --quiet
expect_exit 0 "$TFQ" inspect --json "$WORK/m/train-00000-of-00001"
expect_stdout_contains '"weight"'

# Determinism: --threads 1 and 2 write the same bytes; 3 tasks + merge == one run.
expect_exit 5 "$TFQ" convert "$WORK/imgs" -o "$WORK/t1/train" --size 48x40 --shards 5 --threads 1 --quiet
expect_exit 5 "$TFQ" convert "$WORK/imgs" -o "$WORK/t2/train" --size 48x40 --shards 5 --threads 2 --quiet
for i in 0 1 2; do
  run "$TFQ" convert "$WORK/imgs" -o "$WORK/tk/train" --size 48x40 --shards 5 --task-index $i --num-tasks 3 --quiet
done
expect_exit 5 "$TFQ" convert "$WORK/imgs" -o "$WORK/tk/train" --shards 5 --num-tasks 3 --merge-manifests --quiet
for f in "$WORK"/t1/*; do
  checks=$((checks + 1))
  cmp -s "$f" "$WORK/t2/$(basename "$f")" || fail "threads 1 vs 2 differ: $(basename "$f")"
  cmp -s "$f" "$WORK/tk/$(basename "$f")" || fail "3 tasks vs one run differ: $(basename "$f")"
done
checks=$((checks + 1)); [[ $(ls "$WORK"/t1/train-*-of-00005 | wc -l) == 5 ]] || fail "expected 5 shards"
# The merge says what it did (no "images/s": it converts nothing) and checks every shard first:
# one deleted, truncated or changed after its task ran fails the merge (exit 1), naming it.
expect_exit 5 "$TFQ" convert "$WORK/imgs" -o "$WORK/tk/train" --shards 5 --num-tasks 3 --merge-manifests
expect_stderr_contains "tfq: merged 3 task manifests into $WORK/tk/train.manifest.json: 5 shards checked (size and SHA-256), 36 images"
expect_stderr_contains ", 3 inputs failed"
checks=$((checks + 1)); grep -q 'images/s' "$WORK/err" && fail "the merge prints a rate: $(cat "$WORK/err")"
expect_exit 5 "$TFQ" convert "$WORK/imgs" -o "$WORK/tk/train" --shards 5 --num-tasks 3 --merge-manifests --json
expect_stdout_contains '"merged_tasks":3,'
expect_stdout_contains '"shards_checked":5,"images":36,"failures":3,'
cp "$WORK/tk/train-00004-of-00005" "$WORK/shard4"
flip_byte "$WORK/tk/train-00004-of-00005" 100
expect_exit 1 "$TFQ" convert "$WORK/imgs" -o "$WORK/tk/train" --shards 5 --num-tasks 3 --merge-manifests --quiet
expect_stderr_contains "tk/train-00004-of-00005: SHA-256 "
expect_stderr_contains "run task 1 again"
head -c 50 "$WORK/shard4" > "$WORK/tk/train-00004-of-00005"
expect_exit 1 "$TFQ" convert "$WORK/imgs" -o "$WORK/tk/train" --shards 5 --num-tasks 3 --merge-manifests --quiet
expect_stderr_contains "tk/train-00004-of-00005: 50 bytes, but $WORK/tk/train.manifest-00001-of-00003.json records"
rm "$WORK/tk/train-00004-of-00005"
expect_exit 1 "$TFQ" convert "$WORK/imgs" -o "$WORK/tk/train" --shards 5 --num-tasks 3 --merge-manifests --quiet
expect_stderr_contains "tk/train-00004-of-00005: shard 4, listed in $WORK/tk/train.manifest-00001-of-00003.json, does not exist"

# SIGINT / SIGTERM mid-run: no final-named shard, no temporaries. Upscaling keeps tfq busy.
"$gen" "$WORK/slow" --classes 2 --per-class 150 >/dev/null
for sig in INT TERM; do
  mkdir -p "$WORK/sig$sig"
  # A script's background jobs start with SIGINT ignored; restore the default as a terminal would.
  $PY -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$TFQ" convert "$WORK/slow" -o "$WORK/sig$sig/train" --size 2000x2000 --shards 4 --threads 1 --quiet &
  pid=$!
  sleep 0.7
  kill -$sig $pid
  wait $pid
  rc=$?
  checks=$((checks + 1))
  if [[ $rc -lt 128 ]]; then
    echo "note: the run ended (exit $rc) before SIG$sig; interrupt check not exercised"
  else
    left=$(ls -A "$WORK/sig$sig")
    [[ -z "$left" ]] || fail "SIG$sig left files: $left"
  fi
done

# --- The shared image sets: 60 ImageNet photos, 3 camera photos, every odd file ---------------
if [[ -d "$SHARED/images/imagenet" ]]; then
  src="$WORK/shared"
  mkdir -p "$src/imagenet" "$src/large" "$src/odd"
  ls "$SHARED/images/imagenet" | head -60 | while read -r f; do ln -s "$SHARED/images/imagenet/$f" "$src/imagenet/$f"; done
  ls "$SHARED/images/large" | head -3 | while read -r f; do ln -s "$SHARED/images/large/$f" "$src/large/$f"; done
  for f in "$SHARED"/images/odd/*; do ln -s "$f" "$src/odd/"; done
  total=$(find "$src" -type l | wc -l)
  expect_exit 5 "$TFQ" convert "$src" -o "$WORK/sh/train" --size 224x224 --quality 90 --shards 4
  for bad in empty_zero_bytes.jpg jpeg12bit_monkey12.jpg truncated_n01440764_tench_first60000bytes.JPEG corrupt_header.jpg; do
    expect_stderr_contains "odd/$bad"
  done
  expect_exit 0 "$TFQ" inspect --verify "$WORK"/sh/train-*-of-00004
  checks=$((checks + 1))
  $PY - "$WORK/sh/train.manifest.json" "$total" <<'PY' || fail "shared: accounting"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["files_found"] == int(sys.argv[2]), (m["files_found"], sys.argv[2])
assert m["records"] + m["failed"] == m["files_found"]
failed = {f["path"].rsplit("/", 1)[1] for f in m["failures"]}
for ok in ["cmyk_pil_sample_cmyk.jpg", "png_disguised_as_jpeg_hopper.JPEG", "arithmetic_testimgari.jpg",
           "progressive_n01440764_tench.JPEG", "gray_hopper_gray.jpg", "giant_20000x14000_gray.jpg"]:
    assert ok not in failed, ok
assert [l["text"] for l in m["labels"]] == ["imagenet", "large", "odd"]
PY
  [[ -f "$ORACLE" ]] && check_set "$WORK/sh/train" 224 224
else
  echo "SKIP (part): $SHARED/images is absent; the shared image sets were not converted"
fi

finish
