#!/usr/bin/env bash
# Every side-by-side comparison of tfq with other tools, in one run, and the tables of
# docs/benchmarks.md rewritten with the results.
#
#   scripts/bench-peers.sh [--no-install] [--only NAME,...] [--tiny] [--doc FILE] [--list]
#
# It installs the peers (Debian: libvips-tools, python3-pil, python3-opencv, python3-protobuf;
# npm: duckdb, under $TFQ_PEERS_DIR), then runs each section below whose script exists. A section
# script runs tfq and its peers on the same data in the same run and prints Markdown on stdout (a
# table with the ratios, and the machine); this script wraps that in the date, the machine and the
# exact command, and replaces what lies between
#   <!-- bench:NAME:begin -->  and  <!-- bench:NAME:end -->
# in the doc (a missing section is appended). Sections whose script is absent are skipped, so the
# scripts of other issues join by existing: scripts/bench-images.sh, bench-csv.sh, bench-reshard.sh.
#
#   --no-install  use what is installed (sections check for their own peers)
#   --only LIST   run only these sections (comma-separated names, see --list)
#   --tiny        the smallest inputs each section accepts: checks that everything runs, numbers
#                 mean nothing (TFQ_BENCH_TINY=1 is exported for the section scripts)
#   --doc FILE    the Markdown file to rewrite (default docs/benchmarks.md)
#
# Needs a Release build of tfq ($TFQ, default build/tfq). Run as root for the installs.
set -euo pipefail
cd "$(dirname "$0")/.."

# name | script | arguments for a full run | arguments for --tiny ("-": the script has no small
# mode, so --tiny skips it). {BUILD} is the directory of $TFQ (scripts that take a build dir).
# Scripts exit 77 to say "skipped" (a peer or ../shared is missing): their table is left as it is.
# This table is the one place to adjust when a section script lands or changes its arguments.
sections=(
  "inspect|scripts/bench-inspect.sh|1024 64 7|8 16 2"
  "images|scripts/bench-images.sh|--build {BUILD}|-"
  "csv|scripts/bench-csv.sh|{BUILD}|-"
  "reshard|scripts/bench-reshard.sh|4096 64 5 512MB|-"
  "reshard-small|scripts/bench-reshard.sh|4096 1 5 512MB|-"
  "throughput|builtin:tfq-bench|--seconds 2|--quick --threads 1 --seconds 0.05 --data-size 1MiB"
)

install=1
only=""
tiny=0
doc=docs/benchmarks.md
while (($#)); do
  case $1 in
    --no-install) install=0 ;;
    --only) only=${2:?--only needs a list}; shift ;;
    --tiny) tiny=1 ;;
    --doc) doc=${2:?--doc needs a file}; shift ;;
    --list) for s in "${sections[@]}"; do IFS='|' read -r n f _ _ <<<"$s"; echo "$n ($f)"; done; exit 0 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-peers: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

tfq=${TFQ:-build/tfq}
[[ -x $tfq ]] || { echo "bench-peers: build tfq first (cmake --build build), or set TFQ" >&2; exit 1; }
export TFQ=$tfq
export TFQ_PEERS_DIR=${TFQ_PEERS_DIR:-/opt/tfq-peers}
export NODE_PATH=$TFQ_PEERS_DIR/node_modules${NODE_PATH:+:$NODE_PATH}
((tiny)) && export TFQ_BENCH_TINY=1

install_peers() {
  local packages=(libvips-tools python3-pil python3-opencv python3-protobuf)
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # Node.js may come from elsewhere than Debian (NodeSource's nodejs bundles npm and conflicts
  # with Debian's npm package): install Debian's only where there is no npm at all.
  command -v npm >/dev/null || missing+=(nodejs npm)
  if ((${#missing[@]})); then
    echo "bench-peers: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  # DuckDB for Node: @duckdb/node-api, whose npm packages carry the prebuilt library (the legacy
  # `duckdb` package downloads its binary from outside npm at install time).
  if [[ ! -d $TFQ_PEERS_DIR/node_modules/@duckdb/node-api ]]; then
    echo "bench-peers: installing DuckDB (npm @duckdb/node-api) into $TFQ_PEERS_DIR" >&2
    mkdir -p "$TFQ_PEERS_DIR"
    npm install --silent --no-audit --no-fund --prefix "$TFQ_PEERS_DIR" @duckdb/node-api >/dev/null
  fi
}

machine() {
  local cpu
  cpu=$(grep -m1 -E '^(model name|Model|Hardware)' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
  echo "${cpu:-unknown CPU}, $(nproc) cores, $(uname -sr)"
}

# The built-in section: tfq bench itself, as a Markdown table from its JSON report.
tfq_bench_markdown() {
  local json
  json=$(mktemp)
  # shellcheck disable=SC2086  # the arguments are a word list on purpose
  "$tfq" bench "$@" --json > "$json" || { rm -f "$json"; return 1; }
  /usr/bin/python3 - "$json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["machine"]
print(f"tfq {m['tfq_version']} ({m['build_type']} build, crc32c {m['crc32c']}); "
      f"data: {d['settings']['data']}, {d['settings']['data_records']} records, "
      f"{d['settings']['data_bytes'] / 2**20:.1f} MiB")
print()
print("| workload | threads | median | unit | min .. max | ratio to memcpy |")
print("|---|---|---|---|---|---|")
num = lambda v: f"{v:.0f}" if abs(v) >= 1000 else f"{v:.4g}"
for r in d["results"]:
    ratio = "-" if r["ratio"] is None else num(r["ratio"])
    print(f"| {r['workload']} | {r['threads']} | {num(r['median'])} | {r['unit']} | "
          f"{num(r['min'])} .. {num(r['max'])} | {ratio} |")
for s in d["skipped"]:
    print(f"\n{s['workload']} skipped: {s['reason']}")
PY
  rm -f "$json"
}

# replace_section NAME FILE: puts FILE's text between NAME's markers in $doc.
replace_section() {
  /usr/bin/python3 - "$doc" "$1" "$2" <<'PY'
import os, sys
doc, name, body_file = sys.argv[1:4]
begin, end = f"<!-- bench:{name}:begin -->", f"<!-- bench:{name}:end -->"
body = open(body_file).read().rstrip("\n")
text = open(doc).read() if os.path.exists(doc) else (
    "# Benchmarks\n\nWritten by scripts/bench-peers.sh; the text between the bench markers is "
    "replaced on every run.\n")
block = f"{begin}\n{body}\n{end}"
if begin in text and end in text and text.index(begin) < text.index(end):
    text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
else:
    text = text.rstrip("\n") + f"\n\n## {name}\n\n{block}\n"
tmp = doc + ".tmp"
open(tmp, "w").write(text)
os.replace(tmp, doc)
PY
}

selected() { [[ -z $only || ",$only," == *",$1,"* ]]; }

((install)) && install_peers
build_dir=$(cd "$(dirname "$tfq")" && pwd)
ran=0
failed=0
for s in "${sections[@]}"; do
  IFS='|' read -r name script full_args tiny_args <<<"$s"
  selected "$name" || continue
  args=$full_args
  if ((tiny)); then
    if [[ $tiny_args == - ]]; then
      echo "bench-peers: $name: no small mode, skipped under --tiny" >&2
      continue
    fi
    args=$tiny_args
  fi
  args=${args//\{BUILD\}/$build_dir}
  if [[ $script == builtin:tfq-bench ]]; then
    command="$tfq bench $args"
  elif [[ -f $script ]]; then
    command="$script $args"
  else
    echo "bench-peers: $name: $script does not exist yet, skipped" >&2
    continue
  fi
  body=$(mktemp)
  status=0
  # shellcheck disable=SC2086  # the arguments are a word list on purpose
  if [[ $script == builtin:tfq-bench ]]; then
    tfq_bench_markdown $args > "$body" || status=$?
  else
    bash "$script" $args > "$body" || status=$?
  fi
  if ((status == 77)); then
    echo "bench-peers: $name: skipped by $script: $(tail -n 1 "$body")" >&2
  elif ((status != 0)); then
    echo "bench-peers: $name: '$command' failed (exit $status); its output:" >&2
    sed 's/^/  /' "$body" >&2
    failed=$((failed + 1))
  else
    section=$(mktemp)
    {
      echo "Measured $(date -u +%Y-%m-%d) on $(machine)$( ((tiny)) && echo ' (--tiny: a structure check, not a measurement)')."
      echo "Command: \`$command\`"
      echo
      cat "$body"
    } > "$section"
    replace_section "$name" "$section"
    rm -f "$section"
    echo "bench-peers: $name: table updated in $doc" >&2
    ran=$((ran + 1))
  fi
  rm -f "$body"
done
((failed == 0)) || exit 1
((ran)) || { echo "bench-peers: no section ran" >&2; exit 1; }
