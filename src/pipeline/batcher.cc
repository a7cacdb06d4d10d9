#include "pipeline/batcher.h"

#include <algorithm>
#include <utility>

namespace tfq::pipeline::internal {

void Batcher::Add(Batch chunk) {
  if (chunk.rows == 0) return;
  rows_ += chunk.rows;
  chunks_.push_back(std::move(chunk));
}

bool Batcher::PopFull(Batch* out, std::vector<Batch>* spare) {
  if (rows_ < batch_size_) return false;
  Take(batch_size_, out, spare);
  return true;
}

bool Batcher::PopRemainder(Batch* out, std::vector<Batch>* spare) {
  if (rows_ == 0) return false;
  if (drop_remainder_) {
    chunks_.clear();
    front_taken_ = 0;
    rows_ = 0;
    return false;
  }
  Take(rows_, out, spare);
  return true;
}

void Batcher::Take(size_t rows, Batch* out, std::vector<Batch>* spare) {
  rows_ -= rows;
  if (front_taken_ == 0 && chunks_.front().rows == rows) {  // the common case: hand it on whole
    spare->push_back(std::move(*out));
    *out = std::move(chunks_.front());
    chunks_.pop_front();
    return;
  }
  ResetBatch(*specs_, out);
  while (rows > 0) {
    Batch& front = chunks_.front();
    const size_t n = std::min(rows, front.rows - front_taken_);
    AppendRows(&front, front_taken_, front_taken_ + n, out);
    front_taken_ += n;
    rows -= n;
    if (front_taken_ == front.rows) {
      spare->push_back(std::move(front));
      chunks_.pop_front();
      front_taken_ = 0;
    }
  }
}

}  // namespace tfq::pipeline::internal
