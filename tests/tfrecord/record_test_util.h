// Builds TFRecord byte strings in memory for reader/writer tests.
#ifndef TFQ_TESTS_TFRECORD_RECORD_TEST_UTIL_H_
#define TFQ_TESTS_TFRECORD_RECORD_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "io/file_streams.h"
#include "tfrecord/record_reader.h"
#include "tfrecord/record_writer.h"

namespace tfq::tfrecord::testing {

inline std::string Frame(const std::vector<std::string>& records) {
  std::string out;
  for (const auto& r : records) AppendFramedRecord(r, &out);
  return out;
}

inline RecordReader ReaderOver(std::string bytes, RecordReaderOptions options = {}) {
  return RecordReader(NewMemoryInputStream("mem.tfrecord", std::move(bytes)), options);
}

// Reads everything; returns the payloads read before the reader stopped.
inline std::vector<std::string> ReadAll(RecordReader& reader) {
  std::vector<std::string> out;
  std::string_view rec;
  while (reader.Read(&rec)) out.emplace_back(rec);
  return out;
}

}  // namespace tfq::tfrecord::testing

#endif
