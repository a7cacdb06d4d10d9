// The ISA-L Inflater (igzip): what tfq decodes gzip and zlib with wherever it was built with ISA-L.
#include <isa-l.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <climits>
#include <optional>
#include <string>

#include "io/inflater.h"

namespace tfq {
namespace {

// ISA-L 2.30 miscomputes a gzip header's CRC (FHCRC) when the header arrives in pieces, so such a
// header is collected whole first; this is its length once `h` holds all of it, else 0.
// Headers that are not gzip's are passed on at once, for ISA-L to reject.
constexpr size_t kMaxCollectedHeader = size_t{1} << 20;
size_t WholeGzipHeaderLength(std::string_view h) {
  size_t at = 10;
  if (h.size() < at) return 0;
  const auto flags = static_cast<unsigned char>(h[3]);
  if (flags & 0x04) {  // FEXTRA: a 2-byte length, then that many bytes
    if (h.size() < at + 2) return 0;
    at += 2 + (static_cast<unsigned char>(h[at]) | static_cast<size_t>(static_cast<unsigned char>(h[at + 1])) << 8);
  }
  for (unsigned char field : {0x08, 0x10}) {  // FNAME, FCOMMENT: zero-terminated
    if ((flags & field) == 0) continue;
    if (at >= h.size()) return 0;
    const size_t end = h.find('\0', at);
    if (end == std::string_view::npos) return 0;
    at = end + 1;
  }
  at += 2;  // FHCRC
  return h.size() >= at ? at : 0;
}

bool NeedsWholeHeader(std::string_view first_bytes) {
  return first_bytes.size() >= 4 && first_bytes.substr(0, 2) == "\x1f\x8b" && (first_bytes[3] & 0x02) != 0;
}

uint32_t CrcFlag(DeflateWrapper wrapper) {
  switch (wrapper) {
    case DeflateWrapper::kGzip: return ISAL_GZIP;   // header parsed, CRC and length verified
    case DeflateWrapper::kZlib: return ISAL_ZLIB;   // header parsed, Adler-32 verified
    case DeflateWrapper::kRaw: return ISAL_DEFLATE;
  }
  return ISAL_DEFLATE;
}

class IsalInflater final : public Inflater {
 public:
  // inflate_state holds ~100 KiB of tables and history: on the heap, once per inflater.
  IsalInflater() : state_(std::make_unique<inflate_state>()) {}

  bool Reset(DeflateWrapper wrapper) override {
    isal_inflate_init(state_.get());
    state_->crc_flag = CrcFlag(wrapper);
    wrapper_ = wrapper;
    last_rc_ = ISAL_DECOMP_OK;
    header_.clear();
    collecting_header_ = wrapper == DeflateWrapper::kGzip;
    return true;
  }

  // ISA-L has no inflatePrime, but its bit buffer is public and consumed low bits first, as
  // zlib's is: bits placed there before the first call are the stream's first bits.
  void Prime(int bits, int value) override {
    state_->read_in = static_cast<uint64_t>(value) & ((uint64_t{1} << bits) - 1);
    state_->read_in_length = bits;
  }

  void SetWindow(std::string_view window) override {
    if (window.empty()) return;
    isal_inflate_set_dict(state_.get(), reinterpret_cast<uint8_t*>(const_cast<char*>(window.data())),
                          static_cast<uint32_t>(window.size()));
  }

  Step Inflate(std::string_view in, char* out, size_t out_size) override {
    if (collecting_header_) {
      if (std::optional<Step> step = CollectHeader(in, out, out_size)) return *step;
    }
    const uint32_t in_size = static_cast<uint32_t>(std::min<size_t>(in.size(), UINT32_MAX));
    const uint32_t room = static_cast<uint32_t>(std::min<size_t>(out_size, UINT32_MAX));
    state_->next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(in.data()));
    state_->avail_in = in_size;
    state_->next_out = reinterpret_cast<uint8_t*>(out);
    state_->avail_out = room;
    last_rc_ = isal_inflate(state_.get());
    Step step;
    if (state_->avail_in > in_size || state_->avail_out > room) {
      // ISA-L 2.30 can lose count of its input on a corrupt block header (it then reports more
      // input left than it was given): only damaged data does that.
      if (last_rc_ >= 0) last_rc_ = ISAL_INVALID_BLOCK;
      return Step{0, 0, Outcome::kBadData, 0};
    }
    step.consumed = in_size - state_->avail_in;
    step.produced = room - state_->avail_out;
    if (last_rc_ == ISAL_NEED_DICT) {
      step.outcome = Outcome::kNeedsWindow;
    } else if (last_rc_ < 0) {
      step.outcome = Outcome::kBadData;
    } else if (state_->block_state == ISAL_BLOCK_FINISH) {
      step.outcome = Outcome::kEnd;
      // Whole bytes left in the bit buffer lie past the end (newer ISA-L hands them back itself
      // and leaves the buffer empty; 2.30 does not).
      step.overread = static_cast<size_t>(state_->read_in_length / 8);
      state_->read_in = 0;
      state_->read_in_length = 0;
    } else {
      step.outcome = Outcome::kOk;
    }
    return step;
  }

  std::string error() const override {
    switch (last_rc_) {
      case ISAL_INVALID_WRAPPER: return "incorrect header check";
      case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
      case ISAL_INCORRECT_CHECKSUM:
        // ISA-L uses this code for a zlib header's check bits too; wrapper_flag is set once the
        // header has been read.
        if (wrapper_ != DeflateWrapper::kRaw && state_->wrapper_flag == 0) return "incorrect header check";
        return "incorrect data check";
      case ISAL_INVALID_BLOCK: return "invalid deflate block";
      case ISAL_INVALID_SYMBOL: return "invalid literal/length or distance code";
      case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
      default: return "isa-l error " + std::to_string(last_rc_);
    }
  }

  bool AtBlockBoundary(int*) const override { return false; }  // see NewInflater
  std::string Window() const override { return {}; }

 private:
  // The start of a gzip member: takes the input into header_ while it may be a header with a
  // CRC, then hands ISA-L the whole header in one call. nullopt: inflate `in` as usual.
  std::optional<Step> CollectHeader(std::string_view in, char* out, size_t out_size) {
    const size_t had = header_.size();
    header_.append(in.substr(0, std::min(in.size(), kMaxCollectedHeader - had)));
    if (header_.size() >= 4 && !NeedsWholeHeader(header_)) {
      // Not a header with a CRC: ISA-L reads it from the input directly, as it always does.
      collecting_header_ = false;
      if (had == 0) {
        header_.clear();
        return std::nullopt;
      }
    }
    const size_t length = collecting_header_ ? WholeGzipHeaderLength(header_) : header_.size();
    if (collecting_header_ && length == 0) {
      if (header_.size() < kMaxCollectedHeader) return Step{header_.size() - had, 0, Outcome::kOk, 0};
      last_rc_ = ISAL_INVALID_WRAPPER;
      return Step{header_.size() - had, 0, Outcome::kBadData, 0};
    }
    collecting_header_ = false;
    // Only what belongs to the header (or, when passing on, what was collected) is taken here.
    const std::string whole = header_.substr(0, length);
    header_.clear();
    Step step = Inflate(whole, out, out_size);
    // ISA-L takes a header whole before it writes anything, so at least the bytes of earlier calls.
    step.consumed = step.consumed > had ? step.consumed - had : 0;
    return step;
  }


  std::unique_ptr<inflate_state> state_;
  DeflateWrapper wrapper_ = DeflateWrapper::kGzip;
  int last_rc_ = ISAL_DECOMP_OK;
  bool collecting_header_ = false;
  std::string header_;  // the start of a gzip member, while it is collected
};

}  // namespace

std::unique_ptr<Inflater> NewIsalInflater() { return std::make_unique<IsalInflater>(); }

uint32_t IsalGzipCrc32(uint32_t crc, const char* p, size_t n) {
  return crc32_gzip_refl(crc, reinterpret_cast<const unsigned char*>(p), n);
}

std::string IsalVersion() {
  return std::to_string(ISAL_MAJOR_VERSION) + "." + std::to_string(ISAL_MINOR_VERSION) + "." +
         std::to_string(ISAL_PATCH_VERSION);
}

}  // namespace tfq
