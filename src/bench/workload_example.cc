// parse-example and encode-example: the tf.Example codec alone, on records already in memory.
// Parsing is ExampleView::Parse (every key found, every list validated; values stay views);
// encoding is ExampleEncoder writing the same features back out. Records/s, and MB/s of
// serialized Examples.
#include <memory>
#include <vector>

#include "bench/workload.h"
#include "common/cache_line.h"
#include "example/example.h"
#include "example/example_view.h"

namespace tfq::bench {
namespace {

class ParseWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t max_threads) override {
    records_ = &data.records();
    views_.resize(max_threads);
    // One untimed pass that also says whether the records are tf.Examples at all.
    for (size_t i = 0; i < records_->size(); ++i) {
      Status s = views_[0].value.Parse((*records_)[i]);
      if (!s.ok()) {
        return Status::InvalidData("record " + std::to_string(i) + " is not a tf.Example (" + s.message() + ")");
      }
    }
    return Status::OK();
  }

  Status RunPass(size_t thread, size_t, Work* work) override {
    ExampleView& view = views_[thread].value;
    for (std::string_view record : *records_) {
      TFQ_RETURN_IF_ERROR(view.Parse(record));
      work->bytes += record.size();
    }
    work->records += records_->size();
    return Status::OK();
  }

 private:
  const std::vector<std::string_view>* records_ = nullptr;
  std::vector<CacheAligned<ExampleView>> views_;  // one per thread: Parse reuses its scratch
};

class EncodeWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t max_threads) override {
    examples_.resize(data.records().size());
    ExampleView view;
    for (size_t i = 0; i < examples_.size(); ++i) {
      Status s = view.Parse(data.records()[i]);
      if (s.ok()) s = ToExample(view, &examples_[i]);
      if (!s.ok()) {
        return Status::InvalidData("record " + std::to_string(i) + " is not a tf.Example (" + s.message() + ")");
      }
    }
    scratch_.resize(max_threads);
    return Status::OK();
  }

  Status RunPass(size_t thread, size_t, Work* work) override {
    Scratch& s = scratch_[thread].value;
    for (const Example& example : examples_) {
      s.encoder.Clear();
      for (const auto& [key, f] : example.features) {
        switch (f.kind) {
          case FeatureKind::kBytes:
            s.views.assign(f.bytes_list.begin(), f.bytes_list.end());
            s.encoder.AddBytes(key, s.views);
            break;
          case FeatureKind::kFloat: s.encoder.AddFloats(key, f.float_list.data(), f.float_list.size()); break;
          case FeatureKind::kInt64: s.encoder.AddInt64s(key, f.int64_list.data(), f.int64_list.size()); break;
          case FeatureKind::kNone: s.encoder.AddEmpty(key, FeatureKind::kNone); break;
        }
      }
      s.out.clear();
      s.encoder.Finish(&s.out);
      work->bytes += s.out.size();
    }
    work->records += examples_.size();
    return Status::OK();
  }

 private:
  struct Scratch {
    ExampleEncoder encoder;
    std::vector<std::string_view> views;
    std::string out;
  };
  std::vector<Example> examples_;
  std::vector<CacheAligned<Scratch>> scratch_;
};

}  // namespace
}  // namespace tfq::bench

TFQ_BENCH_WORKLOADS(example) {
  using namespace tfq::bench;
  registry.Add(Describe<ParseWorkload>(
      "parse-example",
      "tf.Example parsing (ExampleView::Parse) of records in memory (records/s, MB/s)",
      30, Metric::kRecords));
  registry.Add(Describe<EncodeWorkload>(
      "encode-example",
      "tf.Example serialization (ExampleEncoder) of the same records (records/s, MB/s)",
      31, Metric::kRecords));
}
