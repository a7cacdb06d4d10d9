#!/usr/bin/env bash
# Installs the Debian 12 packages tfq needs to build and test. Idempotent; run as root.
# Build: compiler, CMake, CLI11, nlohmann/json, doctest, zlib, ISA-L (fast gzip; optional at
#        build time, tfq falls back to zlib without it), libjpeg-turbo (TurboJPEG), libpng,
#        libcurl (OpenSSL flavour) and OpenSSL for s3://, gs:// and https:// (docs/object-stores.md).
# Tests: protobuf-compiler + python3-protobuf for the reference oracle in ../shared/oracle, and
#        libprotobuf-dev for google/protobuf/*.proto (TFDV's schema.proto, which
#        tests/e2e/spec_test.sh compiles, imports any.proto); python3-pil for the resize-quality
#        comparison, clang for the fuzzers; the Python package (scripts/test-python.sh):
#        python3-dev, venv, pip, setuptools, wheel, pybind11, pytest, and python3-torch for its
#        DataLoader tests; node and npm, and s3rver from npm into
#        build/npm, for tests/e2e/object_store_test.sh.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config
          libcli11-dev nlohmann-json3-dev doctest-dev zlib1g-dev libisal-dev libturbojpeg0-dev libjpeg62-turbo-dev
          libpng-dev libomp-dev libcurl4-openssl-dev libssl-dev)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(protobuf-compiler libprotobuf-dev python3-protobuf python3-pil python3-numpy clang libclang-rt-14-dev
             python3-dev python3-venv python3-pip python3-setuptools python3-wheel pybind11-dev
             python3-pybind11 python3-pytest python3-torch
             openssl)  # the object-store test makes a certificate and checks a JWT with the openssl tool
  # Debian's nodejs and npm, unless a node with its own npm is installed already.
  command -v npm >/dev/null || packages+=(nodejs npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The S3-compatible server of tests/e2e/object_store_test.sh, in the build tree (never committed).
if [[ "${1:-}" == "--test" ]]; then
  repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if [[ ! -x "$repo/build/npm/node_modules/.bin/s3rver" ]]; then
    echo "install-deps: npm install s3rver@3.7.1 into $repo/build/npm" >&2
    mkdir -p "$repo/build/npm"
    npm install --prefix "$repo/build/npm" --no-audit --no-fund --silent s3rver@3.7.1 >/dev/null
  fi
fi
