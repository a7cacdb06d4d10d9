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

// What an inflater learns, while inflating, for checking a gzip member's or a zlib stream's
// trailer without one reader inflating all of it: the CRC-32 (gzip) or Adler-32 (zlib) of a range
// of the uncompressed stream (parts read by different readers combine with zlib's crc32_combine
// or adler32_combine) and the member ends it met.
struct TrailerSum {
  uint64_t begin = 0;   // the range summed: [begin, end)
  uint64_t end = 0;
  uint32_t crc = 0;     // CRC-32 (gzip) or Adler-32 (zlib) of the bytes of the range inflated so far
  uint64_t summed = 0;  // how many; the range is complete when summed == end - begin
  // Member ends met (at their uncompressed offsets), and the trailer of the last one met after a
  // raw start (a member entered at an access point, whose trailer nothing else checks).
  uint64_t member_ends = 0;
  uint64_t last_member_end = 0;
  bool trailer_read = false;
  uint32_t trailer_crc = 0;   // the trailer's CRC-32, or a zlib stream's Adler-32
  uint32_t trailer_size = 0;  // gzip's ISIZE: the member's length mod 2^32
  bool complete() const { return summed == end - begin; }
};

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

  // The same into dst[0, n), setting *got.
  Status Read(uint64_t offset, char* dst, size_t n, size_t* got);

  // Sums the bytes of [begin, end) as they are inflated, and notes the member ends (sum()). For
  // a reader that then reads forward from `begin`.
  void SumRange(uint64_t begin, uint64_t end);
  const TrailerSum& sum() const { return sum_; }

  // Uncompressed bytes inflated so far, including those passed over to reach an offset.
  uint64_t bytes_inflated() const { return bytes_inflated_; }
  // The compressed offset of the next byte to inflate: the compressed bytes read so far.
  uint64_t compressed_offset() const { return CompressedOffset(); }

 private:
  Status Start(const AccessPoint& point);
  // Inflates up to `n` bytes into `dst` and sets *made: fewer only at the end of the stream.
  Status Inflate(char* dst, size_t n, size_t* made);
  // Makes input available; false at the end of the file.
  Status FillInput(bool* got);
  // Steps over the member trailer after a raw-started member ends (8 bytes gzip, 4 zlib), keeping
  // its checksum (and gzip's ISIZE) in sum_.
  Status SkipTrailer();
  // Adds the `n` bytes just inflated at uncompressed offset `at` to the sum.
  void Sum(const char* bytes, uint64_t at, size_t n);
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
  bool summing_ = false;
  TrailerSum sum_;
};

// The uncompressed bytes of `file` through `index` (which must describe it) as a stream from
// offset 0: Skip jumps without inflating what it steps over (the next read starts at the last
// access point before it), so that readers of different stretches of one compressed file each
// start near their own. source_bytes_read() is the compressed offset reached.
class PointInflatingStream final : public InputStream {
 public:
  PointInflatingStream(std::shared_ptr<const RandomAccessFile> file, std::shared_ptr<const AccessPointIndex> index);
  ~PointInflatingStream() override;

  Status Peek(size_t min_bytes, std::string_view* available) override { return buffered_->Peek(min_bytes, available); }
  void Consume(size_t n) override { buffered_->Consume(n); }
  Status Skip(uint64_t n, uint64_t* skipped) override { return buffered_->Skip(n, skipped); }
  uint64_t position() const override { return buffered_->position(); }
  const std::string& name() const override { return buffered_->name(); }
  std::shared_ptr<const void> PinBuffer() const override { return buffered_->PinBuffer(); }
  uint64_t source_bytes_read() const override { return inflater_->compressed_offset(); }

  // PointInflater::SumRange, before the first read.
  void SumRange(uint64_t begin, uint64_t end) { inflater_->SumRange(begin, end); }
  const TrailerSum& sum() const { return inflater_->sum(); }
  // Inflates on past what was read, discarding, until the summed range is complete (or the
  // stream ends or fails: sum().complete() says which).
  void FinishSum();

 private:
  PointInflater* inflater_;  // owned by buffered_
  std::unique_ptr<InputStream> buffered_;
};

}  // namespace tfq

#endif  // TFQ_IO_RANDOM_INFLATE_H_
