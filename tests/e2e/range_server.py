#!/usr/bin/env python3
"""A plain HTTP server of one folder with Range support and injected faults, for
object_store_test.sh.

    range_server.py ROOT PORT_FILE [CERT KEY TLS_PORT_FILE]

Binds 127.0.0.1 on a free port and writes the port to PORT_FILE; with CERT and KEY (PEM files),
also serves the same over https on another port, written to TLS_PORT_FILE. GET and HEAD of /NAME serve
ROOT/NAME (206 for a Range request). /fault/KIND/N/NAME serves ROOT/NAME but the first N
requests to that URL fail (N=0: every request), by KIND:
  drop      close the connection without answering
  500, 503, 429
            that status, with a short body
  truncate  the headers of the whole answer, then half its body, then close
  stall     the headers, then nothing for 60 s
  norange   a 200 with the whole file, ignoring Range
GET /count/KIND/N/NAME answers how many requests that fault URL has seen; GET /bytes, how many
body bytes of files were sent so far.
RANGE_SERVER_MBPS=R in the environment caps each response at R MB/s, as an object store caps
each connection (scripts/bench-object-store.sh).
"""
import http.server
import os
import re
import ssl
import sys
import threading
import time

ROOT = sys.argv[1]
RATE = float(os.environ.get("RANGE_SERVER_MBPS", "0")) * 1e6
seen = {}
sent = [0]  # body bytes of files, for /bytes
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.serve(head=True)

    def do_GET(self):
        self.serve(head=False)

    def serve(self, head):
        path = self.path.split("?", 1)[0]
        m = re.match(r"^/count/([a-z0-9]+)/(\d+)/(.+)$", path)
        if m:
            with lock:
                n = seen.get("/fault/%s/%s/%s" % m.groups(), 0)
            return self.answer(200, str(n).encode(), head)
        if path == "/bytes":
            with lock:
                return self.answer(200, str(sent[0]).encode(), head)
        kind = None
        m = re.match(r"^/fault/([a-z0-9]+)/(\d+)/(.+)$", path)
        if m:
            with lock:
                seen[path] = seen.get(path, 0) + 1
                count = seen[path]
            if m.group(2) == "0" or count <= int(m.group(2)):
                kind = m.group(1)
            path = "/" + m.group(3)
        file = os.path.join(ROOT, path.lstrip("/"))
        if not os.path.isfile(file):
            return self.answer(404, b"not found", head)
        if kind == "drop":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if kind in ("500", "503", "429"):
            return self.answer(int(kind), b"injected", head)
        size = os.path.getsize(file)
        status, start, end = 200, 0, size
        rng = self.headers.get("Range")
        if rng and kind != "norange":
            a, b = re.match(r"bytes=(\d+)-(\d*)", rng).groups()
            start, end = int(a), min(size, int(b) + 1 if b else size)
            status = 206
        with open(file, "rb") as f:  # only the range: benchmarks read large files in blocks
            f.seek(start)
            body = f.read(end - start)
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end - 1, size))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if head:
            return
        with lock:
            sent[0] += len(body)
        if kind == "truncate":
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if kind == "stall":
            self.wfile.flush()
            time.sleep(60)
            return
        if not RATE:
            self.wfile.write(body)
            return
        start_time, chunk = time.monotonic(), 256 << 10
        for at in range(0, len(body), chunk):
            self.wfile.write(body[at : at + chunk])
            ahead = (at + chunk) / RATE - (time.monotonic() - start_time)
            if ahead > 0:
                time.sleep(ahead)

    def answer(self, status, body, head):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)


def serve(port_file, tls=None):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    return server


servers = [serve(sys.argv[2])]
if len(sys.argv) > 5:
    servers.append(serve(sys.argv[5], (sys.argv[3], sys.argv[4])))
for s in servers[1:]:
    threading.Thread(target=s.serve_forever, daemon=True).start()
servers[0].serve_forever()
