// How far a gzip/zlib input may expand: the defence against decompression bombs.
//
// Every reader in tfq streams, so a bomb cannot exhaust memory (buffers are bounded by the record,
// row and line caps); what it costs is time and, for conversions, output written. Deflate expands
// at most 1032:1, so a 10 MB bomb is 10 GB of work. Real data compresses far less: text and
// numbers 2-20:1, images about 1:1; only long runs of one value (zero padding) approach 1000:1.
//
// The default policy is therefore a ratio with a small free allowance (kDefault below): an input
// may expand to any size up to 16 MiB, and beyond that only while its output stays within 100
// times the compressed bytes read so far. A genuine 50 GB dataset at 5:1 is read whole; a bomb
// stops after about 16 MiB of output. The allowance is small because the output is parsed as it
// comes: a gigabyte of tiny CSV rows or JSON lines took a converter 100 s to get through (the old
// 1 GiB allowance), 16 MiB takes it about a second. It exists at all for small files that compress
// unusually well (a few MB of mostly empty fields), where 100x over the first compressed kilobytes
// says little. Real datasets stay far below 100x from their first bytes on: the TFRecord, CSV
// and JSON lines files of the test corpus expand at most 37x at any point of the stream
// (docs/limits.md). The same precedent: Apache POI refuses zip entries expanding more than 100:1.
// A total instead (`max_bytes`) suits callers that know their inputs.
#ifndef TFQ_IO_DECOMPRESSION_LIMIT_H_
#define TFQ_IO_DECOMPRESSION_LIMIT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tfq {

struct DecompressionLimit {
  static constexpr uint64_t kDefaultRatio = 100;
  static constexpr uint64_t kDefaultFloor = uint64_t{16} << 20;

  uint64_t max_bytes = 0;    // output per stream; 0 = no total limit
  uint64_t max_ratio = 0;    // output / compressed input; 0 = no ratio limit
  uint64_t ratio_floor = kDefaultFloor;  // output below this is never refused by the ratio

  DecompressionLimit() = default;
  // A total only (0 = no limit at all): what the older `max_output_bytes` arguments meant.
  DecompressionLimit(uint64_t total) : max_bytes(total) {}  // NOLINT: implicit on purpose

  static DecompressionLimit Default() {
    DecompressionLimit l;
    l.max_ratio = kDefaultRatio;
    return l;
  }
  static DecompressionLimit None() { return DecompressionLimit(); }

  bool unlimited() const { return max_bytes == 0 && max_ratio == 0; }
  // The first limit `output` bytes from `input` compressed bytes break, as text for an error
  // message ("more than 100 times its compressed size"), or "" when within the limits.
  std::string Exceeded(uint64_t output, uint64_t input) const;
  // "100x", "20GiB" or "none": the flag's syntax, for messages and --help.
  std::string ToString() const;
};

// The --max-decompressed syntax: "100x" (a ratio, with the 16 MiB floor), a size ("20GiB",
// "500MB", "4096"), or "none". Errors are kInvalidArgument.
Result<DecompressionLimit> ParseDecompressionLimit(std::string_view text);

}  // namespace tfq

#endif  // TFQ_IO_DECOMPRESSION_LIMIT_H_
