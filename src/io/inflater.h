// Inflater: one deflate decoder behind one interface, so that the streaming reader (gzip_input.cc)
// and random access (random_inflate.cc) do not care which library decodes.
//
// Two implementations, each in its own file: ISA-L's igzip (inflater_isal.cc, 2-3x zlib's speed),
// used wherever tfq was built with it, and zlib (inflater_zlib.cc). zlib stays where ISA-L cannot
// do the job: only zlib can stop at every deflate block boundary and hand out the window there,
// which noting access points needs (io/access_points.h), so NewInflater(kBlockBoundaries) is
// always zlib. Both parse gzip headers (with names, comments, extra fields and header CRCs), zlib
// headers, raw deflate primed with bits and a preset window, and verify the trailers.
//
// Thread safety: an Inflater is used by one thread at a time.
#ifndef TFQ_IO_INFLATER_H_
#define TFQ_IO_INFLATER_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace tfq {

enum class DeflateWrapper { kGzip, kZlib, kRaw };  // RFC 1952, RFC 1950, bare RFC 1951

class Inflater {
 public:
  enum class Outcome {
    kOk,           // progress made, or more input or output room needed: call again
    kEnd,          // the stream (one gzip member) and its trailer are complete
    kNeedsWindow,  // a zlib stream that asks for a preset dictionary (TFRecord files never do)
    kBadData,      // corrupt: error() says how
    kNoMemory,
  };
  struct Step {
    size_t consumed = 0;  // input bytes taken (including any `overread`)
    size_t produced = 0;
    Outcome outcome = Outcome::kOk;
    // After kEnd: how many of the bytes taken (in this step or earlier ones) lie past the end of
    // the stream. ISA-L reads 8 bytes at a time and keeps what follows a zlib trailer or the end
    // of raw deflate data; zlib, and ISA-L after a gzip trailer, take nothing past the end (0).
    size_t overread = 0;
  };

  virtual ~Inflater() = default;

  // Starts a new stream (or the next gzip member). False when out of memory.
  virtual bool Reset(DeflateWrapper wrapper) = 0;
  // kRaw only, right after Reset: the stream starts with the `bits` (1-7) low bits of `value`.
  virtual void Prime(int bits, int value) = 0;
  // kRaw only, after Reset (and Prime): the up to 32 KiB of output that precede the stream.
  virtual void SetWindow(std::string_view window) = 0;

  // Inflates from `in` into out[0, out_size). Any step with non-empty `in` and room in `out`
  // either consumes or produces something, or returns an outcome other than kOk.
  virtual Step Inflate(std::string_view in, char* out, size_t out_size) = 0;

  // What the last kBadData was, in zlib's words where zlib has some ("incorrect header check",
  // "invalid distance too far back", "incorrect data check", ...) so messages do not depend on
  // which library decoded.
  virtual std::string error() const = 0;

  // Block boundaries: only for an inflater made with InflaterUse::kBlockBoundaries, which returns
  // from Inflate at the end of every deflate block. True when the last step ended on a block
  // boundary that is not inside the last block; *bits is then how many bits of the last input
  // byte consumed belong to the next block (0-7).
  virtual bool AtBlockBoundary(int* bits) const = 0;
  // The up to 32 KiB of output before the current position (its window), at a block boundary.
  virtual std::string Window() const = 0;
};

enum class InflaterUse {
  kFastest,         // ISA-L where built in, else zlib
  kBlockBoundaries  // zlib: stops at block boundaries (for access points)
};

// Never null.
std::unique_ptr<Inflater> NewInflater(InflaterUse use = InflaterUse::kFastest);

// Each implementation on its own, for tests that run one table of cases against every one.
std::unique_ptr<Inflater> NewZlibInflater(bool stop_at_blocks);
std::unique_ptr<Inflater> NewIsalInflater();  // null where tfq was built without ISA-L

// ISA-L's version ("2.30.0"), or "" where tfq was built without it.
std::string IsalVersion();

// The gzip CRC-32 (zlib's crc32) of p[0, n) continued from `crc`: ISA-L's where tfq was built
// with it (several times zlib's speed), else zlib's.
uint32_t GzipCrc32(uint32_t crc, const char* p, size_t n);
uint32_t IsalGzipCrc32(uint32_t crc, const char* p, size_t n);  // 0 where built without ISA-L

// The library NewInflater() uses and its version, for --version and `tfq bench`:
// "isa-l 2.30.0" or "zlib 1.2.13".
std::string InflateLibrary();

}  // namespace tfq

#endif  // TFQ_IO_INFLATER_H_
