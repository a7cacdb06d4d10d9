#!/usr/bin/python3
"""Writes the hostile inputs of hostile_test.sh, standard library only.

Usage: hostile_gen.py KIND [ARGS...] > FILE   (every kind writes to stdout, streaming, so a
1 GB input never sits in this process's memory nor in the repository).
"""
import struct
import sys
import zlib

out = sys.stdout.buffer


# --- TFRecord framing (docs/tfrecord-format.md) ---------------------------------------------------
def _crc32c_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked(data):
    c = crc32c(data)
    return ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def header(length):
    """A record header whose length CRC verifies, so that the length is believed."""
    raw = struct.pack("<Q", length)
    return raw + struct.pack("<I", masked(raw))


def record(payload):
    return header(len(payload)) + payload + struct.pack("<I", masked(payload))


# --- Example wire format (docs/example-format.md) -------------------------------------------------
def varint(v):
    b = bytearray()
    while True:
        if v < 0x80:
            b.append(v)
            return bytes(b)
        b.append((v & 0x7F) | 0x80)
        v >>= 7


def field(number, payload):  # length-delimited
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def example(key, int_values):
    int64_list = field(1, b"".join(varint(v) for v in int_values))  # packed
    feature = field(3, int64_list)
    entry = field(1, key) + field(2, feature)
    return field(1, field(1, entry))


def bytes_example(key, size):
    """An Example holding one bytes feature of `size` zero bytes."""
    feature = field(1, field(1, b"\0" * size))  # bytes_list { value }
    return field(1, field(1, field(1, key) + field(2, feature)))


def gzip_members(plain, members):
    """A gzip file that is `members` copies of one member: cheap to write, huge to read."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    member = c.compress(plain) + c.flush()
    for _ in range(members):
        out.write(member)


def repeat(chunk, total):
    while total > 0:
        out.write(chunk[:total])
        total -= len(chunk)


# --- Kinds ------------------------------------------------------------------------------------------
def tfrecord_length(length):
    """One header claiming `length` bytes, then a few bytes: the claim must not be allocated."""
    out.write(header(int(length)) + b"\0" * 16)


def tfrecord_resync_trap(megabytes, reach="end"):
    """A bad header, then a fake header every 12 bytes whose length verifies and whose data CRC
    fails: a resyncing reader that CRCs each candidate's claimed record does work quadratic in the
    file's size. reach: "end", every record ends exactly at the end of the file; "half", every
    record is half the file long (the first half's), so each ends 12 bytes after the one before
    and a reader's buffer slides."""
    size = int(float(megabytes) * (1 << 20)) // 12 * 12
    out.write(b"\xff" * 12)  # a header whose length CRC fails
    pos = 12
    chunk = []
    while pos + 16 <= size and (reach == "end" or pos + 16 + size // 2 <= size):
        length = size - pos - 16 if reach == "end" else size // 2
        chunk.append(header(length))  # for "end": data up to 4 bytes before the end, then the CRC
        pos += 12
        if len(chunk) == 4096:
            out.write(b"".join(chunk))
            chunk = []
    out.write(b"".join(chunk) + b"\0" * (size - pos))


def example_many_keys(count):
    """`count` records, each an Example with its own feature name: per-name state without a cap
    grows with the file (300,000 names in 11 MB took 1.5 GB in `inspect --stats`)."""
    chunk = []
    for i in range(int(count)):
        chunk.append(record(example(b"key%d" % i, [i])))
        if len(chunk) == 4096:
            out.write(b"".join(chunk))
            chunk = []
    out.write(b"".join(chunk))


def _bomb_records(size, total=64 << 20):
    """`total` bytes of one valid record repeated: Examples of about `size` bytes (one bytes
    feature of zeros), or for `size` under 64 a tiny Example (k: [1]), a record of 30 bytes: the
    slow kind to get through, a record (and a line of output) per 30 bytes."""
    size = int(size)
    rec = record(example(b"k", [1]) if size < 64 else bytes_example(b"k", size - 64))
    return rec * (total // len(rec))


def _bomb_members(gigabytes):
    """(bytes per 64 MiB-at-most chunk, chunks) for `gigabytes` of output."""
    total = int(float(gigabytes) * (1 << 30))
    chunk = min(64 << 20, total)
    return chunk, total // chunk


def tfrecord_gzip_bomb(gigabytes, record_bytes=1 << 20):
    """Valid records, gzip members of 64 MiB each: 400-1000:1, every record verifies."""
    chunk, members = _bomb_members(gigabytes)
    gzip_members(_bomb_records(record_bytes, chunk), members)


def tfrecord_zlib_bomb(gigabytes, record_bytes=1 << 20):
    """One zlib stream (no members to repeat): level 1, fed a 64 MiB chunk at a time."""
    chunk, chunks = _bomb_members(gigabytes)
    data = _bomb_records(record_bytes, chunk)
    c = zlib.compressobj(1, zlib.DEFLATED, 15)
    for _ in range(chunks):
        out.write(c.compress(data))
    out.write(c.flush())


def text_gzip_bomb(first_line, gigabytes, line=""):
    """A header line, then 64 MiB gzip members of one line repeated: blank lines (skipped by the
    readers, so nothing is written), or `line` (a CSV row, a JSON object), a record each."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    out.write(c.compress(first_line.encode() + b"\n") + c.flush())
    unit = line.encode() + b"\n"
    gzip_members(unit * ((64 << 20) // len(unit)), int(float(gigabytes) * 16))


def csv_big_field(size):
    out.write(b"a,b\n1,")
    repeat(b"x" * (1 << 20), int(size))
    out.write(b"\n")


def csv_long_rows(count, size, quoted="plain"):
    """A header, then `count` rows of `size` bytes (newline included): 1,xxx...x, or (quoted)
    1,"x""x""...", whose doubled quotes the parser unescapes into a copy."""
    out.write(b"a,b\n")
    for _ in range(int(count)):
        if quoted == "quoted":
            out.write(b'1,"')
            repeat(b'x""' * (1 << 18), (int(size) - 5) // 3 * 3)
            out.write(b'"\n')
        else:
            out.write(b"1,")
            repeat(b"x" * (1 << 20), int(size) - 3)
            out.write(b"\n")


def csv_many_columns(columns, where):
    row = b"," * (int(columns) - 1) + b"\n"
    if where == "header":
        out.write(b",".join(b"c%d" % i for i in range(int(columns))) + b"\n" + row)
    else:
        out.write(b"a,b\n" + row)


def jsonl_deep(depth):
    out.write(b'{"x":' + b"[" * int(depth) + b"]" * int(depth) + b"}\n")


def jsonl_long_line(size):
    out.write(b'{"x":["')
    repeat(b"y" * (1 << 20), int(size))
    out.write(b'"]}\n')


def jsonl_many_keys(keys, form):
    """One JSON line of `keys` distinct keys: flat, or proto-json's feature map."""
    members = b",".join(b'"k%d":' % i + (b"[%d]" % i if form == "flat" else b'{"int64List":{"value":["%d"]}}' % i)
                        for i in range(int(keys)))
    out.write(b"{" + members + b"}\n" if form == "flat" else b'{"features":{"feature":{' + members + b"}}}\n")


def jsonl_many_values(count, value, head='{"x":[', tail="]}"):
    """One JSON line holding one list of `count` copies of `value` (e.g. "" or 0) between `head`
    and `tail`: a flat list by default, or any form's list (a proto-json value list, steps)."""
    out.write(head.encode())
    value = value.encode()
    repeat((value + b",") * 65536, (int(count) - 1) * (len(value) + 1))
    out.write(value + tail.encode() + b"\n")


def records_distinct_keys(records, keys_per_record):
    """TFRecords of Examples whose keys are all distinct: a wide union of columns."""
    n = int(keys_per_record)
    for r in range(int(records)):
        entries = b"".join(field(1, field(1, b"k%d" % (r * n + i)) + field(2, field(3, field(1, b"\x01"))))
                           for i in range(n))
        out.write(record(field(1, entries)))


def example_records(kind):
    """Example payloads whose declared lengths lie, framed as valid TFRecords."""
    good = example(b"k", [1, 2, 3])
    if kind == "huge-length":  # a length varint of 2^63 where 4 bytes remain
        payloads = [b"\x0a" + varint(1 << 63) + b"abcd"]
    elif kind == "overlong-varint":  # eleven continuation bytes
        payloads = [b"\x0a" + b"\xff" * 11 + b"\x01"]
    elif kind == "nested-length":  # the inner Features claims more than its parent holds
        inner = field(1, b"\x0a" + varint(1 << 40) + b"xy")
        payloads = [field(1, inner)]
    elif kind == "utf8-collision":  # keys a\xff and a\xfe: both print as "a\ufffd" in JSON
        entries = b"".join(field(1, field(1, key) + field(2, field(3, field(1, b"\x01"))))
                           for key in (b"a\xff", b"a\xfe"))
        payloads = [field(1, entries)]
    elif kind == "deep":  # 100,000 nested length-delimited submessages under an unknown field
        lengths = [0]  # built from the inside out without quadratic copying
        for _ in range(100000):
            lengths.append(1 + len(varint(lengths[-1])) + lengths[-1])
        tag = varint(15 << 3 | 2)
        payloads = [b"".join(tag + varint(n) for n in reversed(lengths[:-1])) + good]
    else:
        raise SystemExit("unknown example kind " + kind)
    for p in [good] + payloads:
        out.write(record(p))


# --- Images -----------------------------------------------------------------------------------------
def _segment(marker, body):
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body


def _jpeg_tables():
    dqt = _segment(0xDB, b"\x00" + b"\x01" * 64)
    # One-symbol Huffman tables: DC table 0 codes category 0 as "0"; AC table 0 codes EOB as "0".
    counts = b"\x01" + b"\x00" * 15
    dht = _segment(0xC4, b"\x00" + counts + b"\x00" + b"\x10" + counts + b"\x00")
    return dqt + dht


def jpeg_huge(width, height):
    """A baseline header declaring width x height, and one scan of nothing."""
    sof = _segment(0xC0, struct.pack(">BHHB", 8, int(height), int(width), 1) + b"\x01\x11\x00")
    sos = _segment(0xDA, b"\x01\x01\x00\x00\x3f\x00")
    out.write(b"\xff\xd8" + _jpeg_tables() + sof + sos + b"\x7f" * 64 + b"\xff\xd9")


def jpeg_scans(scans):
    """An 8x8 progressive JPEG with one DC scan and then `scans` - 1 AC scans."""
    sof = _segment(0xC2, struct.pack(">BHHB", 8, 8, 8, 1) + b"\x01\x11\x00")
    parts = [b"\xff\xd8", _jpeg_tables(), sof]
    parts.append(_segment(0xDA, b"\x01\x01\x00\x00\x00\x00") + b"\x7f")  # DC first: diff 0
    ac = _segment(0xDA, b"\x01\x01\x00\x01\x3f\x00") + b"\x7f"  # AC first: EOB
    parts.append(ac * (int(scans) - 1))
    parts.append(b"\xff\xd9")
    out.write(b"".join(parts))


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, mode):
    """Gray 8-bit PNG. mode: header (a declared size, one row of data), full (every row, zeros:
    a decompression bomb at large sizes), truncated (cut inside IDAT)."""
    w, h = int(width), int(height)
    ihdr = _png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
    parts = [b"\x89PNG\r\n\x1a\n", ihdr]
    if mode == "header":
        parts.append(_png_chunk(b"IDAT", zlib.compress(b"\0" * 65)) + _png_chunk(b"IEND", b""))
    else:
        c = zlib.compressobj(9)
        row = b"\0" * (w + 1)
        data = b"".join(c.compress(row) for _ in range(h)) + c.flush()
        if mode == "truncated":
            data = data[: len(data) // 2]
        parts.append(_png_chunk(b"IDAT", data))
        if mode != "truncated":
            parts.append(_png_chunk(b"IEND", b""))
    out.write(b"".join(parts))


KINDS = {
    "tfrecord-length": tfrecord_length,
    "tfrecord-resync-trap": tfrecord_resync_trap,
    "tfrecord-gzip-bomb": tfrecord_gzip_bomb,
    "tfrecord-zlib-bomb": tfrecord_zlib_bomb,
    "text-gzip-bomb": text_gzip_bomb,
    "csv-big-field": csv_big_field,
    "csv-long-rows": csv_long_rows,
    "csv-many-columns": csv_many_columns,
    "jsonl-deep": jsonl_deep,
    "jsonl-long-line": jsonl_long_line,
    "jsonl-many-keys": jsonl_many_keys,
    "jsonl-many-values": jsonl_many_values,
    "records-distinct-keys": records_distinct_keys,
    "example": example_records,
    "example-many-keys": example_many_keys,
    "jpeg-huge": jpeg_huge,
    "jpeg-scans": jpeg_scans,
    "png": png,
}

if __name__ == "__main__":
    try:
        KINDS[sys.argv[1]](*sys.argv[2:])
        out.flush()
    except BrokenPipeError:  # the reader stopped early (it refused the input): that is the point
        sys.stderr.close()
