#!/usr/bin/python3
"""Resize quality of tfq's image library against Pillow's Image.resize.

Runs tfq_image_resize_tool (built from tests/image/resize_tool.cc) on real photographs and
compares its output with Pillow's resize using the matching filter (box -> BOX, triangle ->
BILINEAR, lanczos3 -> LANCZOS), in two ways:

  same-decode  Pillow resizes the very image tfq resized (decoded at tfq's DCT scale, written out
               by the tool), with the same source region: this measures the resampler alone.
               The requirement is PSNR >= 35 dB for every image.
  end-to-end   Pillow decodes the file itself at full size and resizes it; tfq decodes at a
               reduced DCT scale when that covers the output (and resizes Y'CbCr planes), so
               this measures the whole pipeline's departure from a plain full-size resize.

Usage: /usr/bin/python3 tests/image/resize_quality.py BUILD/tests/image/tfq_image_resize_tool
           [--shared DIR] [--imagenet N] [--min-psnr 35]
Exit status 1 when a same-decode PSNR is below the minimum. Needs python3-pil and python3-numpy.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

FILTERS = {"box": Image.BOX, "triangle": Image.BILINEAR, "lanczos3": Image.LANCZOS}


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * math.log10(255.0 ** 2 / mse)


def run_tool(tool, path, args, tmp):
    out, dec = os.path.join(tmp, "out.raw"), os.path.join(tmp, "decoded.raw")
    res = subprocess.run([tool] + args + [path, out, dec], capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(res.stderr.strip())
    f = res.stdout.split()
    ow, oh, dw, dh = map(int, f[:4])
    region = tuple(map(float, f[4:8]))
    scale = float(f[8])
    out_px = np.fromfile(out, dtype=np.uint8).reshape(oh, ow, 3)
    dec_px = np.fromfile(dec, dtype=np.uint8).reshape(dh, dw, 3)
    return out_px, dec_px, region, scale


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tool")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--shared", default=os.environ.get("TFQ_SHARED_DIR", os.path.join(here, "../../../shared")))
    ap.add_argument("--imagenet", type=int, default=20, help="how many ImageNet photos (every 25th)")
    ap.add_argument("--min-psnr", type=float, default=35.0)
    a = ap.parse_args()

    images = os.path.join(a.shared, "images")
    if not os.path.isdir(images):
        print("skipped: no %s" % images)
        return 0
    imagenet = sorted(os.listdir(os.path.join(images, "imagenet")))
    jobs = []
    step = max(1, len(imagenet) // a.imagenet)
    for name in imagenet[::step][: a.imagenet]:
        jobs.append((os.path.join(images, "imagenet", name), ["--size", "224x224"]))
    for name in sorted(os.listdir(os.path.join(images, "large"))):
        jobs.append((os.path.join(images, "large", name), ["--shorter-side", "256"]))
    # A few centre crops, which resize a fractional source region.
    for path, _ in jobs[:3] + jobs[-2:]:
        jobs.append((path, ["--shorter-side", "224", "--crop"]))

    worst = {}
    failures = 0
    print("%-45s %-24s %-9s %9s %9s" % ("image", "geometry", "filter", "same dB", "e2e dB"))
    with tempfile.TemporaryDirectory() as tmp:
        for path, geometry in jobs:
            full = Image.open(path).convert("RGB")
            for fname, pil_filter in FILTERS.items():
                out, dec, region, scale = run_tool(a.tool, path, geometry + ["--filter", fname], tmp)
                size = (out.shape[1], out.shape[0])
                same = np.asarray(Image.fromarray(dec).resize(size, pil_filter, box=region))
                full_region = tuple(v / scale for v in region)
                e2e = np.asarray(full.resize(size, pil_filter, box=full_region))
                p_same, p_e2e = psnr(out, same), psnr(out, e2e)
                key = (fname, geometry[0] if "--crop" not in geometry else "crop")
                w = worst.setdefault(key, [float("inf"), float("inf"), [], []])
                w[0], w[1] = min(w[0], p_same), min(w[1], p_e2e)
                w[2].append(p_same)
                w[3].append(p_e2e)
                flag = ""
                if p_same < a.min_psnr:
                    failures += 1
                    flag = "  < %.0f dB" % a.min_psnr
                print("%-45s %-24s %-9s %9.2f %9.2f%s" % (os.path.basename(path)[:45], " ".join(geometry), fname,
                                                          p_same, p_e2e, flag))
    print("\nsummary (PSNR in dB; same-decode is the requirement, >= %.0f):" % a.min_psnr)
    print("%-10s %-16s %6s %10s %10s %10s %10s" % ("filter", "geometry", "images", "same min", "same mean",
                                                   "e2e min", "e2e mean"))
    for (fname, geo), (smin, emin, s, e) in sorted(worst.items()):
        print("%-10s %-16s %6d %10.2f %10.2f %10.2f %10.2f" % (fname, geo, len(s), smin, sum(s) / len(s), emin,
                                                             sum(e) / len(e)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
