#include "tfrecord/record_reader.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <utility>

#include "io/compression.h"
#include "tfrecord/crc_checkpoints.h"

namespace tfq::tfrecord {
namespace {

// At offset 0 a framing error usually means "this is not an uncompressed TFRecord file": say
// what the bytes look like instead of a bare CRC error.
std::string CompressionHint(std::string_view first_bytes) {
  switch (SniffCompression(first_bytes)) {
    case Compression::kGzip:
      return "; the file looks GZIP-compressed: read it with -c gzip (or -c auto)";
    case Compression::kZlib:
      return "; the file looks ZLIB-compressed: read it with -c zlib (or -c auto)";
    default: {
      const std::string looks_like = DescribeLeadingBytes(first_bytes);
      if (looks_like.rfind("uncompressed binary", 0) == 0) return "; is this a TFRecord file?";
      return "; is this a TFRecord file? Its first bytes look like " + looks_like;
    }
  }
}

std::string Hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08" PRIx32, v);
  return buf;
}

constexpr uint64_t kPeekStep = uint64_t{64} << 20;

// Peeks `want` bytes, asking in doubling steps from kPeekStep: a believed length is still only a
// claim, and a short file claiming 1 GiB must cost a buffer the size of what it holds.
Status PeekGrowing(InputStream& stream, uint64_t want, std::string_view* avail) {
  uint64_t ask = std::min(want, kPeekStep);
  for (;;) {
    TFQ_RETURN_IF_ERROR(stream.Peek(ask, avail));
    if (avail->size() < ask || ask == want) return Status::OK();
    ask = std::min(want, ask * 2);
  }
}

}  // namespace

std::string_view ReadErrorName(ReadError e) {
  switch (e) {
    case ReadError::kNone: return "none";
    case ReadError::kTruncatedHeader: return "truncated header";
    case ReadError::kTruncatedPayload: return "truncated payload";
    case ReadError::kLengthCrcMismatch: return "length CRC mismatch";
    case ReadError::kRecordTooLarge: return "record too large";
    case ReadError::kDataCrcMismatch: return "data CRC mismatch";
    case ReadError::kStream: return "stream error";
  }
  return "unknown";
}

RecordReader::RecordReader(std::unique_ptr<InputStream> stream, const RecordReaderOptions& options)
    : stream_(std::move(stream)), options_(options) {}

bool RecordReader::Read(std::string_view* record) { return Next(Mode::kRead, record); }

bool RecordReader::Skip() { return Next(Mode::kSkip, nullptr); }

std::string RecordReader::Where(uint64_t offset) const {
  return stream_->name() + ": record " + std::to_string(index_) + " (byte " +
         std::to_string(offset) + ")";
}

bool RecordReader::Fail(ReadError error, uint64_t offset, std::string what) {
  error_ = error;
  status_ = Status::Corruption(Where(offset) + ": " + what);
  return false;
}

void RecordReader::NoteSkip(std::string message) {
  if (skipped_.messages.size() < SkipReport::kMaxMessages) {
    skipped_.messages.push_back(std::move(message));
  }
}

bool RecordReader::Next(Mode mode, std::string_view* record) {
  last_payload_ = {};
  if (!status_.ok()) return false;
  for (;;) {
    if (pending_consume_ > 0) {
      stream_->Consume(pending_consume_);
      pending_consume_ = 0;
    }
    const uint64_t offset = base_offset_ + stream_->position();
    std::string_view avail;
    Status s = stream_->Peek(kHeaderSize, &avail);
    if (!s.ok()) {
      error_ = ReadError::kStream;
      status_ = std::move(s);
      return false;
    }
    if (avail.empty()) return false;  // clean end
    if (avail.size() < kHeaderSize) {
      std::string what = "truncated header: the stream ends " + std::to_string(avail.size()) +
                         " bytes into a 12-byte record header (the file was cut short)";
      if (offset == 0) what += CompressionHint(avail);
      return Fail(ReadError::kTruncatedHeader, offset, std::move(what));
    }
    const uint64_t length = DecodeFixed64(avail.data());
    if (!HeaderCrcValid(avail.data())) {
      if (options_.on_corruption == CorruptionPolicy::kResync) {
        if (!Resync(offset)) return false;
        continue;
      }
      std::string what = "length CRC mismatch (stored " +
                         Hex32(DecodeFixed32(avail.data() + kLengthSize)) + ", computed " +
                         Hex32(MaskedCrc(avail.data(), kLengthSize)) + ")";
      if (offset == 0) what += CompressionHint(avail);
      return Fail(ReadError::kLengthCrcMismatch, offset, std::move(what));
    }
    if (length > options_.max_record_bytes) {
      if (options_.on_corruption == CorruptionPolicy::kResync) {
        if (!Resync(offset)) return false;
        continue;
      }
      return Fail(ReadError::kRecordTooLarge, offset,
                  "record length " + std::to_string(length) + " exceeds the cap of " +
                      std::to_string(options_.max_record_bytes) +
                      " bytes (raise it with --max-record-size if the file is genuine)");
    }
    const uint64_t framed = length + kFramingOverhead;

    if (mode == Mode::kSkip) {
      stream_->Consume(kHeaderSize);
      uint64_t skipped = 0;
      Status skip_status = stream_->Skip(length + kFooterSize, &skipped);
      if (!skip_status.ok()) {
        error_ = ReadError::kStream;
        status_ = std::move(skip_status);
        return false;
      }
      if (skipped < length + kFooterSize) {
        return Fail(ReadError::kTruncatedPayload, offset,
                    "truncated payload: the stream ends " + std::to_string(skipped) +
                        " bytes into a " + std::to_string(length + kFooterSize) +
                        "-byte payload and footer (the file was cut short)");
      }
      record_offset_ = offset;
      record_framed_size_ = framed;
      ++index_;
      return true;
    }

    s = PeekGrowing(*stream_, framed, &avail);
    if (!s.ok()) {
      error_ = ReadError::kStream;
      status_ = std::move(s);
      return false;
    }
    if (avail.size() < framed) {
      return Fail(ReadError::kTruncatedPayload, offset,
                  "truncated payload: the stream ends " +
                      std::to_string(avail.size() - kHeaderSize) + " bytes into a " +
                      std::to_string(length + kFooterSize) +
                      "-byte payload and footer (the file was cut short)");
    }
    const char* data = avail.data() + kHeaderSize;
    if (options_.verify_data_crc) {
      const uint32_t stored = DecodeFixed32(data + length);
      const uint32_t computed = MaskedCrc(data, length);
      if (stored != computed) {
        std::string what = "data CRC mismatch (stored " + Hex32(stored) + ", computed " +
                           Hex32(computed) + ")";
        if (options_.on_corruption == CorruptionPolicy::kFail) {
          return Fail(ReadError::kDataCrcMismatch, offset, std::move(what));
        }
        NoteSkip(Where(offset) + ": " + what + "; record skipped");
        ++skipped_.corrupt_records;
        ++index_;
        pending_consume_ = framed;
        continue;
      }
    }
    *record = std::string_view(data, length);
    last_payload_ = *record;
    record_offset_ = offset;
    record_framed_size_ = framed;
    pending_consume_ = framed;
    ++index_;
    return true;
  }
}

Status RecordReader::RecordVerifiesHere(CrcCheckpoints* checkpoints, bool* verifies) {
  std::string_view header;
  TFQ_RETURN_IF_ERROR(stream_->Peek(kHeaderSize, &header));
  const uint64_t length = DecodeFixed64(header.data());
  const uint64_t framed = length + kFramingOverhead;
  // Beyond the record, as much again (up to a step): the next candidates' records, a few bytes
  // further on, are then already buffered, so the buffer is not slid (copied) for each of them.
  std::string_view rec;
  TFQ_RETURN_IF_ERROR(PeekGrowing(*stream_, framed + std::min(framed, kPeekStep), &rec));
  *verifies = false;
  if (rec.size() < framed) return Status::OK();
  const uint64_t at = stream_->position();
  const uint32_t crc = checkpoints->Crc(rec, at, at + kHeaderSize, at + kHeaderSize + length);
  *verifies = DecodeFixed32(rec.data() + kHeaderSize + length) == crc32c::Mask(crc);
  return Status::OK();
}

bool RecordReader::Resync(uint64_t bad_offset) {
  // A candidate must have a verifying length CRC, a length within the cap and a verifying data
  // CRC, so that random bytes are not mistaken for a record.
  constexpr size_t kWindow = 1 << 16;
  const std::string problem = Where(bad_offset) + ": bad record header";
  CrcCheckpoints checkpoints;  // each candidate's data CRC in time independent of its length
  ++skipped_.resyncs;
  stream_->Consume(1);
  uint64_t passed = 1;
  for (;;) {
    std::string_view window;
    Status s = stream_->Peek(kWindow + kHeaderSize, &window);
    if (s.ok() && window.size() < kHeaderSize) {
      passed += window.size();
      stream_->Consume(window.size());
      skipped_.resync_bytes += passed;
      NoteSkip(problem + "; skipped " + std::to_string(passed) +
               " bytes to the end of the stream without finding another record");
      return false;
    }
    bool verifies = false;
    if (s.ok()) {
      const size_t i = FindPlausibleHeader(window, options_.max_record_bytes);
      const size_t advance = i == std::string_view::npos ? window.size() - kHeaderSize + 1 : i;
      stream_->Consume(advance);
      passed += advance;
      if (i == std::string_view::npos) continue;
      s = RecordVerifiesHere(&checkpoints, &verifies);
    }
    if (!s.ok()) {
      error_ = ReadError::kStream;
      status_ = std::move(s);
      return false;
    }
    if (verifies) {
      skipped_.resync_bytes += passed;
      NoteSkip(problem + "; skipped " + std::to_string(passed) +
               " bytes to the next valid record at byte " +
               std::to_string(base_offset_ + stream_->position()));
      return true;
    }
    stream_->Consume(1);
    passed += 1;
  }
}

}  // namespace tfq::tfrecord
