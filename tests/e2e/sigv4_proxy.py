#!/usr/bin/env python3
"""An S3 front door that checks what s3rver 3.7 does not: the SigV4 signature of every request,
for object_store_test.sh. Written from AWS's Signature Version 4 documentation (canonical
request, string to sign, derived signing key), independently of tfq's src/io/sigv4.cc.

    sigv4_proxy.py UPSTREAM_PORT PORT_FILE KEY_ID:SECRET [BEARER_TOKEN PUBLIC_KEY_PEM]

Binds 127.0.0.1 on a free port, writes it to PORT_FILE, and forwards each request to s3rver on
127.0.0.1:UPSTREAM_PORT only when it is authorized, answering as S3 does otherwise:
  403 InvalidAccessKeyId      an access key id other than KEY_ID
  403 SignatureDoesNotMatch   a signature that the secret does not give
  400 XAmzContentSHA256Mismatch  a body whose SHA-256 is not x-amz-content-sha256
  403 RequestTimeTooSkewed    x-amz-date more than 15 minutes away
  403 AccessDenied            no Authorization, or a bearer token other than BEARER_TOKEN
A bearer token (GCS's OAuth) is accepted when it equals BEARER_TOKEN; the Authorization header
is then dropped, since s3rver knows only SigV4.

POST /_token is an OAuth token endpoint for service-account keys (GCS's JWT bearer flow): the
form's assertion must be a JWT signed RS256 with the private key of PUBLIC_KEY_PEM (checked with
`openssl dgst -verify`), with aud this URL, a devstorage scope and an exp to come; the answer
is {"access_token": BEARER_TOKEN, "expires_in": 3600}, else 400 invalid_grant.
GET /_stats answers "REQUESTS REJECTED TOKENS_ISSUED".
"""
import base64
import datetime
import hashlib
import hmac
import http.client
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

UPSTREAM = int(sys.argv[1])
KEY_ID, SECRET = sys.argv[3].split(":", 1)
BEARER = sys.argv[4] if len(sys.argv) > 4 else None
PUBLIC_KEY = sys.argv[5] if len(sys.argv) > 5 else None
stats = {"requests": 0, "rejected": 0, "tokens": 0}
lock = threading.Lock()

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~"


def uri_encode(text, keep_slash):
    """RFC 3986 as SigV4 wants it: every byte but the unreserved ones as %XX, upper-case hex."""
    safe = UNRESERVED + ("/" if keep_slash else "")
    return "".join(chr(b) if chr(b) in safe else "%%%02X" % b for b in text.encode("utf-8"))


def canonical_query(raw):
    pairs = []
    for part in raw.split("&") if raw else []:
        name, _, value = part.partition("=")
        pairs.append((uri_encode(urllib.parse.unquote(name), False),
                      uri_encode(urllib.parse.unquote(value), False)))
    return "&".join("%s=%s" % p for p in sorted(pairs))


def hmac_sha256(key, text):
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).digest()


def s3_error(code, message):
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>%s</Code><Message>%s</Message>"
            "</Error>" % (code, message)).encode()


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def token_problem(form, audience):
    """None when the JWT assertion of a token request is good, else why not."""
    if form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"]:
        return "grant_type is not jwt-bearer"
    parts = form.get("assertion", [""])[0].split(".")
    if len(parts) != 3:
        return "the assertion is not a JWT"
    header, claims = json.loads(b64url(parts[0])), json.loads(b64url(parts[1]))
    if header.get("alg") != "RS256":
        return "alg is not RS256"
    with tempfile.NamedTemporaryFile() as signature:
        signature.write(b64url(parts[2]))
        signature.flush()
        verify = subprocess.run(["openssl", "dgst", "-sha256", "-verify", PUBLIC_KEY, "-signature", signature.name],
                                input=(parts[0] + "." + parts[1]).encode(), capture_output=True)
    if verify.returncode != 0:
        return "the signature does not verify"
    now = time.time()
    if claims.get("aud") != audience or "devstorage" not in claims.get("scope", ""):
        return "wrong aud or scope"
    if not claims.get("iss") or not claims.get("iat", 0) - 300 <= now < claims.get("exp", 0):
        return "no iss, or not valid now"
    return None


def check(method, raw_path, headers, body):
    """None when the request is authorized, else (status, code, message)."""
    auth = headers.get("Authorization")
    if auth is None:
        return 403, "AccessDenied", "Anonymous access is forbidden for this bucket"
    if auth.startswith("Bearer "):
        if BEARER is not None and hmac.compare_digest(auth[7:], BEARER):
            return None
        return 403, "AccessDenied", "Invalid bearer token"
    m = re.match(r"AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/aws4_request,"
                 r"\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$", auth)
    if not m:
        return 400, "AuthorizationHeaderMalformed", "The authorization header is malformed"
    key_id, day, region, service, signed, signature = m.groups()
    if key_id != KEY_ID:
        return 403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records."
    amz_date = headers.get("x-amz-date", "")
    try:
        when = datetime.datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
    except ValueError:
        return 403, "AccessDenied", "x-amz-date is missing or malformed"
    if abs((datetime.datetime.now(datetime.timezone.utc) - when).total_seconds()) > 900 or day != amz_date[:8]:
        return 403, "RequestTimeTooSkewed", "The difference between the request time and the server's time is too large."
    names = signed.split(";")
    if "host" not in names or names != sorted(names):
        return 403, "SignatureDoesNotMatch", "SignedHeaders must be sorted and include host"
    payload = headers.get("x-amz-content-sha256", "")
    if payload != "UNSIGNED-PAYLOAD" and payload != hashlib.sha256(body).hexdigest():
        return 400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed."
    path, _, query = raw_path.partition("?")
    # S3 signs the path as the client encoded it once: normalize by decoding and encoding again.
    canonical_headers = ""
    for name in names:
        value = headers.get(name)
        if value is None:
            return 403, "SignatureDoesNotMatch", "A signed header is missing: " + name
        canonical_headers += name + ":" + " ".join(value.strip().split()) + "\n"
    canonical = "\n".join([method, uri_encode(urllib.parse.unquote(path), True), canonical_query(query),
                           canonical_headers, signed, payload])
    scope = "%s/%s/%s/aws4_request" % (day, region, service)
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope,
                         hashlib.sha256(canonical.encode("utf-8")).hexdigest()])
    key = hmac_sha256(("AWS4" + SECRET).encode("utf-8"), day)
    for part in (region, service, "aws4_request"):
        key = hmac_sha256(key, part)
    expected = hmac.new(key, to_sign.encode("utf-8"), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature):
        return 403, "SignatureDoesNotMatch", ("The request signature we calculated does not match the "
                                              "signature you provided. Check your key and signing method.")
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/_stats":
            with lock:
                text = "%d %d %d" % (stats["requests"], stats["rejected"], stats["tokens"])
            return self.reply(200, {}, text.encode())
        self.forward()

    def do_HEAD(self):
        self.forward()

    def do_PUT(self):
        self.forward()

    def do_POST(self):
        self.forward()

    def do_DELETE(self):
        self.forward()

    def forward(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
        if self.command == "POST" and self.path == "/_token" and PUBLIC_KEY:
            problem = token_problem(urllib.parse.parse_qs(body.decode()), "http://%s/_token" % self.headers["Host"])
            with lock:
                stats["tokens"] += problem is None
            if problem:
                answer = {"error": "invalid_grant", "error_description": problem}
                return self.reply(400, {"Content-Type": "application/json"}, json.dumps(answer).encode())
            answer = {"access_token": BEARER, "expires_in": 3600, "token_type": "Bearer"}
            return self.reply(200, {"Content-Type": "application/json"}, json.dumps(answer).encode())
        problem = check(self.command, self.path, self.headers, body)
        with lock:
            stats["requests"] += 1
            stats["rejected"] += problem is not None
        if problem:
            status, code, message = problem
            return self.reply(status, {"Content-Type": "application/xml"}, s3_error(code, message))
        headers = {k: v for k, v in self.headers.items()
                   if k.lower() not in ("connection", "expect") and not (BEARER and k.lower() == "authorization")}
        upstream = http.client.HTTPConnection("127.0.0.1", UPSTREAM, timeout=60)
        try:
            upstream.request(self.command, self.path, body=body if body else None, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
            out = {k: v for k, v in answer.getheaders()
                   if k.lower() not in ("connection", "transfer-encoding", "content-length", "keep-alive")}
            if self.command == "HEAD":
                out["Content-Length"] = answer.getheader("Content-Length", "0")
            self.reply(answer.status, out, data)
        finally:
            upstream.close()

    def reply(self, status, headers, body):
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        if "Content-Length" not in headers:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
