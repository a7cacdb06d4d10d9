#!/usr/bin/env bash
# The Python package (docs/python.md): installs it into a fresh virtual environment made from
# Debian's python3 and its packages (no download), then runs its tests (python/tests, with
# docs/python.md's examples). The build reuses the CMake build folder build/ when it is there
# (scripts/test.sh's Release build), so that only the module's own files are compiled; otherwise
# setup.py builds everything in a temporary folder.
# Environment: TFQ_CMAKE_BUILD_DIR (default build), PYTHON (default /usr/bin/python3), JOBS,
# TFQ_SHARED_DIR (the corpus and oracle tests skip where ../shared is absent).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-/usr/bin/python3}
build_dir=${TFQ_CMAKE_BUILD_DIR:-build}
if [[ -f $build_dir/CMakeCache.txt ]]; then
  export TFQ_CMAKE_BUILD_DIR=$build_dir
  how="reusing the CMake build folder $build_dir"
else
  unset TFQ_CMAKE_BUILD_DIR
  how="building in a temporary folder"
fi
if [[ -n ${TFQ_CMAKE_BUILD_DIR:-} ]]; then
  # Kept beside the build: the build folder's CMake cache names this venv's python from now on,
  # so that a later `cmake -S . -B build` (the next run of scripts/test.sh) still configures.
  venv=$(realpath -m "$build_dir/python-venv")
  "$python" -m venv --clear --system-site-packages "$venv"
else
  venv=$(mktemp -d "${TMPDIR:-/tmp}/tfq-python-venv.XXXXXX")
  trap 'rm -rf "$venv"' EXIT
  "$python" -m venv --system-site-packages "$venv"
fi
echo "== pip install --no-build-isolation . ($how)"
"$venv/bin/pip" install --no-build-isolation --quiet --disable-pip-version-check .
echo "== pytest python/tests"
# From python/tests, so that `import tfq` is the installed package and not the python/tfq sources.
cd python/tests
"$venv/bin/python" -m pytest -q -p no:cacheprovider -rxs .
