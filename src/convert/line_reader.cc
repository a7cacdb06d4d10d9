#include "convert/line_reader.h"

#include <algorithm>
#include <cstring>

namespace tfq {

bool LineReader::Next(std::string_view* line) {
  if (!status_.ok()) return false;
  if (pending_) {
    in_->Consume(pending_);
    pending_ = 0;
  }
  // Ask for more until a newline shows up, the input ends, or the line is over the cap.
  size_t want = 1 << 16;
  for (;;) {
    std::string_view avail;
    status_ = in_->Peek(want, &avail);
    if (!status_.ok()) return false;
    if (avail.empty()) return false;
    const void* nl = std::memchr(avail.data(), '\n', std::min(avail.size(), max_line_ + 1));
    if (nl != nullptr || avail.size() < want) {
      size_t len = nl ? static_cast<const char*>(nl) - avail.data() : avail.size();
      if (len > max_line_) break;
      pending_ = nl ? len + 1 : len;
      if (len > 0 && avail[len - 1] == '\r') --len;
      *line = avail.substr(0, len);
      ++line_number_;
      return true;
    }
    if (avail.size() > max_line_) break;
    want = avail.size() * 2;
  }
  status_ = Status::ResourceExhausted(in_->name() + ": line " + std::to_string(line_number_ + 1) +
                                      " is longer than " + std::to_string(max_line_) +
                                      " bytes, the limit that bounds memory; raise it with --max-row-size if the file is genuine");
  return false;
}

bool LineReader::SkipBlankLines() {
  if (!status_.ok()) return false;
  if (pending_) {
    in_->Consume(pending_);
    pending_ = 0;
  }
  for (;;) {
    std::string_view avail;
    status_ = in_->Peek(1 << 16, &avail);
    if (!status_.ok()) return false;
    size_t blank = 0;
    while (blank < avail.size() && (avail[blank] == '\n' || avail[blank] == ' ' ||
                                    avail[blank] == '\t' || avail[blank] == '\r')) {
      ++blank;
    }
    // Whole lines only: up to the last newline of the blank run.
    const size_t last_newline = avail.substr(0, blank).rfind('\n');
    if (last_newline == std::string_view::npos) return true;
    line_number_ += std::count(avail.begin(), avail.begin() + last_newline + 1, '\n');
    in_->Consume(last_newline + 1);
    if (blank < avail.size()) return true;
  }
}

}  // namespace tfq
