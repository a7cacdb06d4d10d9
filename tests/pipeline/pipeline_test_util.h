// Shared helpers of the pipeline tests: writing record files, draining pipelines, and the
// reference model of tf.data's interleave order.
#ifndef TFQ_TESTS_PIPELINE_PIPELINE_TEST_UTIL_H_
#define TFQ_TESTS_PIPELINE_PIPELINE_TEST_UTIL_H_

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/test_env.h"
#include "example/example.h"
#include "io/file_streams.h"
#include "pipeline/pipeline.h"
#include "pipeline/record_stream.h"
#include "tfrecord/record_writer.h"

namespace tfq::pipeline::testing {

// (file, record) pairs: what the order tests compare.
using Id = std::pair<uint32_t, uint64_t>;

inline void WriteRecordFile(const std::string& path, const std::vector<std::string>& records) {
  Result<std::unique_ptr<OutputStream>> out = CreateOutputFile(path);
  REQUIRE(out.ok());
  tfrecord::RecordWriter writer(out->get());
  for (const std::string& r : records) REQUIRE(writer.Write(r).ok());
  REQUIRE((*out)->Close().ok());
}

// The payload of record `index` of file `file` in the raw-record tests.
inline std::string RawPayload(size_t file, size_t index) {
  std::string out = "f";  // appended piecewise: "lit" + std::string trips GCC 12's -Wrestrict
  out += std::to_string(file);
  out += "-r";
  out += std::to_string(index);
  return out;
}

// Writes files "<dir>/part-<i>.tfrecord" with sizes[i] records of RawPayload; returns the paths.
inline std::vector<std::string> WriteRawFiles(const std::string& dir, const std::vector<size_t>& sizes) {
  std::vector<std::string> paths;
  for (size_t f = 0; f < sizes.size(); ++f) {
    std::vector<std::string> records;
    for (size_t r = 0; r < sizes[f]; ++r) records.push_back(RawPayload(f, r));
    char name[64];
    std::snprintf(name, sizeof name, "/part-%03zu.tfrecord", f);
    paths.push_back(dir + name);
    WriteRecordFile(paths.back(), records);
  }
  return paths;
}

inline std::string Tag(size_t file, size_t index) {
  std::string out = "t";
  out += std::to_string(file);
  out += ".";
  out += std::to_string(index);
  return out;
}

// An Example with "file" and "index" (int64 scalars), "weights" (index % 4 floats), and "tag"
// (one bytes value).
inline std::string MakeExampleRecord(size_t file, size_t index) {
  ExampleEncoder encoder;
  encoder.AddInt64("file", static_cast<int64_t>(file));
  encoder.AddInt64("index", static_cast<int64_t>(index));
  std::vector<float> weights;
  for (size_t i = 0; i < index % 4; ++i) weights.push_back(static_cast<float>(index) + 0.5f * i);
  encoder.AddFloats("weights", weights.data(), weights.size());
  encoder.AddBytes("tag", Tag(file, index));
  std::string out;
  encoder.Finish(&out);
  return out;
}

inline std::vector<std::string> WriteExampleFiles(const std::string& dir,
                                                  const std::vector<size_t>& sizes) {
  std::vector<std::string> paths;
  for (size_t f = 0; f < sizes.size(); ++f) {
    std::vector<std::string> records;
    for (size_t r = 0; r < sizes[f]; ++r) records.push_back(MakeExampleRecord(f, r));
    paths.push_back(dir + "/ex-" + std::to_string(f) + ".tfrecord");
    WriteRecordFile(paths.back(), records);
  }
  return paths;
}

// Every record of a RecordStream as (file, index), checking payloads match RawPayload.
inline std::vector<Id> DrainStream(RecordStream* stream) {
  std::vector<Id> ids;
  Record record;
  while (stream->Next(&record)) {
    CHECK(record.data == RawPayload(record.source.file, record.source.index));
    ids.emplace_back(record.source.file, record.source.index);
  }
  return ids;
}

inline std::unique_ptr<RecordStream> OpenStream(const ReadOptions& options) {
  Result<std::unique_ptr<RecordStream>> stream = RecordStream::Open(options);
  REQUIRE_MESSAGE(stream.ok(), stream.status().ToString());
  return std::move(stream).value();
}

inline std::unique_ptr<Pipeline> OpenPipeline(const PipelineOptions& options) {
  Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::Open(options);
  REQUIRE_MESSAGE(pipeline.ok(), pipeline.status().ToString());
  return std::move(pipeline).value();
}

// Every row of every batch as (file, index), in order.
inline std::vector<Id> DrainPipeline(Pipeline* pipeline, std::vector<size_t>* batch_rows = nullptr) {
  std::vector<Id> ids;
  Batch batch;
  while (pipeline->Next(&batch)) {
    if (batch_rows) batch_rows->push_back(batch.rows);
    REQUIRE(batch.sources.size() == batch.rows);
    for (const RecordSource& s : batch.sources) ids.emplace_back(s.file, s.index);
  }
  return ids;
}

// tf.data's Interleave, written as its sequential GetNext loop: a slot with an iterator yields
// its next element (moving on after block_length of them) or, when exhausted, is cleared and the
// turn passes; an empty slot pulls the next file while the input lasts and is skipped after.
inline std::vector<Id> ReferenceInterleave(const std::vector<size_t>& sizes, size_t cycle,
                                           size_t block) {
  std::vector<long> file(cycle, -1);
  std::vector<size_t> position(cycle, 0);
  std::vector<Id> out;
  size_t next_file = 0, open = 0, cycle_index = 0, block_index = 0;
  bool end_of_input = false;
  auto advance = [&] {
    block_index = 0;
    cycle_index = (cycle_index + 1) % cycle;
  };
  while (!end_of_input || open > 0) {
    if (file[cycle_index] >= 0) {
      const size_t f = static_cast<size_t>(file[cycle_index]);
      if (position[cycle_index] < sizes[f]) {
        out.emplace_back(static_cast<uint32_t>(f), position[cycle_index]++);
        if (++block_index == block) advance();
        continue;
      }
      file[cycle_index] = -1;
      --open;
      advance();
    } else if (!end_of_input) {
      if (next_file < sizes.size()) {
        file[cycle_index] = static_cast<long>(next_file++);
        position[cycle_index] = 0;
        ++open;
      } else {
        end_of_input = true;
      }
    } else {
      advance();
    }
  }
  return out;
}

}  // namespace tfq::pipeline::testing

// So that failed order checks print the (file, record) pairs.
namespace doctest {
template <>
struct StringMaker<tfq::pipeline::testing::Id> {
  static String convert(const tfq::pipeline::testing::Id& id) {
    std::string out = "(";
    out += std::to_string(id.first);
    out += ",";
    out += std::to_string(id.second);
    out += ")";
    return out.c_str();
  }
};
template <>
struct StringMaker<std::vector<tfq::pipeline::testing::Id>> {
  static String convert(const std::vector<tfq::pipeline::testing::Id>& ids) {
    std::string out = "[";
    for (const auto& id : ids) out += StringMaker<tfq::pipeline::testing::Id>::convert(id).c_str();
    out += "]";
    return out.c_str();
  }
};
}  // namespace doctest

#endif  // TFQ_TESTS_PIPELINE_PIPELINE_TEST_UTIL_H_
