// OutputStream::AppendRange for outputs without a faster way: read through a buffer, then Write.
#include "io/output_stream.h"

#include <algorithm>

#include "io/random_access_file.h"

namespace tfq {

Status OutputStream::AppendRange(std::shared_ptr<const RandomAccessFile> source, uint64_t offset, uint64_t n) {
  constexpr uint64_t kPiece = uint64_t{1} << 20;
  std::string buffer(static_cast<size_t>(std::min(n, kPiece)), '\0');
  while (n > 0) {
    const size_t want = static_cast<size_t>(std::min(n, kPiece));
    TFQ_RETURN_IF_ERROR(source->ReadExactly(offset, want, buffer.data()));
    TFQ_RETURN_IF_ERROR(Write(std::string_view(buffer.data(), want)));
    offset += want;
    n -= want;
  }
  return Status::OK();
}

}  // namespace tfq
