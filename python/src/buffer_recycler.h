// BufferRecycler: the numeric buffers of batches that Python has dropped, handed back to the
// pipeline's parse threads for the next batches.
//
// A batch's numeric columns go to NumPy without a copy (batch_to_python.h), so each array owns
// its std::vector. Freeing those vectors when Python drops the arrays costs the Python thread a
// free() per column per batch, of memory that a parse thread allocated: glibc then takes that
// thread's arena lock, which the parse threads hold while they allocate the next batches. Kept
// here instead, the buffers go back into the batch that BatchStream hands to Pipeline::Next, whose
// memory the pipeline reuses for later batches: no allocation and no free in steady state.
//
// Thread safety: every member may be called from any thread. Arrays may outlive the iterator, so
// they hold the recycler by shared_ptr.
#ifndef TFQ_PYTHON_BUFFER_RECYCLER_H_
#define TFQ_PYTHON_BUFFER_RECYCLER_H_

#include <cstdint>
#include <mutex>
#include <vector>

#include "pipeline/batch.h"

namespace tfq::python {

class BufferRecycler {
 public:
  // Keeps the buffer for reuse, or frees it when enough are kept already.
  void Return(std::vector<int64_t>&& buffer) { Keep(&int64_, std::move(buffer)); }
  void Return(std::vector<float>&& buffer) { Keep(&float_, std::move(buffer)); }

  // Gives the batch's empty numeric buffers (moved out to NumPy) kept ones to reuse.
  void Refill(pipeline::Batch* batch) {
    std::lock_guard<std::mutex> lock(mu_);
    for (pipeline::Column& c : batch->columns) {
      if (c.dtype == pipeline::DType::kInt64) Take(&int64_, &c.int64_values);
      if (c.dtype == pipeline::DType::kFloat) Take(&float_, &c.float_values);
      if (c.ragged) Take(&int64_, &c.row_splits);
    }
  }

 private:
  // Enough for every column of the batches in flight between the pipeline and Python; more would
  // only hold memory that a batch the user keeps no longer needs.
  static constexpr size_t kMaxKept = 64;

  template <typename T>
  void Keep(std::vector<std::vector<T>>* kept, std::vector<T>&& buffer) {
    if (buffer.capacity() == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (kept->size() < kMaxKept) kept->push_back(std::move(buffer));
  }
  template <typename T>
  static void Take(std::vector<std::vector<T>>* kept, std::vector<T>* buffer) {
    if (buffer->capacity() != 0 || kept->empty()) return;
    buffer->swap(kept->back());
    buffer->clear();
    kept->pop_back();
  }

  std::mutex mu_;
  std::vector<std::vector<int64_t>> int64_;
  std::vector<std::vector<float>> float_;
};

}  // namespace tfq::python

#endif  // TFQ_PYTHON_BUFFER_RECYCLER_H_
