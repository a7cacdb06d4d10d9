#include "convert/line_reader.h"

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

}  // namespace tfq
