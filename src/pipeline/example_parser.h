// ExampleParser: decodes serialized tf.train.Examples into the columns of a Batch, following
// tf.io.parse_example's rules for FixedLenFeature and VarLenFeature:
//   - a dense feature must hold exactly `length` values of its dtype; a missing key takes the
//     default (an error without one); a present key with the wrong count, even zero, is an error;
//   - a ragged feature takes whatever values are there; a missing key is an empty row;
//   - a Feature with no list set (kind "none") counts as an empty list of any dtype;
//   - a list of another dtype is an error; keys not asked for are never decoded, so a malformed
//     list in a feature that was not asked for goes unnoticed (as in TensorFlow's parser).
//
// Errors are kCorruption for bytes that are not an Example and kInvalidData for well-formed
// Examples that do not fit the specs ("feature 'label': 3 int64 values, expected 1"); the caller
// adds the file and record.
//
// Thread safety: none per object; use one parser per thread (it reuses its decoding scratch).
#ifndef TFQ_PIPELINE_EXAMPLE_PARSER_H_
#define TFQ_PIPELINE_EXAMPLE_PARSER_H_

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "example/example_view.h"
#include "pipeline/batch.h"
#include "pipeline/options.h"

namespace tfq::pipeline {

class ExampleParser {
 public:
  // `specs` must outlive the parser; the batches it fills must come from ResetBatch(specs).
  explicit ExampleParser(const std::vector<FeatureSpec>* specs);

  // Appends the record's values to the columns of *batch (one row; the caller counts rows and
  // keeps records/sources, and for BytesLayout::kViews columns adds the block the record lives
  // in to batch->blocks). On error the columns are left exactly as they were.
  Status AppendRow(std::string_view record, Batch* batch);

 private:
  Status AppendFeature(const FeatureSpec& spec, const FeatureView* feature, Column* column,
                       Batch* batch);
  Status AppendMissing(const FeatureSpec& spec, Column* column, Batch* batch);
  void AppendBytes(Column* column, Batch* batch, std::string_view value);
  // The error for a list that failed to decode, naming its byte in the record.
  Status ListError(const FeatureView& feature, const Status& decoded) const;
  // The one-pass decoder for the layout every serializer writes: one `features` field, each map
  // entry its key then its value, each Feature at most one list, no spec key twice. It walks the
  // record once, looks each key up among the specs and appends the spec features' values as it
  // meets them, with no ExampleView in between. Returns false, with the columns as they were,
  // for any other layout and for any error: the full decoder below then gives protobuf's
  // semantics and the same error as always (and for the same spec, the first in spec order).
  bool TryAppendRowDirect(std::string_view record, Batch* batch);
  // One map entry at p (advanced past it): its Feature's values appended if a spec asks for its
  // key. False for a layout or an error the full decoder must handle.
  bool AppendEntryDirect(size_t entry, const char*& p, const char* end, Batch* batch);
  // The spec whose key is `key`, met as map entry `entry` (kNoSpec for a key no spec asks for).
  uint32_t SpecOf(size_t entry, std::string_view key);
  static constexpr uint32_t kNoSpec = UINT32_MAX;

  const std::vector<FeatureSpec>* specs_;
  // The direct decoder's: spec index per key; per map entry position, the spec found there last
  // (kNoSpec: none); per spec, the row it was last met in (a second meeting is a duplicate key).
  bool direct_ = true;  // spec keys are distinct (the options' validation makes sure)
  std::unordered_map<std::string_view, uint32_t> spec_of_key_;
  std::vector<uint32_t> entry_hints_;
  std::vector<uint64_t> met_in_row_;
  uint64_t row_ = 0;
  ExampleView view_;
  std::string_view record_;  // the record being appended
  std::vector<internal::ColumnMark> marks_;
};

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_EXAMPLE_PARSER_H_
