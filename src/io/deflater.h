// Deflater: one deflate encoder of blocks behind one interface, and the rule that picks one per
// output.
//
// A compressing stream (gzip_output.cc) cuts its data into blocks of kDeflateBlock bytes and
// compresses each on its own, primed with the 32 KiB before it (so matches still reach across
// the cut) and ended on a byte boundary: the blocks can be compressed on several threads at once
// (deflate_pool.h) and their outputs concatenated into one deflate stream, as pigz does. The cuts
// cost about 0.1% in size against one unbroken zlib stream, and every kDeflateIndependentEvery-th
// block, compressed without the bytes before it, about 0.1% more.
//
// zlib (deflater_zlib.cc) encodes with TensorFlow's ZlibCompressionOptions (window 15 bits,
// memLevel 9, default strategy). ISA-L's igzip at level 1 (deflater_isal.cc) is 4-10x faster;
// its output is about as small as zlib level 6's on numeric tf.Examples and images, but 10-15%
// larger on text (docs/benchmarks.md). So the default is chosen per output from its first
// kChoiceSample bytes: ISA-L when its output of those bytes is at most 5% larger than zlib 6's,
// else zlib 6. The choice depends only on the bytes, and so does every block's encoding: an
// output's bytes are a function of its contents (and of whether tfq was built with ISA-L), never
// of how they were split into writes or of thread counts.
//
// Thread safety: a Deflater is used by one thread at a time.
#ifndef TFQ_IO_DEFLATER_H_
#define TFQ_IO_DEFLATER_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/inflater.h"

namespace tfq {

inline constexpr size_t kDeflateBlock = size_t{256} << 10;
inline constexpr size_t kDeflateWindow = size_t{32} << 10;  // what a block may refer back to
// Every this many blocks one is compressed without the bytes before it: a place where reading
// can start with nothing before it (io/blocked_gzip.h), every 4 MiB, for 0.1% of size.
inline constexpr size_t kDeflateIndependentEvery = 16;

class Deflater {
 public:
  virtual ~Deflater() = default;
  // Appends to *out the raw deflate data (no header or trailer) of `block`, whose matches may
  // reach back into `dictionary` (up to kDeflateWindow bytes of the stream just before the
  // block; empty for the first). It ends on a byte boundary with an empty stored block, ready
  // for the next block's data, or with `last`, ends the deflate stream. Errors are kInternal (a
  // library failure).
  virtual Status DeflateBlock(std::string_view dictionary, std::string_view block, bool last,
                              std::string* out) = 0;
};

inline constexpr size_t kChoiceSample = size_t{1} << 20;
inline constexpr double kMaxSizeRatio = 1.05;  // ISA-L's output / zlib 6's, on the sample
inline constexpr int kDefaultZlibLevel = 6;

// Which encoder compresses an output: ISA-L, or zlib at a level.
struct DeflateEngine {
  bool isal = false;
  int zlib_level = kDefaultZlibLevel;
  bool operator==(const DeflateEngine&) const = default;
};

// A compressing stream's `level`: -1 (default) is the choice above where ISA-L is built in (else
// zlib 6), made from the first kChoiceSample bytes of the output (or all of it, when shorter);
// 0-9 is zlib at that level. ChooseDeflateEngine makes the choice from `sample`.
bool ValidDeflateLevel(int level);
bool DeflateLevelNeedsSample(int level);  // the default, with ISA-L built in
Result<DeflateEngine> ChooseDeflateEngine(int level, std::string_view sample);

// An encoder of `engine`; kResourceExhausted when zlib cannot start (out of memory).
Result<std::unique_ptr<Deflater>> NewDeflater(const DeflateEngine& engine);

// Each encoder on its own, for tests and `tfq bench`.
std::unique_ptr<Deflater> NewZlibDeflater(int level);  // null: bad level, or out of memory
std::unique_ptr<Deflater> NewIsalDeflater();           // null without ISA-L

}  // namespace tfq

#endif  // TFQ_IO_DEFLATER_H_
