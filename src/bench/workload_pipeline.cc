// reader-batcher: the tf.data-like Pipeline end to end — files read and interleaved on reader
// threads, batches of 32 cut, Examples parsed into columns on a parse pool — as a training loop
// consumes it. Records/s and batches/s.
//
// Self-threaded: one consumer, with the pipeline's own pools sized by the thread count (parse
// threads = N, reader threads = min(N, open files)); generated data is written as N files, all
// open at once (named inputs: max(4, N) of them). Every feature of the first record becomes a
// VarLenFeature of its kind (bytes in the views layout: values point into the records' read
// blocks, which the batch keeps alive, as a training loop that hands them on would want),
// which fits any Example dataset without a schema; a dataset where a key changes kind is skipped.
//
// A training loop keeps one pipeline open for many epochs, so a pass is the next dataset's worth
// of records from a pipeline that repeats forever, opened once per thread count (its start-up
// falls in the warm-up): the steady rate, not the time to the first batch.
#include <algorithm>
#include <memory>
#include <vector>

#include "bench/workload.h"
#include "example/example_view.h"
#include "pipeline/pipeline.h"

namespace tfq::bench {
namespace {

constexpr size_t kBatchSize = 32;

class PipelineWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t) override {
    data_ = &data;
    compression_ = data.files_compression();
    records_ = data.records().size();
    ExampleView first;
    if (!first.Parse(data.records().front()).ok()) {
      return Status::InvalidData("record 0 is not a tf.Example");
    }
    for (const FeaturesView::Entry& e : first.features().entries()) {
      switch (e.feature.kind()) {
        case FeatureKind::kInt64: features_.push_back(pipeline::VarLenInt64(std::string(e.key))); break;
        case FeatureKind::kFloat: features_.push_back(pipeline::VarLenFloat(std::string(e.key))); break;
        case FeatureKind::kBytes:
          features_.push_back(pipeline::VarLenBytes(std::string(e.key), pipeline::BytesLayout::kViews));
          break;
        case FeatureKind::kNone: break;  // no kind to give the column
      }
    }
    Work check;
    Status s = RunPass(0, 1, &check);  // untimed: do the records fit the features at all?
    if (s.code() == StatusCode::kInvalidData || s.code() == StatusCode::kCorruption) {
      return Status::InvalidData("the records do not parse as the first record's features (" + s.message() + ")");
    }
    return s;
  }

  Status RunPass(size_t, size_t num_threads, Work* work) override {
    if (!pipeline_ || num_threads != pipeline_threads_) {
      pipeline_.reset();
      TFQ_ASSIGN_OR_RETURN(pipeline_, Open(num_threads));
      pipeline_threads_ = num_threads;
    }
    uint64_t records = 0;
    while (records < records_ && pipeline_->Next(&batch_)) {
      records += batch_.rows;
      ++work->items;
    }
    work->records += records;
    if (records >= records_) return Status::OK();
    Status status = pipeline_->status();
    pipeline_.reset();
    return status.ok() ? Status::Internal("the endless pipeline ended") : status;
  }

 private:
  Result<std::unique_ptr<pipeline::Pipeline>> Open(size_t num_threads) const {
    // Generated data is read as a training set sharded as many ways as there are threads (one
    // file would leave the interleave a single reader however many cores there are, as
    // tf.data's TFRecordDataset reads one file on one thread), each file open at once.
    TFQ_ASSIGN_OR_RETURN(std::vector<std::string> files, data_->Files(num_threads));
    pipeline::PipelineOptions o;
    o.read.inputs = std::move(files);
    o.read.compression = compression_;
    // As tf.data's interleave with cycle_length=AUTOTUNE: a file open per thread (at least 4).
    o.read.cycle_length = std::min<size_t>(std::max<size_t>(4, num_threads), o.read.inputs.size());
    o.read.reader_threads = std::min(num_threads, o.read.cycle_length);
    o.read.epochs = pipeline::kRepeatForever;
    o.batch_size = kBatchSize;
    o.features = features_;
    o.parse_threads = num_threads;
    return pipeline::Pipeline::Open(o);
  }

  Dataset* data_ = nullptr;  // the run's, outliving the workload's passes
  Compression compression_ = Compression::kNone;
  uint64_t records_ = 0;
  std::vector<pipeline::FeatureSpec> features_;
  std::unique_ptr<pipeline::Pipeline> pipeline_;
  size_t pipeline_threads_ = 0;
  pipeline::Batch batch_;  // reused between batches and passes, as a training loop would
};

}  // namespace
}  // namespace tfq::bench

TFQ_BENCH_WORKLOADS(pipeline) {
  using namespace tfq::bench;
  WorkloadInfo info = Describe<PipelineWorkload>(
      "reader-batcher",
      "Pipeline: read, interleave, batch 32, parse into columns (records/s, batches/s)",
      50, Metric::kRecords);
  info.items_unit = "batches/s";
  info.self_threaded = true;
  registry.Add(std::move(info));
}
