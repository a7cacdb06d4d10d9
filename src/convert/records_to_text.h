// TFRecord files -> text, one line (or CSV row) per record, in parallel and in input order on
// the ordered map (convert/ordered_map.h): the calling thread reads the records of each input in
// chunks of about a megabyte, `threads` workers format them (a RecordFormatter each), and the
// calling thread hands the text to the sink in input order.
//
// Errors: a record a formatter refuses is reported as "<path>: record <index>: <reason>"; a
// reader error (corruption, truncation) comes after the records before it were formatted, so the
// error reported is the first in input order, as a serial run reports it.
#ifndef TFQ_CONVERT_RECORDS_TO_TEXT_H_
#define TFQ_CONVERT_RECORDS_TO_TEXT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "tfrecord/record_reader.h"

namespace tfq {

// Opens an input's records by name.
using RecordOpener = std::function<Result<std::unique_ptr<tfrecord::RecordReader>>(const std::string& name)>;

// Appends the text of one record to *out (a worker's own; called for one record at a time).
class RecordFormatter {
 public:
  virtual ~RecordFormatter() = default;
  virtual Status Append(std::string_view record, std::string* out) = 0;
};

// Receives text holding `records` records, on the calling thread, in input order.
using TextSink = std::function<Status(std::string_view text, uint64_t records)>;

Status RecordsToText(const std::vector<std::string>& inputs, const RecordOpener& open, int threads,
                     const std::function<std::unique_ptr<RecordFormatter>()>& make_formatter,
                     const TextSink& sink);

}  // namespace tfq

#endif  // TFQ_CONVERT_RECORDS_TO_TEXT_H_
