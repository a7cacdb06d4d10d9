"""Threads: the GIL is released while waiting, Ctrl-C stops an iteration promptly, and no thread
outlives its iterator."""

import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import tfq
from conftest import write_examples

ID = {"id": tfq.FixedLen("int64")}


def native_threads():
    return len(os.listdir("/proc/self/task"))


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.tfrecord"
    os.mkfifo(path)
    return str(path)


def test_gil_is_released_while_waiting(tmp_path, fifo):
    """The records arrive through a FIFO from a Python thread: if waiting for a batch held the GIL,
    that thread could never write them."""
    source = write_examples(tmp_path / "src.tfrecord", [{"id": i} for i in range(20)])
    data = open(source, "rb").read()

    def feed():
        with open(fifo, "wb") as f:
            for k in range(0, len(data), 16):
                f.write(data[k:k + 16])
                f.flush()
                time.sleep(0.005)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    ids = np.concatenate([b["id"] for b in tfq.Dataset(fifo, batch_size=8, features=ID)])
    feeder.join(timeout=10)
    assert ids.tolist() == list(range(20))


def test_no_thread_outlives_its_iterator(tmp_path):
    path = write_examples(tmp_path / "a.tfrecord", [{"id": i} for i in range(1000)])
    before = native_threads()
    it = iter(tfq.Dataset(path, batch_size=10, epochs=None, num_threads=3, features=ID))
    next(it)
    assert native_threads() > before  # reader, feeder, parse and hand-off threads
    del it  # dropped mid-stream
    # At most as many as before: a thread of an earlier test (the FIFO feeder) may end meanwhile.
    assert native_threads() <= before
    it = iter(tfq.Dataset(path, batch_size=10, features=ID))
    for _ in it:
        pass
    assert native_threads() <= before  # ended
    it = iter(tfq.Dataset(path, batch_size=10, epochs=None, features=ID))
    next(it)
    it.close()
    assert native_threads() <= before  # closed


CTRL_C = textwrap.dedent("""
    import os, signal, sys, threading, time
    import tfq
    path, data_path = sys.argv[1], sys.argv[2]
    # Python leaves SIGINT ignored when it starts with it ignored, as every command run in the
    # background by a non-interactive shell does (a CI runner's `cmd &`): Ctrl-C as a terminal sends it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    data = open(data_path, "rb").read()
    def feed():  # one record every 0.1 s: a batch of 1000 never fills
        try:
            with open(path, "wb") as f:
                for k in range(0, len(data), 19):
                    f.write(data[k:k + 19]); f.flush(); time.sleep(0.1)
        except BrokenPipeError:
            pass
    threading.Thread(target=feed, daemon=True).start()
    def interrupt():
        time.sleep(1.0)
        global sent
        sent = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=interrupt, daemon=True).start()
    threads = len(os.listdir("/proc/self/task"))
    # file_buffer_records=1: a reader thread reads a burst of that many records before it looks
    # at a stop request, and from this pipe a record takes 0.1 s.
    try:
        for batch in tfq.Dataset(path, batch_size=1000, file_buffer_records=1,
                                 features={"id": tfq.FixedLen("int64")}):
            print("unexpected batch", flush=True)
    except KeyboardInterrupt:
        print("interrupted after %.2f s" % (time.monotonic() - sent), flush=True)
        print("threads left", len(os.listdir("/proc/self/task")) - threads, flush=True)
""")


def test_ctrl_c_stops_an_iteration_promptly(tmp_path, fifo):
    source = write_examples(tmp_path / "src.tfrecord", [{"id": i} for i in range(200)])
    run = subprocess.run([sys.executable, "-c", CTRL_C, fifo, source], capture_output=True, text=True,
                         timeout=60)
    lines = run.stdout.splitlines()
    assert run.returncode == 0, run.stderr
    assert lines[0].startswith("interrupted after "), run.stdout
    assert float(lines[0].split()[2]) < 1.0
    # The feeder thread (Python's, not the pipeline's) may still be alive; no pipeline thread is.
    assert int(lines[1].split()[2]) <= 1


def test_close_from_another_thread_ends_a_waiting_iteration(tmp_path, fifo):
    source = write_examples(tmp_path / "src.tfrecord", [{"id": i} for i in range(200)])
    data = open(source, "rb").read()

    def feed():  # slower than a batch of 1000 can fill
        try:
            with open(fifo, "wb") as f:
                for k in range(0, len(data), 19):
                    f.write(data[k:k + 19])
                    f.flush()
                    time.sleep(0.05)
        except BrokenPipeError:
            pass

    threading.Thread(target=feed, daemon=True).start()
    it = iter(tfq.Dataset(fifo, batch_size=1000, file_buffer_records=1, features=ID))
    closer = threading.Timer(0.5, it.close)
    closer.start()
    started = time.monotonic()
    assert list(it) == []  # ended, without an error
    assert time.monotonic() - started < 5
    closer.join()
    assert it.closed
