"""s3:// URLs through the same I/O layer as the tfq command: written with Writer, counted,
read back record by record and through a glob. Against s3rver on 127.0.0.1 (started here, as
tests/e2e/object_store_test.sh starts it); skips without node or s3rver
(scripts/install-deps.sh --test installs s3rver into build/npm; TFQ_S3RVER names another)."""

import os
import shutil
import socket
import subprocess
import time

import pytest

import tfq

from conftest import REPO


def s3rver_path():
    for candidate in (os.environ.get("TFQ_S3RVER"), os.path.join(REPO, "build/npm/node_modules/.bin/s3rver"),
                      shutil.which("s3rver")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="module")
def s3_endpoint(tmp_path_factory, monkeypatch_module):
    s3rver = s3rver_path()
    if not shutil.which("node") or not s3rver:
        pytest.skip("node or s3rver is missing (scripts/install-deps.sh --test installs them)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tmp_path_factory.mktemp("s3data")
    log = open(data / "s3rver.log", "w+")
    server = subprocess.Popen([s3rver, "-d", str(data), "-a", "127.0.0.1", "-p", str(port),
                               "--no-vhost-buckets", "--configure-bucket", "bkt"], stdout=log, stderr=log)
    try:
        for _ in range(100):
            log.seek(0)
            if "listening" in log.read():
                break
            time.sleep(0.1)
        else:
            pytest.fail("s3rver did not start")
        endpoint = f"http://127.0.0.1:{port}"
        # Read once per process by the native layer: set before the first s3:// URL is opened.
        for k, v in {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "S3RVER",
                     "AWS_SECRET_ACCESS_KEY": "S3RVER", "AWS_REGION": "us-east-1"}.items():
            monkeypatch_module.setenv(k, v)
        yield endpoint
    finally:
        server.terminate()
        server.wait()
        log.close()


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_s3_write_count_and_read(s3_endpoint, tmp_path):
    rows = [{"id": i, "text": b"row %d" % i} for i in range(50)]
    for name in ("s3://bkt/py/a.tfrecord", str(tmp_path / "a.tfrecord")):
        with tfq.Writer(name) as w:
            for row in rows:
                w.write(row)
    assert tfq.count("s3://bkt/py/a.tfrecord") == 50
    assert tfq.count("s3://bkt/py/*.tfrecord") == 50
    remote, local = tfq.RecordFile("s3://bkt/py/a.tfrecord"), tfq.RecordFile(str(tmp_path / "a.tfrecord"))
    assert len(remote) == 50
    assert list(remote) == list(local)
    with pytest.raises(tfq.Error, match="s3://bkt/py/missing.tfrecord: no such object"):
        tfq.count("s3://bkt/py/missing.tfrecord")
