// The seams every conversion shares: how it opens an input by name (as a stream, or for reads at
// offsets), and how it hands framed TFRecord records to its output (convert/sharded_output.h, or
// a test's buffer).
#ifndef TFQ_CONVERT_INPUTS_OUTPUTS_H_
#define TFQ_CONVERT_INPUTS_OUTPUTS_H_

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/input_stream.h"
#include "io/random_access_file.h"

namespace tfq {

// Opens an input by name. Errors name the input.
using StreamOpener = std::function<Result<std::unique_ptr<InputStream>>(const std::string& name)>;

// Opens an input for reads at offsets, so that one input can be split across threads; a null
// file for an input that cannot be read that way (standard input, a pipe, a compressed file),
// which is then read as a stream. Errors name the input.
using RangeOpener = std::function<Result<std::unique_ptr<RandomAccessFile>>(const std::string& name)>;

// Receives the framed TFRecord records of one chunk, on the calling thread, in input order:
// record k of `framed` is [ends[k-1], ends[k]) (ends[-1] = 0). The bytes are valid during the
// call only.
using FramedRecordSink = std::function<Status(std::string_view framed, std::span<const size_t> ends)>;

}  // namespace tfq

#endif  // TFQ_CONVERT_INPUTS_OUTPUTS_H_
