// The decompressing stream: an Inflater (io/inflater.h) between a compressed InputStream and its
// reader.
//
// Compressed bytes are taken from the source with Peek/Consume, and only as many as inflate used
// are consumed, so the source's position is the compressed offset for messages (ISA-L reads up to
// 8 bytes ahead into its bit buffer, so it may lie that far past the bad bit). Given an
// AccessPointIndex it also notes access points as it goes (io/access_points.h): the inflater then
// stops at every deflate block boundary, where a point may be taken, which only zlib does.
#include <algorithm>
#include <memory>
#include <string>

#include "io/access_points.h"
#include "io/buffered_input_stream.h"
#include "io/compression.h"
#include "io/inflater.h"

namespace tfq {
namespace {

constexpr size_t kOutputChunk = size_t{256} << 10;

class InflatingStream final : public BufferedInputStream {
 public:
  InflatingStream(std::unique_ptr<InputStream> source, Compression c, const DecompressionLimit& limit,
                  AccessPointIndex* points = nullptr)
      : BufferedInputStream(kOutputChunk),
        source_(std::move(source)),
        gzip_(c == Compression::kGzip),
        format_(gzip_ ? "gzip" : "zlib"),
        limit_(limit),
        inflater_(NewInflater(points != nullptr ? InflaterUse::kBlockBoundaries : InflaterUse::kFastest)),
        points_(points) {
    if (c != Compression::kGzip && c != Compression::kZlib) {
      init_error_ = Status::Internal(source_->name() + ": cannot decompress with compression '" +
                                     std::string(CompressionName(c)) + "'");
      return;
    }
    if (!inflater_->Reset(Wrapper())) {
      init_error_ = Status::ResourceExhausted(source_->name() + ": cannot start " + format_ +
                                              " decompression (out of memory)");
    }
  }

  const std::string& name() const override { return source_->name(); }
  uint64_t source_bytes_read() const override { return source_->source_bytes_read(); }

 private:
  Status Refill(char* dst, size_t capacity, size_t* produced) override {
    TFQ_RETURN_IF_ERROR(init_error_);
    *produced = 0;
    // Inflate may use input without producing output (headers, a block's code tables).
    while (*produced == 0) {
      std::string_view in;
      TFQ_RETURN_IF_ERROR(source_->Peek(1, &in));
      if (in.empty()) {
        if (in_member_) {
          // The inflater may still hold output it decoded (ISA-L buffers some): drain it first.
          TFQ_RETURN_IF_ERROR(InflateOnce(in, dst, capacity, produced));
          if (*produced > 0 || !in_member_) continue;
          return Truncated();
        }
        if (points_ != nullptr) points_->uncompressed_size = total_output_;
        return Status::OK();  // clean end: after a complete stream, or no input at all
      }
      if (!in_member_ && stream_ended_) {
        // More input after a complete stream: the next gzip member (as `cat a.gz b.gz` makes).
        if (!gzip_) {
          return Status::Corruption(name() + ": unexpected data after the end of the zlib stream" +
                                    " at compressed byte " + std::to_string(CompressedOffset()));
        }
        if (!inflater_->Reset(Wrapper())) return OutOfMemory();
      }
      if (!stream_ended_ && !in_member_ && leading_bytes_.empty()) {
        std::string_view first;
        TFQ_RETURN_IF_ERROR(source_->Peek(16, &first));
        leading_bytes_.assign(first.substr(0, 16));
        in = first;
      }
      TFQ_RETURN_IF_ERROR(InflateOnce(in, dst, capacity, produced));
    }
    return Status::OK();
  }

  Status InflateOnce(std::string_view in, char* dst, size_t capacity, size_t* produced) {
    // Never produce more than one byte beyond the limit: a bomb is stopped before it is inflated.
    if (limit_.max_bytes > 0) {
      capacity = static_cast<size_t>(
          std::min<uint64_t>(capacity, limit_.max_bytes - total_output_ + 1));
    }
    const Inflater::Step step = inflater_->Inflate(in, dst, capacity);
    const size_t used = step.consumed;
    const size_t made = step.produced;
    source_->Consume(used);
    *produced = made;
    total_output_ += made;
    if (used > 0) in_member_ = true;
    if (points_ != nullptr) NoteAccessPoint();

    // The ratio is checked after every call, which produces at most one output chunk.
    if (!limit_.unlimited()) {
      const std::string exceeded = limit_.Exceeded(total_output_, CompressedOffset());
      if (!exceeded.empty()) {
        return Status::ResourceExhausted(
            name() + ": " + format_ + " data expands to " + exceeded +
            " (a decompression bomb?); if the file is genuine, raise the limit with "
            "--max-decompressed (e.g. 1000x, 100GiB or none)");
      }
    }
    switch (step.outcome) {
      case Inflater::Outcome::kOk:
        // With both buffers non-empty some progress was possible; if none was made, stop rather
        // than spin. Without input (draining at the end), the caller decides.
        if (used > 0 || made > 0 || in.empty()) return Status::OK();
        return Status::Internal(name() + ": inflate made no progress at compressed byte " +
                                std::to_string(CompressedOffset()));
      case Inflater::Outcome::kEnd:
        in_member_ = false;
        stream_ended_ = true;
        if (step.overread > 0) {
          // Bytes past the end were taken (ISA-L after a zlib trailer): they cannot start another
          // stream, as only gzip has members, and the source cannot give them back.
          return Status::Corruption(name() + ": unexpected data after the end of the " + format_ +
                                    " stream at compressed byte " +
                                    std::to_string(CompressedOffset() - step.overread));
        }
        return Status::OK();
      case Inflater::Outcome::kNeedsWindow:
        return Corrupt("the stream needs a preset dictionary");
      case Inflater::Outcome::kBadData:
        if (!stream_ended_ && SniffCompression(leading_bytes_) != (gzip_ ? Compression::kGzip
                                                                          : Compression::kZlib)) {
          // The stream does not even start like one: most likely the wrong -c, not damage.
          return Status::Corruption(name() + ": not " + format_ + " data (" + inflater_->error() +
                                    " at compressed byte " + std::to_string(CompressedOffset()) +
                                    "): its first bytes look like " +
                                    DescribeLeadingBytes(leading_bytes_));
        }
        return Corrupt(inflater_->error());
      case Inflater::Outcome::kNoMemory:
        return OutOfMemory();
    }
    return Status::Internal(name() + ": unknown inflate outcome");
  }

  uint64_t CompressedOffset() const { return source_->position(); }
  DeflateWrapper Wrapper() const { return gzip_ ? DeflateWrapper::kGzip : DeflateWrapper::kZlib; }
  Status OutOfMemory() const {
    return Status::ResourceExhausted(name() + ": out of memory while decompressing");
  }

  // At a block boundary outside the last block, a span after the last point: zran's rule.
  void NoteAccessPoint() {
    int bits = 0;
    if (!inflater_->AtBlockBoundary(&bits)) return;
    if (!points_->points.empty() && total_output_ - last_point_ < points_->span) return;
    AccessPoint p;
    p.uncompressed_offset = total_output_;
    p.compressed_offset = CompressedOffset();
    p.bits = bits;  // the byte holding them is read again from the file when starting there
    p.window = inflater_->Window();
    points_->points.push_back(std::move(p));
    last_point_ = total_output_;
  }

  Status Truncated() const {
    return Status::Corruption(name() + ": " + format_ + " stream truncated at compressed byte " +
                              std::to_string(CompressedOffset()) + ": the file ends before the " +
                              format_ + " trailer (cut short while copying or writing?)");
  }

  Status Corrupt(const std::string& what) const {
    return Status::Corruption(name() + ": corrupt " + format_ + " data at compressed byte " +
                              std::to_string(CompressedOffset()) + ": " + what);
  }

  const std::unique_ptr<InputStream> source_;
  const bool gzip_;
  const std::string format_;  // "gzip" or "zlib", for messages
  const DecompressionLimit limit_;
  const std::unique_ptr<Inflater> inflater_;
  Status init_error_;
  bool in_member_ = false;     // input of the current stream/member consumed, its end not seen
  bool stream_ended_ = false;  // at least one complete stream/member seen
  uint64_t total_output_ = 0;
  std::string leading_bytes_;  // the stream's first bytes, for the wrong-compression message
  AccessPointIndex* const points_;  // null: no access points noted
  uint64_t last_point_ = 0;          // uncompressed offset of the last point noted
};

}  // namespace

std::unique_ptr<InputStream> NewDecompressingStream(std::unique_ptr<InputStream> compressed,
                                                    Compression c, const DecompressionLimit& limit) {
  if (c == Compression::kNone) return compressed;
  return std::make_unique<InflatingStream>(std::move(compressed), c, limit);
}

std::unique_ptr<InputStream> NewIndexingDecompressingStream(std::unique_ptr<InputStream> compressed,
                                                            Compression c,
                                                            const DecompressionLimit& limit,
                                                            AccessPointIndex* index) {
  index->compression = c;
  index->points.clear();
  index->uncompressed_size = 0;
  return std::make_unique<InflatingStream>(std::move(compressed), c, limit, index);
}

}  // namespace tfq
