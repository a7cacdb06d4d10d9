// Deflater: one deflate encoder behind one interface, and the rule that picks one per output.
//
// zlib (deflater_zlib.cc) writes with TensorFlow's ZlibCompressionOptions (window 15 bits, memLevel
// 9, default strategy). ISA-L's igzip at level 1 (deflater_isal.cc) writes 4-10x faster; its output
// is about as small as zlib level 6's on numeric tf.Examples and images, but 10-15% larger on text
// (docs/benchmarks.md). So NewDeflater's default is a choice made per output from its first
// kChoiceSample bytes: ISA-L when its output of those bytes is at most 5% larger than zlib 6's,
// else zlib 6. The choice depends only on the bytes, never on how they were split into calls or on
// thread counts, and neither encoder's output does either: an output's bytes are a function of its
// contents (and of whether tfq was built with ISA-L).
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

class Deflater {
 public:
  virtual ~Deflater() = default;
  // Compresses `in`, appending what is ready to *out; with `finish`, ends the stream (trailer
  // included) and the deflater may not be used again. Errors are kInternal (a library failure).
  virtual Status Deflate(std::string_view in, bool finish, std::string* out) = 0;
  // zlib only: the bytes output so far plus what finishing the stream now would add, without
  // finishing it (a copy of the state is finished). 0 where unknown.
  virtual size_t SizeIfFinishedNow() const { return 0; }
};

inline constexpr size_t kChoiceSample = size_t{1} << 20;
inline constexpr double kMaxSizeRatio = 1.05;  // ISA-L's output / zlib 6's, on the sample
inline constexpr int kDefaultZlibLevel = 6;

// `level` -1 (default): the choice above, made where ISA-L is built in (else zlib 6); 0-9: zlib at
// that level. Anything else is kInvalidArgument. `wrapper` is kGzip or kZlib.
Result<std::unique_ptr<Deflater>> NewDeflater(DeflateWrapper wrapper, int level = -1);

// Each encoder on its own, for tests and `tfq bench`.
std::unique_ptr<Deflater> NewZlibDeflater(DeflateWrapper wrapper, int level);  // null: bad level
std::unique_ptr<Deflater> NewIsalDeflater(DeflateWrapper wrapper);  // null without ISA-L

}  // namespace tfq

#endif  // TFQ_IO_DEFLATER_H_
