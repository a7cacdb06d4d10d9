// Batching and parsing: batch sizes and remainders, dense columns with defaults and count errors,
// ragged row splits, bytes in both layouts.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>

#include "common/test_env.h"
#include "pipeline_test_util.h"

namespace tfq::pipeline {
namespace {

using testing::DrainPipeline;
using testing::Id;
using testing::OpenPipeline;
using testing::WriteExampleFiles;

using ::tfq::testing::Contains;

PipelineOptions ExampleOptions(const std::vector<std::string>& paths, size_t batch_size) {
  PipelineOptions o;
  o.read.inputs = paths;
  o.read.cycle_length = 2;
  o.batch_size = batch_size;
  o.parse_threads = 3;
  return o;
}

// All batches; the pipeline must end cleanly.
std::vector<Batch> AllBatches(Pipeline* pipeline) {
  std::vector<Batch> batches;
  Batch batch;
  while (pipeline->Next(&batch)) batches.push_back(batch);
  CHECK_MESSAGE(pipeline->status().ok(), pipeline->status().ToString());
  return batches;
}

}  // namespace

TEST_CASE("batch sizes with and without drop_remainder, in order") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {6, 4});
  const std::vector<Id> order = testing::ReferenceInterleave({6, 4}, 2, 1);
  for (bool drop : {false, true}) {
    PipelineOptions o = ExampleOptions(paths, 4);
    o.drop_remainder = drop;
    auto pipeline = OpenPipeline(o);
    std::vector<size_t> rows;
    const std::vector<Id> ids = DrainPipeline(pipeline.get(), &rows);
    CHECK(pipeline->status().ok());
    if (drop) {
      CHECK(rows == std::vector<size_t>{4, 4});
      CHECK(ids == std::vector<Id>(order.begin(), order.begin() + 8));
    } else {
      CHECK(rows == std::vector<size_t>{4, 4, 2});
      CHECK(ids == order);
    }
  }
}

TEST_CASE("batches span epochs, and large batches are cut from several chunks") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {70, 60});
  for (size_t batch_size : {1, 3, 64, 100}) {
    PipelineOptions o = ExampleOptions(paths, batch_size);
    o.read.epochs = 2;
    o.features = {VarLenFloat("weights")};
    auto pipeline = OpenPipeline(o);
    std::vector<size_t> rows;
    const std::vector<Id> ids = DrainPipeline(pipeline.get(), &rows);
    CHECK(pipeline->status().ok());
    CHECK(ids.size() == 260);
    for (size_t i = 0; i + 1 < rows.size(); ++i) CHECK(rows[i] == batch_size);
    CHECK(rows.back() == (260 % batch_size == 0 ? batch_size : 260 % batch_size));
  }
}

TEST_CASE("dense columns hold rows * length values in row order") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {5, 5});
  PipelineOptions o = ExampleOptions(paths, 4);
  o.features = {FixedLenInt64("file"), FixedLenInt64("index"), FixedLenBytes("tag"),
                FixedLenBytes("tag2", 1, {"none"}, BytesLayout::kBlob)};
  auto pipeline = OpenPipeline(o);
  for (const Batch& batch : AllBatches(pipeline.get())) {
    const Column* file = batch.column("file");
    const Column* index = batch.column("index");
    const Column* tag = batch.column("tag");
    const Column* tag2 = batch.column("tag2");
    REQUIRE(file != nullptr);
    REQUIRE(index != nullptr);
    REQUIRE(tag != nullptr);
    REQUIRE(tag2 != nullptr);
    CHECK(batch.records.empty());  // not kept unless asked
    REQUIRE(file->int64_values.size() == batch.rows);
    REQUIRE(tag->bytes_values.size() == batch.rows);
    REQUIRE(tag2->bytes_offsets.size() == batch.rows + 1);
    for (size_t r = 0; r < batch.rows; ++r) {
      CHECK(file->int64_values[r] == batch.sources[r].file);
      CHECK(index->int64_values[r] == static_cast<int64_t>(batch.sources[r].index));
      CHECK(tag->bytes_value(r) == testing::Tag(batch.sources[r].file, batch.sources[r].index));
      CHECK(tag2->bytes_value(r) == "none");
    }
  }
}

TEST_CASE("defaults fill missing keys: one value repeated or one per position") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {3});
  PipelineOptions o = ExampleOptions(paths, 3);
  o.features = {FixedLenFloat("a", 3, {1.5f}), FixedLenInt64("b", 2, {7, 8}),
                FixedLenBytes("c", 2, {"x", "y"})};
  auto pipeline = OpenPipeline(o);
  const std::vector<Batch> batches = AllBatches(pipeline.get());
  REQUIRE(batches.size() == 1);
  const Batch& b = batches[0];
  CHECK(b.column("a")->float_values == std::vector<float>(9, 1.5f));
  CHECK(b.column("b")->int64_values == std::vector<int64_t>{7, 8, 7, 8, 7, 8});
  CHECK(b.column("c")->bytes_values == std::vector<std::string>{"x", "y", "x", "y", "x", "y"});
}

TEST_CASE("a wrong value count is an error naming the file, record, offset and key") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {4});
  PipelineOptions o = ExampleOptions(paths, 1);
  // Record i has i % 4 weights: record 2 is the first with a count other than 1.
  o.features = {FixedLenFloat("weights", 1, {0.0f})};
  auto pipeline = OpenPipeline(o);
  Batch batch;
  REQUIRE_FALSE(pipeline->Next(&batch));  // record 0 has no weights: present, zero values
  const Status& s = pipeline->status();
  CHECK(s.code() == StatusCode::kInvalidData);
  CHECK(Contains(s.message(), paths[0] + ": record 0 (byte 0): feature 'weights': 0 float values, expected 1"));
}

TEST_CASE("a parse error comes after every earlier row; the lowest position wins") {
  // 300 records with one int64 "x"; records 70 and 250 hold two values. Chunks of 64 records
  // are parsed on 3 threads, so record 250's chunk may fail first in time.
  std::vector<std::string> records;
  for (int i = 0; i < 300; ++i) {
    ExampleEncoder encoder;
    const int64_t values[2] = {i, i};
    encoder.AddInt64s("x", values, (i == 70 || i == 250) ? 2 : 1);
    encoder.Finish(&records.emplace_back());
  }
  const std::string path = tfq::testing::MakeTempDir() + "/bad.tfrecord";
  testing::WriteRecordFile(path, records);
  for (bool drop : {false, true}) {
    for (int attempt = 0; attempt < 5; ++attempt) {
      PipelineOptions o = ExampleOptions({path}, 8);
      o.drop_remainder = drop;
      o.features = {FixedLenInt64("x")};
      auto pipeline = OpenPipeline(o);
      std::vector<int64_t> seen;
      Batch batch;
      while (pipeline->Next(&batch)) {
        for (int64_t v : batch.column("x")->int64_values) seen.push_back(v);
      }
      std::vector<int64_t> expected;
      for (int i = 0; i < (drop ? 64 : 70); ++i) expected.push_back(i);
      CHECK(seen == expected);  // drop_remainder drops the short batch of records 64..69
      CHECK(pipeline->status().code() == StatusCode::kInvalidData);
      CHECK(Contains(pipeline->status().message(), path + ": record 70 (byte "));
      CHECK(Contains(pipeline->status().message(), "feature 'x': 2 int64 values, expected 1"));
    }
  }
}

TEST_CASE("a missing key without a default and a type mismatch are errors") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {2});
  PipelineOptions o = ExampleOptions(paths, 2);
  SUBCASE("missing") {
    o.features = {FixedLenInt64("nope")};
    auto pipeline = OpenPipeline(o);
    Batch batch;
    CHECK_FALSE(pipeline->Next(&batch));
    CHECK(Contains(pipeline->status().message(), "feature 'nope': missing, and it has no default"));
  }
  SUBCASE("type") {
    o.features = {FixedLenFloat("index")};
    auto pipeline = OpenPipeline(o);
    Batch batch;
    CHECK_FALSE(pipeline->Next(&batch));
    CHECK(pipeline->status().code() == StatusCode::kInvalidData);
    CHECK(Contains(pipeline->status().message(), "feature 'index': int64 values, expected float"));
  }
}

TEST_CASE("ragged columns: values back to back and row splits") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {9});
  for (size_t batch_size : {1, 4, 9}) {
    PipelineOptions o = ExampleOptions(paths, batch_size);
    o.features = {VarLenFloat("weights"), VarLenInt64("absent"), VarLenBytes("tag", BytesLayout::kBlob)};
    auto pipeline = OpenPipeline(o);
    for (const Batch& batch : AllBatches(pipeline.get())) {
      const Column* w = batch.column("weights");
      REQUIRE(w->row_splits.size() == batch.rows + 1);
      CHECK(w->row_splits[0] == 0);
      for (size_t r = 0; r < batch.rows; ++r) {
        const size_t index = batch.sources[r].index;
        size_t begin, end;
        w->RowRange(r, &begin, &end);
        REQUIRE(end - begin == index % 4);
        for (size_t i = begin; i < end; ++i) {
          CHECK(w->float_values[i] == static_cast<float>(index) + 0.5f * (i - begin));
        }
      }
      CHECK(w->row_splits.back() == static_cast<int64_t>(w->float_values.size()));
      const Column* absent = batch.column("absent");
      CHECK(absent->row_splits == std::vector<int64_t>(batch.rows + 1, 0));
      const Column* tag = batch.column("tag");
      REQUIRE(tag->num_values() == batch.rows);
      for (size_t r = 0; r < batch.rows; ++r) {
        CHECK(tag->bytes_value(r) == testing::Tag(0, batch.sources[r].index));
      }
    }
  }
}

TEST_CASE("without features a batch holds the serialized records") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {3});
  auto pipeline = OpenPipeline(ExampleOptions(paths, 2));
  const std::vector<Batch> batches = AllBatches(pipeline.get());
  REQUIRE(batches.size() == 2);
  CHECK(batches[0].records == std::vector<std::string>{testing::MakeExampleRecord(0, 0),
                                                       testing::MakeExampleRecord(0, 1)});
  CHECK(batches[1].records == std::vector<std::string>{testing::MakeExampleRecord(0, 2)});
  CHECK(batches[0].columns.empty());
}

TEST_CASE("the batches do not depend on thread counts in deterministic mode") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {30, 7, 0, 52, 19});
  auto run = [&](size_t readers, size_t parsers, size_t buffer) {
    PipelineOptions o = ExampleOptions(paths, 5);
    o.read.cycle_length = 3;
    o.read.block_length = 2;
    o.read.reader_threads = readers;
    o.read.file_buffer_records = buffer;
    o.read.shuffle_files = true;
    o.read.shuffle_buffer_size = 17;
    o.read.seed = 11;
    o.read.epochs = 2;
    o.parse_threads = parsers;
    o.features = {FixedLenInt64("index"), VarLenFloat("weights")};
    auto pipeline = OpenPipeline(o);
    std::vector<int64_t> index;
    std::vector<float> weights;
    std::vector<int64_t> splits;
    for (const Batch& batch : AllBatches(pipeline.get())) {
      const Column* i = batch.column("index");
      const Column* w = batch.column("weights");
      index.insert(index.end(), i->int64_values.begin(), i->int64_values.end());
      weights.insert(weights.end(), w->float_values.begin(), w->float_values.end());
      splits.insert(splits.end(), w->row_splits.begin(), w->row_splits.end());
    }
    CHECK(index.size() == 216);
    return std::make_tuple(index, weights, splits);
  };
  const auto reference = run(1, 1, 256);
  CHECK(run(3, 1, 2) == reference);
  CHECK(run(2, 4, 1) == reference);
}

TEST_CASE("non-deterministic pipelines deliver the same multiset of rows") {
  const std::vector<size_t> sizes = {90, 3, 0, 150, 41};
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), sizes);
  std::vector<Id> all;
  for (size_t f = 0; f < sizes.size(); ++f) {
    for (size_t r = 0; r < sizes[f]; ++r) all.emplace_back(static_cast<uint32_t>(f), r);
  }
  for (size_t threads : {1, 3}) {
    PipelineOptions o = ExampleOptions(paths, 7);
    o.read.deterministic = false;
    o.read.cycle_length = 3;
    o.read.reader_threads = threads;
    o.parse_threads = threads;
    o.features = {FixedLenInt64("file"), FixedLenInt64("index")};
    auto pipeline = OpenPipeline(o);
    std::vector<Id> ids;
    for (const Batch& batch : AllBatches(pipeline.get())) {
      for (size_t r = 0; r < batch.rows; ++r) {
        ids.emplace_back(static_cast<uint32_t>(batch.column("file")->int64_values[r]),
                         static_cast<uint64_t>(batch.column("index")->int64_values[r]));
        CHECK(ids.back() == Id(batch.sources[r].file, batch.sources[r].index));
      }
    }
    std::sort(ids.begin(), ids.end());
    CHECK(ids == all);
  }
}

TEST_CASE("feature spec validation") {
  PipelineOptions o;
  o.read.inputs = {"x"};
  SUBCASE("default size") { o.features = {FixedLenInt64("a", 3, {1, 2})}; }
  SUBCASE("zero length") { o.features = {FixedLenInt64("a", 0)}; }
  SUBCASE("empty key") { o.features = {VarLenInt64("")}; }
  SUBCASE("duplicate") { o.features = {VarLenInt64("a"), FixedLenFloat("a")}; }
  SUBCASE("batch") { o.batch_size = 0; }
  CHECK(Pipeline::Open(o).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("bytes as views: the same values, valid after the pipeline is gone, defaults too") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {9, 4});
  for (size_t batch_size : {1, 3, 13}) {
    PipelineOptions o = ExampleOptions(paths, batch_size);
    o.read.shuffle_buffer_size = batch_size == 3 ? 5 : 0;  // detached records too
    o.features = {VarLenBytes("tag", BytesLayout::kViews),
                  FixedLenBytes("nope", 2, {"d0", "d1"}, BytesLayout::kViews), FixedLenInt64("file")};
    std::vector<Batch> batches;
    {
      auto pipeline = OpenPipeline(o);
      batches = AllBatches(pipeline.get());
    }  // the pipeline, its readers and its block pools are gone; the batches keep their blocks
    size_t rows = 0;
    for (const Batch& batch : batches) {
      rows += batch.rows;
      const Column& ragged = batch.columns[0];
      const Column& defaults = batch.columns[1];
      REQUIRE(ragged.bytes_views.size() == batch.rows);
      REQUIRE(defaults.num_values() == 2 * batch.rows);
      for (size_t r = 0; r < batch.rows; ++r) {
        const std::string tag = testing::Tag(batch.sources[r].file, batch.sources[r].index);
        CHECK(ragged.bytes_value(r) == tag);
        CHECK(defaults.bytes_value(2 * r) == "d0");
        CHECK(defaults.bytes_value(2 * r + 1) == "d1");
      }
    }
    CHECK(rows == 13);
  }
}

}  // namespace tfq::pipeline
