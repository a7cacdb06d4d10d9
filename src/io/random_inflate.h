// Reading a gzip or zlib file's uncompressed bytes at any offset, through its access points
// (io/access_points.h): start at the last point at or before the offset, inflate forward to it.
// Starting at a point is raw inflate primed with the point's bits and given its window, which both
// inflaters do (io/inflater.h), so this reads with the fastest one.
//
// Thread safety: a PointInflater is used by one thread at a time; any number of them may share
// one file and one index, which they only read.
#ifndef TFQ_IO_RANDOM_INFLATE_H_
#define TFQ_IO_RANDOM_INFLATE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/access_points.h"
#include "io/inflater.h"
#include "io/random_access_file.h"

namespace tfq {

class PointInflater {
 public:
  // `file` and `index` must outlive the inflater; `index` must describe `file`.
  PointInflater(const RandomAccessFile& file, const AccessPointIndex& index);
  PointInflater(const PointInflater&) = delete;
  PointInflater& operator=(const PointInflater&) = delete;

  // Sets *out to the `n` uncompressed bytes at `offset`, fewer only at the end of the stream.
  // Continues from where the last call ended when that is at or before `offset` and no access
  // point lies in between (a forward pass over sorted offsets inflates each byte once); else
  // starts again at the last point at or before `offset`. Errors (kCorruption) name the file and
  // the compressed byte; a stream that ends before its trailer is reported as truncated.
  Status Read(uint64_t offset, size_t n, std::string* out);

  // Uncompressed bytes inflated so far, including those passed over to reach an offset.
  uint64_t bytes_inflated() const { return bytes_inflated_; }

 private:
  Status Start(const AccessPoint& point);
  // Inflates up to `n` bytes into `dst` and sets *made: fewer only at the end of the stream.
  Status Inflate(char* dst, size_t n, size_t* made);
  // Makes input available; false at the end of the file.
  Status FillInput(bool* got);
  // Steps over the member trailer after a raw-started member ends (8 bytes gzip, 4 zlib).
  Status SkipTrailer();
  Status Corrupt(const std::string& what) const;
  uint64_t CompressedOffset() const { return in_end_ - Available().size(); }
  std::string_view Available() const { return std::string_view(in_).substr(in_used_, in_size_ - in_used_); }

  const RandomAccessFile& file_;
  const AccessPointIndex& index_;
  const bool gzip_;
  const std::unique_ptr<Inflater> inflater_;
  bool started_ = false;
  bool raw_ = false;    // the current member was entered at a point: its trailer is not parsed
  bool ended_ = false;  // the stream's end was reached
  std::string in_;      // compressed bytes read from the file
  size_t in_size_ = 0;  // how many of in_ hold bytes read
  size_t in_used_ = 0;  // how many of those the inflater has consumed
  uint64_t in_end_ = 0;  // file offset just past the bytes in in_
  uint64_t out_ = 0;     // uncompressed offset of the next byte inflate produces
  uint64_t bytes_inflated_ = 0;
  std::string discard_;  // output passed over on the way to an offset
};

}  // namespace tfq

#endif  // TFQ_IO_RANDOM_INFLATE_H_
