// read-gzip: TFRecord records read through gzip decompression (TFRecordOptions "GZIP"), both
// CRCs verified, from memory. MB/s of decompressed framed bytes, so that it compares directly
// with read-crc-memory: the difference is what gzip costs.
#include <memory>

#include "bench/view_stream.h"
#include "bench/workload.h"
#include "io/compression.h"
#include "tfrecord/record_reader.h"

namespace tfq::bench {
namespace {

class ReadGzipWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t) override {
    Result<std::string_view> gz = data.Gzipped();
    if (!gz.ok()) return gz.status();
    compressed_ = gz.value();
    return Status::OK();
  }

  Status RunPass(size_t, size_t, Work* work) override {
    tfrecord::RecordReader reader(
        NewDecompressingStream(std::make_unique<ViewInputStream>("gzip", compressed_), Compression::kGzip), {});
    std::string_view record;
    while (reader.Read(&record)) {
      work->bytes += record.size() + tfrecord::kFramingOverhead;
      ++work->records;
    }
    return reader.status();
  }

 private:
  std::string_view compressed_;
};

}  // namespace
}  // namespace tfq::bench

TFQ_BENCH_WORKLOADS(gzip) {
  using namespace tfq::bench;
  registry.Add(Describe<ReadGzipWorkload>(
      "read-gzip",
      "gzip-compressed TFRecord read + both CRCs, from memory (MB/s decompressed)",
      20, Metric::kBytes));
}
