// RecordsToText: text in input order for any thread count, across chunks and inputs; the error
// reported is the first in input order (a formatter's before a later reader error).
#include "convert/records_to_text.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "io/file_streams.h"
#include "tfrecord/record_writer.h"

namespace tfq {
namespace {

// Writes each record back with a newline; refuses records equal to `refuse`.
class EchoFormatter : public RecordFormatter {
 public:
  explicit EchoFormatter(std::string refuse) : refuse_(std::move(refuse)) {}
  Status Append(std::string_view record, std::string* out) override {
    if (record == refuse_) return Status::InvalidData("refused");
    out->append(record);
    out->push_back('\n');
    return Status::OK();
  }

 private:
  std::string refuse_;
};

// Records "<name>-0" .. "<name>-<n-1>", each padded to 1000 bytes (so several chunks per input).
std::string Records(const std::string& name, int n) {
  std::string framed;
  for (int i = 0; i < n; ++i) {
    std::string r = name + "-" + std::to_string(i);
    r.resize(1000, '.');
    tfrecord::AppendFramedRecord(r, &framed);
  }
  return framed;
}

Status Run(int threads, const std::string& refuse, const std::string& b_file, std::string* text) {
  const std::string a = Records("a", 3000);
  RecordOpener open = [&](const std::string& name) -> Result<std::unique_ptr<tfrecord::RecordReader>> {
    return std::make_unique<tfrecord::RecordReader>(NewMemoryInputStream(name, name == "a" ? a : b_file),
                                                    tfrecord::RecordReaderOptions{});
  };
  return RecordsToText({"a", "b"}, open, threads, [&] { return std::make_unique<EchoFormatter>(refuse); },
                       [&](std::string_view t, uint64_t) {
                         text->append(t);
                         return Status::OK();
                       });
}

TEST_CASE("RecordsToText: the same text for any thread count") {
  const std::string b = Records("b", 1500);
  std::string one;
  REQUIRE(Run(1, "", b, &one).ok());
  CHECK(one.size() == 4500 * 1001);
  for (int threads : {2, 3, 8}) {
    std::string many;
    REQUIRE(Run(threads, "", b, &many).ok());
    CHECK(many == one);
  }
}

TEST_CASE("RecordsToText: a refused record names input and record, before a later corruption") {
  std::string b = Records("b", 1500);
  b[b.size() - 500] ^= 1;  // the last record's data CRC fails
  std::string refused = "b-1200";
  refused.resize(1000, '.');
  for (int threads : {1, 2, 4}) {
    std::string text;
    Status s = Run(threads, refused, b, &text);
    CHECK(s.message() == "b: record 1200: refused");
    std::string text2;
    Status corrupt = Run(threads, "", b, &text2);
    CHECK(corrupt.code() == StatusCode::kCorruption);
    CHECK(text2.size() == (3000 + 1499) * 1001);  // everything before the corrupt record
  }
}

}  // namespace
}  // namespace tfq
