// Whole-stream compression of TFRecord files, as TensorFlow's TFRecordOptions writes it.
//
// TensorFlow compresses the entire record stream (not each record): "GZIP" is a gzip stream
// (RFC 1952, possibly several members), "ZLIB" a zlib stream (RFC 1950). See docs/tfrecord-format.md.
#ifndef TFQ_IO_COMPRESSION_H_
#define TFQ_IO_COMPRESSION_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/decompression_limit.h"
#include "io/input_stream.h"
#include "io/output_stream.h"

namespace tfq {

class DeflatePool;  // io/deflate_pool.h

enum class Compression { kAuto, kNone, kGzip, kZlib };

// "auto", "none", "gzip", "zlib" (case-insensitive; "" counts as none, as in TensorFlow).
Result<Compression> ParseCompression(std::string_view name);
std::string_view CompressionName(Compression c);  // "none", "gzip", "zlib", "auto"

// What the first bytes of a stream look like: kGzip for the gzip magic 1f 8b, kZlib for a valid
// zlib header (CMF/FLG check, deflate method), kNone otherwise. Callers that know a better test
// for "uncompressed" (a TFRecord header whose length CRC verifies) apply it first.
Compression SniffCompression(std::string_view first_bytes);

// What the first bytes of a file look like, for messages about a compression or format mismatch:
// "gzip data (read it with -c gzip or -c auto)", "zlib data (...)", "bzip2 data, which tfq does
// not read (decompress it first)", "a JPEG image", "text (a CSV or JSON lines file? ...)", ...
// and, for anything else, "uncompressed binary data (a plain TFRecord file? read it with -c none
// or -c auto)". Needs a few bytes (16 are plenty); an empty view is "an empty file".
std::string DescribeLeadingBytes(std::string_view first_bytes);

// The compression a file name asks for when writing: ".gz"/".gzip" -> gzip, ".zz"/".zlib" -> zlib,
// anything else -> none. Extensions match case-insensitively (".GZ" too).
Compression CompressionFromExtension(std::string_view path);

// Wraps `compressed` in a decompressing stream (`c` must be kGzip or kZlib). Multi-member gzip is
// read whole. A stream that ends before its trailer (truncation) is a kCorruption error naming the
// compressed byte offset, not a clean end. Output beyond `limit` (io/decompression_limit.h; a
// plain number is a total, 0 = no limit) is a kResourceExhausted error naming the limit and the
// --max-decompressed flag: the defence against decompression bombs.
//
// Details: an empty input is an empty stream (as TensorFlow reads it). Bad data is kCorruption
// "PATH: corrupt gzip data at compressed byte N: <zlib's message>", N being how far inflate had
// read when it noticed (io/inflater.h: ISA-L decodes where built in, with zlib's messages). Bytes after the end of a zlib stream, or after a gzip member that do not
// start another member, are kCorruption too. name() is the source's name. kNone returns
// `compressed` itself; kAuto is a caller bug, reported as kInternal by the first read.
std::unique_ptr<InputStream> NewDecompressingStream(std::unique_ptr<InputStream> compressed,
                                                    Compression c,
                                                    const DecompressionLimit& limit = {});

// Wraps `sink` in a compressing stream (`c` must be kGzip or kZlib). Close() finishes the
// compressed stream and then closes `sink`.
//
// Details: the data is cut into blocks and compressed as one deflate stream (io/deflater.h), by
// the threads of `pool` while the caller goes on writing (the pool outlives the stream), or by
// the calling thread with no pool. With the default `level` (-1) the encoder is ISA-L where tfq
// was built with it and its output of the first MiB is at most 5% larger than zlib 6's, else
// zlib 6 with TensorFlow's ZlibCompressionOptions (window 15 bits, memLevel 9, default strategy;
// the gzip header has no name and mtime 0); levels 0-9 are zlib's. Either way the bytes depend
// only on the data, not on how it was split into Writes or on the pool. A `level` outside -1..9
// is kInvalidArgument from the first Write or Close. Destroying the stream without Close()
// abandons `sink` unclosed (a file sink then deletes its temporary). kNone returns `sink`
// itself; kAuto is reported as kInternal.
std::unique_ptr<OutputStream> NewCompressingStream(std::unique_ptr<OutputStream> sink,
                                                   Compression c, int level = -1,
                                                   DeflatePool* pool = nullptr);

}  // namespace tfq

#endif  // TFQ_IO_COMPRESSION_H_
