// NewDeflater: the one place that picks the encoder for an output (the rule is in deflater.h).
#include "io/deflater.h"

#include <algorithm>

namespace tfq {
namespace {

class ChoosingDeflater final : public Deflater {
 public:
  explicit ChoosingDeflater(DeflateWrapper wrapper) : wrapper_(wrapper) {}

  Status Deflate(std::string_view in, bool finish, std::string* out) override {
    if (chosen_ != nullptr) return chosen_->Deflate(in, finish, out);
    const size_t take = std::min(in.size(), kChoiceSample - sample_.size());
    sample_.append(in.substr(0, take));
    in.remove_prefix(take);
    if (sample_.size() < kChoiceSample && !finish) return Status::OK();
    const bool finishing = finish && in.empty();
    TFQ_RETURN_IF_ERROR(Choose(finishing, out));
    if (finishing) return Status::OK();
    return chosen_->Deflate(in, finish, out);
  }

 private:
  // Compresses the sample with both and keeps the one the rule picks, its output of the sample
  // already in *out. `finishing`: the sample is the whole stream.
  Status Choose(bool finishing, std::string* out) {
    std::unique_ptr<Deflater> zlib = NewZlibDeflater(wrapper_, kDefaultZlibLevel);
    if (zlib == nullptr) return Status::ResourceExhausted("cannot start zlib compression (out of memory)");
    std::string zlib_out;
    TFQ_RETURN_IF_ERROR(zlib->Deflate(sample_, finishing, &zlib_out));
    const size_t zlib_size = finishing ? zlib_out.size() : zlib->SizeIfFinishedNow();

    std::unique_ptr<Deflater> trial = NewIsalDeflater(wrapper_);
    std::string isal_out;
    TFQ_RETURN_IF_ERROR(trial->Deflate(sample_, true, &isal_out));
    const bool isal = static_cast<double>(isal_out.size()) <= kMaxSizeRatio * static_cast<double>(zlib_size);
    if (!isal) {
      out->append(zlib_out);
      chosen_ = std::move(zlib);
    } else if (finishing) {
      out->append(isal_out);
    } else {
      // The trial ended its stream; the output goes on in a new one, given the sample again.
      chosen_ = NewIsalDeflater(wrapper_);
      TFQ_RETURN_IF_ERROR(chosen_->Deflate(sample_, false, out));
    }
    sample_.clear();
    sample_.shrink_to_fit();
    return Status::OK();
  }

  const DeflateWrapper wrapper_;
  std::string sample_;                 // the first kChoiceSample bytes, until the choice
  std::unique_ptr<Deflater> chosen_;   // null until the choice, and after a sample-only stream
};

}  // namespace

Result<std::unique_ptr<Deflater>> NewDeflater(DeflateWrapper wrapper, int level) {
  if (level < -1 || level > 9) {
    return Status::InvalidArgument("compression level " + std::to_string(level) + " is not between -1 and 9");
  }
  if (level == -1 && !IsalVersion().empty()) {
    return std::unique_ptr<Deflater>(std::make_unique<ChoosingDeflater>(wrapper));
  }
  std::unique_ptr<Deflater> zlib = NewZlibDeflater(wrapper, level == -1 ? kDefaultZlibLevel : level);
  if (zlib == nullptr) return Status::ResourceExhausted("cannot start zlib compression (out of memory)");
  return zlib;
}

}  // namespace tfq
