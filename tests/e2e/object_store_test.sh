#!/usr/bin/env bash
# s3://, gs:// and http:// end to end against real servers on 127.0.0.1: s3rver (npm) for s3://
# and gs:// (GCS's S3-compatible API with HMAC keys) behind sigv4_proxy.py, which checks every
# request's SigV4 signature as S3 does (s3rver 3.7 checks only the access key id), and
# range_server.py for plain ranged GETs with injected faults. Every command's output equals the
# same run on local files, byte for byte; retries recover; errors name the URL; nothing
# half-written appears. Skips (77) without node or s3rver: scripts/install-deps.sh --test
# installs s3rver into build/npm (TFQ_S3RVER names another s3rver executable).
source "$(dirname "$0")/lib.sh"

s3rver=${TFQ_S3RVER:-$TFQ_SOURCE_DIR/build/npm/node_modules/.bin/s3rver}
[[ -x "$s3rver" ]] || s3rver=$(command -v s3rver || true)
if ! command -v node >/dev/null || [[ -z "$s3rver" || ! -x "$s3rver" ]]; then
  echo "SKIP: node or s3rver is missing (scripts/install-deps.sh --test installs them)"
  exit 77
fi

# --- Servers, stopped (by their process ids) when the script exits.
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$WORK/s3data" "$WORK/www"
"$s3rver" -d "$WORK/s3data" -a 127.0.0.1 -p "$port" --no-vhost-buckets --configure-bucket bkt \
  >"$WORK/s3rver.log" 2>&1 &
pids+=($!)
# A service-account key made now; the proxy's token endpoint checks JWTs with its public half.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/sa.pem" 2>/dev/null &&
  openssl pkey -in "$WORK/sa.pem" -pubout -out "$WORK/sa.pub" || die "openssl genpkey failed"
gcs_token=ya29.test-token-$RANDOM
/usr/bin/python3 "$TFQ_SOURCE_DIR/tests/e2e/sigv4_proxy.py" "$port" "$WORK/s3.port" S3RVER:S3RVER \
  "$gcs_token" "$WORK/sa.pub" &
pids+=($!)
# A self-signed certificate for 127.0.0.1, made now: range_server.py serves https with it too.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$WORK/tls.key" -out "$WORK/tls.crt" 2>/dev/null ||
  die "openssl req could not make a certificate"
/usr/bin/python3 "$TFQ_SOURCE_DIR/tests/e2e/range_server.py" "$WORK/www" "$WORK/http.port" \
  "$WORK/tls.crt" "$WORK/tls.key" "$WORK/https.port" &
pids+=($!)
for _ in $(seq 100); do
  grep -q "listening" "$WORK/s3rver.log" 2>/dev/null && [[ -s "$WORK/http.port" && -s "$WORK/https.port" && -s "$WORK/s3.port" ]] && break
  sleep 0.1
done
grep -q "listening" "$WORK/s3rver.log" || die "s3rver did not start: $(cat "$WORK/s3rver.log")"
[[ -s "$WORK/http.port" ]] || die "range_server.py did not start"
[[ -s "$WORK/s3.port" ]] || die "sigv4_proxy.py did not start"
web="http://127.0.0.1:$(cat "$WORK/http.port")"
tls="https://127.0.0.1:$(cat "$WORK/https.port")"

export HOME="$WORK"  # no ~/.aws of the machine's
export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1
export AWS_ENDPOINT_URL="http://127.0.0.1:$(cat "$WORK/s3.port")"  # the proxy that checks signatures
export TFQ_HTTP_RETRY_BASE_SECONDS=0.01
# Small blocks and parts, so that a few MB make several reads in flight and a multipart upload.
export TFQ_OBJECT_READ_BLOCK_MIB=1 TFQ_UPLOAD_PART_MIB=5
stored() { echo "$WORK/s3data/bkt/$1._S3rver_object"; }  # where s3rver keeps an object's bytes
same_bytes() {
  checks=$((checks + 1))
  cmp -s "$1" "$2" || fail "$1 and $2 differ"
}

# --- Inputs: flowers (small) and 6 MB of rows (several blocks, a multipart upload).
cd "$WORK" || exit 1
data="$TFQ_SOURCE_DIR/testdata/flowers.jsonl"
/usr/bin/python3 -c '
for i in range(6000): print("{\"id\": %d, \"text\": \"%s\"}" % (i, "z" * 1000))' > rows.jsonl
mkdir -p local
expect_exit 0 "$TFQ" convert "$data" -o local/train-00000-of-00002.tfrecord -q
expect_exit 0 "$TFQ" convert rows.jsonl -o local/train-00001-of-00002.tfrecord -q

# --- Writes: convert to s3://; the objects are the local files' bytes.
expect_exit 0 "$TFQ" convert "$data" -o s3://bkt/d/train-00000-of-00002.tfrecord -q
expect_exit 0 "$TFQ" convert rows.jsonl -o s3://bkt/d/train-00001-of-00002.tfrecord -q
same_bytes "$(stored d/train-00000-of-00002.tfrecord)" local/train-00000-of-00002.tfrecord
same_bytes "$(stored d/train-00001-of-00002.tfrecord)" local/train-00001-of-00002.tfrecord
grep -q "uploadId" "$WORK/s3rver.log" || fail "the 6 MB output was not a multipart upload"

# --- Reads: inspect over a glob of the listing prints what it prints for the local files.
for mode in --count --verify --json "--json --verify"; do
  # shellcheck disable=SC2086
  expect_exit 0 "$TFQ" inspect $mode 'local/train-*-of-*'
  sed 's|local/||g' out > local.out
  # shellcheck disable=SC2086
  expect_exit 0 "$TFQ" inspect $mode 's3://bkt/d/train-*-of-*'
  sed 's|s3://bkt/d/||g' out > remote.out
  same_bytes remote.out local.out
done
expect_exit 0 "$TFQ" convert s3://bkt/d/train-00001-of-00002.tfrecord -o remote.jsonl -q
expect_exit 0 "$TFQ" convert local/train-00001-of-00002.tfrecord -o local.jsonl -q
same_bytes remote.jsonl local.jsonl

# --- shard and shuffle: s3 in, s3 out, the same shards as local in, local out.
expect_exit 0 "$TFQ" shard --shards 3 -o local/sh 'local/train-*-of-*' -q
expect_exit 0 "$TFQ" shard --shards 3 -o s3://bkt/sh 's3://bkt/d/train-*-of-*' -q
expect_exit 0 "$TFQ" shuffle --seed 7 --shards 2 -o local/sf 'local/train-*-of-*' -q
expect_exit 0 "$TFQ" shuffle --seed 7 --shards 2 -o s3://bkt/sf 's3://bkt/d/train-*-of-*' -q
# 19 MB read once from s3:// with --memory 24MiB (12 MiB for records) goes through a bucket
# file, in $TMPDIR for an object-store prefix; local files are re-scanned: the same shard.
cat local/train-*-of-* local/train-*-of-* local/train-*-of-* > local/big.tfrecord
expect_exit 0 "$TFQ" shard --shards 1 -o s3://bkt/big local/big.tfrecord -q
expect_exit 0 "$TFQ" shuffle --seed 7 --memory 24MiB -o local/sb local/big.tfrecord
expect_exit 0 "$TFQ" shuffle --seed 7 --memory 24MiB -o s3://bkt/sb s3://bkt/big-00000-of-00001
expect_stderr_contains "buckets);"
same_bytes "$(stored sb-00000-of-00001)" local/sb-00000-of-00001
for k in 0 1 2; do same_bytes "$(stored sh-0000$k-of-00003)" local/sh-0000$k-of-00003; done
for k in 0 1; do same_bytes "$(stored sf-0000$k-of-00002)" local/sf-0000$k-of-00002; done
checks=$((checks + 1))
ls -a "${TMPDIR:-/tmp}" | grep -q "^\.tfq-partial\.s[hf]-" && fail "staged shards left behind"
checks=$((checks + 1)); [[ -e s3: || -e gs: ]] && fail "a URL was taken for a local folder"

# --- gs:// through the same S3-compatible API with HMAC keys.
expect_exit 0 env GS_ENDPOINT_URL="$AWS_ENDPOINT_URL" GS_ACCESS_KEY_ID=S3RVER GS_SECRET_ACCESS_KEY=S3RVER \
  "$TFQ" inspect --count 'gs://bkt/d/train-*'
expect_stdout "$("$TFQ" inspect --count 'local/train-*')"

# gs:// with a service-account key file: one token exchange (a JWT signed RS256), then that
# token as the bearer of every request (the proxy refuses any other).
/usr/bin/python3 -c '
import json, sys
json.dump({"type": "service_account", "client_email": "tfq-test@example.iam.gserviceaccount.com",
           "private_key": open(sys.argv[1]).read(), "token_uri": sys.argv[2] + "/_token"}, open(sys.argv[3], "w"))
' "$WORK/sa.pem" "$AWS_ENDPOINT_URL" sa.json
gcs_env=(env -u GS_ACCESS_KEY_ID -u GS_SECRET_ACCESS_KEY -u GOOGLE_OAUTH_ACCESS_TOKEN GS_ENDPOINT_URL="$AWS_ENDPOINT_URL")
expect_exit 0 "${gcs_env[@]}" GOOGLE_APPLICATION_CREDENTIALS=sa.json "$TFQ" inspect --count 'gs://bkt/d/train-*'
expect_stdout "$("$TFQ" inspect --count 'local/train-*')"
run curl -s "$AWS_ENDPOINT_URL/_stats"
checks=$((checks + 1)); [[ "$(cut -d' ' -f3 out)" == 1 ]] || fail "token exchanges: $(cat out), expected 1"
expect_exit 1 "${gcs_env[@]}" GOOGLE_OAUTH_ACCESS_TOKEN=ya29.stale "$TFQ" inspect --count gs://bkt/d/train-00000-of-00002.tfrecord
expect_stderr_contains "access denied reading (HTTP 403 AccessDenied"
expect_stderr_contains "with environment variable GOOGLE_OAUTH_ACCESS_TOKEN"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out other.pem 2>/dev/null
/usr/bin/python3 -c '
import json, sys
key = json.load(open("sa.json")); key["private_key"] = open("other.pem").read(); json.dump(key, open("other.json", "w"))'
expect_exit 1 "${gcs_env[@]}" GOOGLE_APPLICATION_CREDENTIALS=other.json "$TFQ" inspect --count gs://bkt/d/train-00000-of-00002.tfrecord
expect_stderr_contains "GOOGLE_APPLICATION_CREDENTIALS=other.json: exchanging the key for an access token at $AWS_ENDPOINT_URL/_token failed (HTTP 400 invalid_grant: the signature does not verify)"
checks=$((checks + 1)); grep -q "BEGIN\|$gcs_token" err && fail "a key or token was printed"
printf '{"type": "authorized_user"}' > user.json
expect_exit 2 "${gcs_env[@]}" GOOGLE_APPLICATION_CREDENTIALS=user.json "$TFQ" inspect --count gs://bkt/d/x
expect_stderr_contains 'GOOGLE_APPLICATION_CREDENTIALS=user.json: has no "client_email"'

# --- Errors name the URL; a 403 names the credential source, never the secret.
expect_exit 1 env AWS_ACCESS_KEY_ID=NOTAKEY AWS_SECRET_ACCESS_KEY=wrong-secret-123 \
  "$TFQ" inspect --count s3://bkt/d/train-00000-of-00002.tfrecord
expect_stderr_contains "s3://bkt/d/train-00000-of-00002.tfrecord: access denied reading (HTTP 403 InvalidAccessKeyId"
expect_stderr_contains "with environment variables AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY"
checks=$((checks + 1)); grep -q "wrong-secret-123" err && fail "the secret was printed"
expect_stdout ""
# The right key id with a wrong secret: the signature does not match.
expect_exit 1 env AWS_SECRET_ACCESS_KEY=wrong-secret-123 "$TFQ" inspect --count s3://bkt/d/train-00000-of-00002.tfrecord
expect_stderr_contains "s3://bkt/d/train-00000-of-00002.tfrecord: access denied reading (HTTP 403 SignatureDoesNotMatch"
expect_stderr_contains "with environment variables AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY"
checks=$((checks + 1)); grep -q "wrong-secret-123" err && fail "the secret was printed"
expect_exit 1 env GS_ENDPOINT_URL="$AWS_ENDPOINT_URL" GS_ACCESS_KEY_ID=S3RVER GS_SECRET_ACCESS_KEY=wrong-secret-123 \
  "$TFQ" inspect --count 'gs://bkt/d/train-*'
expect_stderr_contains "gs://bkt/d/train-: access denied listing (HTTP 403 SignatureDoesNotMatch"
expect_stderr_contains "HMAC keys in GS_ACCESS_KEY_ID/GS_SECRET_ACCESS_KEY"
printf '[dev]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n' > creds
expect_exit 0 env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY AWS_SHARED_CREDENTIALS_FILE=creds AWS_PROFILE=dev \
  "$TFQ" inspect --count s3://bkt/d/train-00000-of-00002.tfrecord
expect_stdout "$("$TFQ" inspect --count local/train-00000-of-00002.tfrecord)"
expect_exit 1 env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY AWS_SHARED_CREDENTIALS_FILE=creds AWS_PROFILE=dev \
  "$TFQ" inspect --count s3://nobucket/x
expect_stderr_contains "s3://nobucket/x: no such bucket"
expect_exit 2 env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY AWS_SHARED_CREDENTIALS_FILE=creds AWS_PROFILE=nope \
  "$TFQ" inspect --count s3://bkt/d/train-00000-of-00002.tfrecord
expect_stderr_contains "AWS_PROFILE=nope: no such profile in creds"
expect_exit 1 "$TFQ" inspect --count s3://bkt/d/missing.tfrecord
expect_stderr_contains "s3://bkt/d/missing.tfrecord: no such object (HTTP 404 NoSuchKey"
expect_exit 1 "$TFQ" inspect --count 's3://bkt/nothing-*'
expect_stderr_contains "no objects match 's3://bkt/nothing-*'"
expect_exit 2 "$TFQ" convert "$data" -o "$web/x.tfrecord"
expect_stderr_contains "can only be read"

# --- Nothing half-written: a run that fails, or is killed, mid-upload leaves no object.
{ head -n 3000 rows.jsonl; echo '{"id": '; tail -n 3000 rows.jsonl; } > bad.jsonl
expect_exit 3 "$TFQ" convert bad.jsonl -o s3://bkt/bad.tfrecord -q
checks=$((checks + 1)); [[ -e "$(stored bad.tfrecord)" ]] && fail "a failed convert left s3://bkt/bad.tfrecord"
mkfifo slow
{ head -n 5500 rows.jsonl; sleep 30; } > slow &
feeder=$!
"$TFQ" convert --from jsonl slow -o s3://bkt/killed.tfrecord -q 2>/dev/null &
victim=$!
sleep 2
kill -TERM "$victim"; wait "$victim" 2>/dev/null; kill "$feeder" 2>/dev/null
expect_exit 1 "$TFQ" inspect --count s3://bkt/killed.tfrecord
expect_stderr_contains "no such object"

# --- http:// ranged GETs: the same counts, and faults the retries recover from.
cp local/train-0000[01]-of-00002.tfrecord "$WORK/www/"
big=train-00001-of-00002.tfrecord
"$TFQ" inspect --verify --json local/$big | sed 's|local/||' > local.out
for fault in 503/2 429/2 500/1 drop/2 truncate/2; do
  expect_exit 0 "$TFQ" inspect --verify --json "$web/fault/$fault/$big"
  sed "s|$web/fault/$fault/||" out > remote.out
  same_bytes remote.out local.out
  run curl -s "$web/count/$fault/$big"
  checks=$((checks + 1)); (( $(cat out) > ${fault#*/} )) || fail "$fault: only $(cat out) requests"
done
expect_exit 0 env TFQ_HTTP_STALL_SECONDS=1 "$TFQ" inspect --count "$web/fault/stall/1/$big"
expect_stdout "6000"
# Faults that do not go away: clear errors naming the URL, after a bounded number of retries.
expect_exit 1 env TFQ_HTTP_RETRIES=2 "$TFQ" inspect --count "$web/fault/503/0/$big"
expect_stderr_contains "$web/fault/503/0/$big: reading failed (HTTP 503)"
run curl -s "$web/count/503/0/$big"
expect_stdout "3"
expect_exit 1 env TFQ_HTTP_RETRIES=1 "$TFQ" inspect --count "$web/fault/drop/0/$big"
expect_stderr_contains "$web/fault/drop/0/$big: "
expect_stderr_contains "(2 attempts; TFQ_HTTP_RETRIES sets how many retries)"
expect_exit 1 env TFQ_HTTP_RETRIES=1 "$TFQ" inspect --count "$web/fault/truncate/0/$big"
expect_stderr_contains "$web/fault/truncate/0/$big: "
expect_exit 1 env TFQ_HTTP_RETRIES=0 TFQ_HTTP_STALL_SECONDS=1 "$TFQ" inspect --count "$web/fault/stall/0/$big"
expect_stderr_contains "$web/fault/stall/0/$big: "
expect_exit 1 "$TFQ" inspect --count "$web/fault/norange/0/$big"
expect_stderr_contains "ignored the Range header"
# Every s3:// and gs:// request above went through the signature check; only the ones sent with
# wrong keys (and their GETs of one byte for the message) were refused.
run curl -s "$AWS_ENDPOINT_URL/_stats"
checks=$((checks + 1)); read -r requests rejected _ < out
(( requests > 100 && rejected >= 4 && rejected <= 10 )) || fail "sigv4_proxy.py saw $requests requests, refused $rejected"
# --count over records of 1.5 MB (a block or more, TFQ_OBJECT_READ_BLOCK_MIB=1) reads headers
# with small ranged GETs: the same count for a small fraction of the bytes; --verify reads all.
/usr/bin/python3 -c '
for i in range(6): print("{\"id\": %d, \"text\": \"%s\"}" % (i, "w" * 1500000))' > wide.jsonl
expect_exit 0 "$TFQ" convert wide.jsonl -o "$WORK/www/wide.tfrecord" -q
wide_size=$(stat -c %s "$WORK/www/wide.tfrecord")
before=$(curl -s "$web/bytes")
expect_exit 0 "$TFQ" inspect --count "$web/wide.tfrecord"
expect_stdout "6"
fetched=$(( $(curl -s "$web/bytes") - before ))
checks=$((checks + 1)); (( fetched * 20 < wide_size )) || fail "--count fetched $fetched of $wide_size bytes"
before=$(curl -s "$web/bytes")
expect_exit 0 "$TFQ" inspect --verify "$web/wide.tfrecord"
fetched=$(( $(curl -s "$web/bytes") - before ))
checks=$((checks + 1)); (( fetched >= wide_size )) || fail "--verify fetched only $fetched of $wide_size bytes"

# https:// with the test's own certificate, trusted through the variables curl's users set.
"$TFQ" inspect --count local/$big > local.out
expect_exit 0 env CURL_CA_BUNDLE="$WORK/tls.crt" "$TFQ" inspect --count "$tls/$big"
same_bytes out local.out
expect_exit 0 env -u CURL_CA_BUNDLE SSL_CERT_FILE="$WORK/tls.crt" "$TFQ" inspect --verify --json "$tls/fault/503/1/$big"
expect_stdout_contains '"records":6000'
expect_exit 1 env -u CURL_CA_BUNDLE -u SSL_CERT_FILE -u SSL_CERT_DIR "$TFQ" inspect --count "$tls/$big"
expect_stderr_contains "$tls/$big: the server's TLS certificate is not trusted ("
expect_stderr_contains "set CURL_CA_BUNDLE to a PEM file of the certificates to trust"
expect_exit 1 env CURL_CA_BUNDLE="$WORK/none.crt" "$TFQ" inspect --count "$tls/$big"
expect_stderr_contains "$tls/$big: cannot use the CA certificates of CURL_CA_BUNDLE=$WORK/none.crt"
expect_exit 1 "$TFQ" inspect --count "$web/none.tfrecord"
expect_stderr_contains "$web/none.tfrecord: no such object (HTTP 404)"

finish
