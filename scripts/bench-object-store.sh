#!/usr/bin/env bash
# Benchmark for reading over HTTP (issue 20): `tfq inspect --count` over http:// URLs against
# `curl` fetching the same bytes to /dev/null with the same number of connections, from nginx on
# 127.0.0.1 when it is installed (apt-get install nginx-light), else tests/e2e/range_server.py
# (the server is the same for both, so the ratio is the client's), measured in the same run:
#   1 connection : curl URL1 URL2 ... (one connection, reused)  vs  tfq with
#                  TFQ_OBJECT_READS_IN_FLIGHT=1 (one ranged GET at a time)   (goal: tfq >= 0.9x)
#   8 connections: curl, each file as 8 ranges, 8 processes at once  vs  tfq with 8 ranged GETs
#                  in flight (the default)                                  (goal: tfq >= 0.9x)
#   and tfq 8 in flight against tfq 1 in flight                             (goal: >= 3x, where
#                  the server can serve 8 reads at once)
# RANGE_SERVER_MBPS=R caps each connection at R MB/s (nginx's limit_rate), as S3 and GCS cap each
# connection (about 100 MB/s): the case where several ranged reads in flight pay off. Unset, the server sends as
# fast as the CPUs allow. Each command runs RUNS times, interleaved; the median is reported. Prints a Markdown table for
# docs/benchmarks.md.
#
#   scripts/bench-object-store.sh [SHARD_MiB=64] [SHARDS=4] [RUNS=3]
# Environment: BENCH_SERVER=python uses range_server.py even where nginx is installed (slower:
# on 2 cores it could not serve 8 paced reads at once). With RANGE_SERVER_MBPS nginx listens with
# a 128 KiB send buffer, so that limit_rate paces each response from its start. TFQ (default build/tfq, a Release build), BENCH_DIR (default: a new directory
# under /tmp; it needs SHARD_MiB x SHARDS free).
set -euo pipefail
cd "$(dirname "$0")/.."
shard_mib=${1:-64}
shards=${2:-4}
runs=${3:-3}
tfq=${TFQ:-build/tfq}
[[ -x $tfq ]] || { echo "build tfq first (cmake --build build), or set TFQ" >&2; exit 1; }
command -v curl >/dev/null || { echo "needs curl (apt-get install -y curl)" >&2; exit 1; }
dir=${BENCH_DIR:-$(mktemp -d /tmp/tfq-bench-objstore-XXXXXX)}
mkdir -p "$dir/www"
server=
trap '[[ -n $server ]] && kill $server; rm -rf "$dir/www" "$dir/port" "$dir"/nginx.*; rmdir "$dir" 2>/dev/null || true' EXIT

# One shard of distinct ~64 KiB records (incompressible text), copied SHARDS times.
/usr/bin/python3 - "$shard_mib" <<'PY' | "$tfq" convert - --from jsonl -o "$dir/www/shard-0" -q
import base64, random, sys
rng = random.Random(1)
for i in range(int(sys.argv[1]) * 16):
    print('{"id": %d, "text": "%s"}' % (i, base64.b64encode(rng.randbytes(48 << 10)).decode()))
PY
for ((k = 1; k < shards; ++k)); do cp "$dir/www/shard-0" "$dir/www/shard-$k"; done
bytes=$(($(stat -c %s "$dir/www/shard-0") * shards))

if [[ ${BENCH_SERVER:-nginx} == nginx ]] && { command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]]; }; then
  port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  limit=""
  [[ -n ${RANGE_SERVER_MBPS:-} ]] && limit="limit_rate $((RANGE_SERVER_MBPS * 1000000));" sndbuf=" sndbuf=128k"
  cat > "$dir/nginx.conf" <<CONF
daemon off; worker_processes 4; error_log $dir/nginx.err; pid $dir/nginx.pid;
events { worker_connections 256; }
http { access_log off; sendfile on; tcp_nodelay on; keepalive_requests 100000;
       client_body_temp_path $dir; proxy_temp_path $dir; fastcgi_temp_path $dir;
       uwsgi_temp_path $dir; scgi_temp_path $dir;
       server { listen 127.0.0.1:$port${sndbuf:-}; root $dir/www; $limit } }
CONF
  "$(command -v nginx || echo /usr/sbin/nginx)" -c "$dir/nginx.conf" &
  server=$!
  server_name="nginx $(nginx -v 2>&1 | cut -d/ -f2)"
  sleep 0.5
  web="http://127.0.0.1:$port"
else
  /usr/bin/python3 tests/e2e/range_server.py "$dir/www" "$dir/port" &
  server=$!
  server_name="range_server.py"
  for _ in $(seq 100); do [[ -s $dir/port ]] && break; sleep 0.1; done
  web="http://127.0.0.1:$(cat "$dir/port")"
fi
urls=()
for ((k = 0; k < shards; ++k)); do urls+=("$web/shard-$k"); done
size=$(stat -c %s "$dir/www/shard-0")

curl_1() {
  local args=()
  for u in "${urls[@]}"; do args+=(-o /dev/null "$u"); done
  curl -s "${args[@]}"
}
curl_8() {
  local part=$(((size + 7) / 8))
  for u in "${urls[@]}"; do
    for ((i = 0; i < 8; ++i)); do
      local a=$((i * part)) b=$(((i + 1) * part - 1))
      ((b >= size)) && b=$((size - 1))
      echo "$a-$b $u"
    done
  done | xargs -P 8 -n 2 sh -c 'curl -s -o /dev/null -r "$0" "$1"'
}
# One file per run, as curl takes them: `inspect` may read several files at once, and then use
# more connections than it is given here.
tfq_1() { for u in "${urls[@]}"; do TFQ_OBJECT_READS_IN_FLIGHT=1 "$tfq" inspect --count "$u" >/dev/null; done; }
tfq_8() { for u in "${urls[@]}"; do TFQ_OBJECT_READS_IN_FLIGHT=8 "$tfq" inspect --count "$u" >/dev/null; done; }

names=(curl_1 tfq_1 curl_8 tfq_8)
declare -A times
for ((r = 0; r < runs; ++r)); do
  for name in "${names[@]}"; do
    start=$(date +%s.%N)
    "$name"
    end=$(date +%s.%N)
    times[$name]+="$(echo "$end - $start" | bc) "
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| reader | connections | MB/s (median of $runs) |"
echo "|---|---|---|"
declare -A rate
for name in "${names[@]}"; do
  m=$(echo "${times[$name]}" | median)
  rate[$name]=$(echo "$bytes / $m / 1000000" | bc -l)
  printf '| %s | %s | %.0f |\n' "${name%_*}" "${name#*_}" "${rate[$name]}"
done
printf '\ntfq/curl: %.2fx with 1 connection, %.2fx with 8; tfq 8 in flight / 1: %.2fx (%s, %d x %d MiB, RANGE_SERVER_MBPS=%s, %s, %d CPUs, load %s)\n' \
  "$(echo "${rate[tfq_1]} / ${rate[curl_1]}" | bc -l)" "$(echo "${rate[tfq_8]} / ${rate[curl_8]}" | bc -l)" \
  "$(echo "${rate[tfq_8]} / ${rate[tfq_1]}" | bc -l)" "$server_name" "$shards" "$shard_mib" "${RANGE_SERVER_MBPS:-unset}" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)" "$(cut -d' ' -f1 /proc/loadavg)"
