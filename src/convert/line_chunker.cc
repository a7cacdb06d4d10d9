#include "convert/line_chunker.h"

#include <string.h>

#include <algorithm>

namespace tfq {

namespace {
// LineReader::SkipBlankLines steps over blank runs a window of this size at a time.
constexpr size_t kBlankWindow = size_t{1} << 16;
}  // namespace

bool IsBlankLine(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

bool LineTooLong(std::string_view line, size_t max_line_bytes) {
  return line.size() > max_line_bytes && !(line.size() < kBlankWindow && IsBlankLine(line));
}

Status LineTooLongError(const std::string& name, uint64_t line_number, size_t max_line_bytes) {
  return Status::ResourceExhausted(name + ": line " + std::to_string(line_number) + " is longer than " +
                                   std::to_string(max_line_bytes) +
                                   " bytes, the limit that bounds memory; raise it with --max-row-size if the file is genuine");
}

Status LineChunker::Next(std::string* bytes, uint64_t* first_line, bool* done) {
  bytes->clear();
  *done = false;
  size_t want = chunk_;
  std::string_view avail;
  size_t take = 0;
  for (;;) {
    TFQ_RETURN_IF_ERROR(in_->Peek(want, &avail));
    if (avail.empty()) {
      *done = true;
      return Status::OK();
    }
    const void* nl = memrchr(avail.data(), '\n', avail.size());
    if (nl != nullptr) {
      take = static_cast<size_t>(static_cast<const char*>(nl) - avail.data()) + 1;
      break;
    }
    if (avail.size() < want) {  // the final line, without a newline
      take = avail.size();
      break;
    }
    // One line fills the window: it starts the chunk.
    if (LineTooLong(avail, max_line_)) return LineTooLongError(in_->name(), next_line_, max_line_);
    want = avail.size() * 2;
  }
  bytes->assign(avail.data(), take);
  in_->Consume(take);
  *first_line = next_line_;
  next_line_ += static_cast<uint64_t>(std::count(bytes->begin(), bytes->end(), '\n'));
  return Status::OK();
}

}  // namespace tfq
