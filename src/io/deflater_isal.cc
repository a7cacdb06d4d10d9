// The ISA-L Deflater: igzip at level 1.
#include <isa-l/igzip_lib.h>

#include <memory>

#include "io/deflater.h"

namespace tfq {
namespace {

constexpr size_t kLevel = 1;

class IsalDeflater final : public Deflater {
 public:
  IsalDeflater()
      : stream_(std::make_unique<isal_zstream>()),
        level_buf_(std::make_unique_for_overwrite<uint8_t[]>(ISAL_DEF_LVL1_DEFAULT)) {}

  Status DeflateBlock(std::string_view dictionary, std::string_view block, bool last,
                      std::string* out) override {
    isal_zstream& z = *stream_;
    isal_deflate_init(&z);
    z.level = kLevel;
    z.level_buf = level_buf_.get();
    z.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    z.gzip_flag = IGZIP_DEFLATE;
    if (!dictionary.empty() &&
        isal_deflate_set_dict(&z, reinterpret_cast<uint8_t*>(const_cast<char*>(dictionary.data())),
                              static_cast<uint32_t>(dictionary.size())) != COMP_OK) {
      return Status::Internal("isal_deflate_set_dict failed");
    }
    z.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(block.data()));
    z.avail_in = static_cast<uint32_t>(block.size());
    z.end_of_stream = last ? 1 : 0;
    z.flush = last ? NO_FLUSH : SYNC_FLUSH;
    do {
      const size_t had = out->size();
      const size_t room = block.size() + (size_t{64} << 10);
      out->resize(had + room);
      z.next_out = reinterpret_cast<uint8_t*>(out->data() + had);
      z.avail_out = static_cast<uint32_t>(room);
      const int rc = isal_deflate(&z);
      out->resize(had + room - z.avail_out);
      if (rc != COMP_OK) return Status::Internal("isal_deflate failed with error " + std::to_string(rc));
      // A flush is complete when it leaves output space unused; a finish when the stream ends.
    } while (z.avail_in > 0 || z.avail_out == 0 || (last && z.internal_state.state != ZSTATE_END));
    return Status::OK();
  }

 private:
  std::unique_ptr<isal_zstream> stream_;
  std::unique_ptr<uint8_t[]> level_buf_;
};

}  // namespace

std::unique_ptr<Deflater> NewIsalDeflater() { return std::make_unique<IsalDeflater>(); }

}  // namespace tfq
