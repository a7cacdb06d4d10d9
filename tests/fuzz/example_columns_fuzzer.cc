// Fuzz target: the pipeline's column parser (pipeline::ExampleParser) against the Example decoder
// it shortcuts (ExampleView with every list checked, then ForEach* per feature).
//
// ExampleParser checks only the lists it decodes, finds keys through a hint from the previous
// record, and decodes packed int64 runs in place; none of that may change a value. For one record:
//  - if ExampleView parses it, ExampleParser with a VarLen spec per feature (bytes in the layout
//    the first input byte picks) succeeds, twice in a row (the hint path), and every column holds
//    exactly the view's values, with the row splits of two rows;
//  - whatever the record, with specs for the keys a lenient parse finds (and one absent key),
//    ExampleParser returns a status without crashing, a failed row leaves the batch as it was,
//    and the record with an unknown field after it (which the one-pass decoder leaves to the full
//    decoder) gives the same status and the same columns.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "example/example_view.h"
#include "fuzz_check.h"
#include "pipeline/batch.h"
#include "pipeline/example_parser.h"

namespace {

using tfq::pipeline::Batch;
using tfq::pipeline::BytesLayout;
using tfq::pipeline::Column;
using tfq::pipeline::ExampleParser;
using tfq::pipeline::FeatureSpec;

std::vector<FeatureSpec> SpecsOf(const tfq::FeaturesView& features, BytesLayout layout) {
  std::vector<FeatureSpec> specs;
  for (const tfq::FeaturesView::Entry& e : features.entries()) {
    const std::string key(e.key);
    switch (e.feature.kind()) {
      case tfq::FeatureKind::kInt64: specs.push_back(tfq::pipeline::VarLenInt64(key)); break;
      case tfq::FeatureKind::kFloat: specs.push_back(tfq::pipeline::VarLenFloat(key)); break;
      case tfq::FeatureKind::kBytes: specs.push_back(tfq::pipeline::VarLenBytes(key, layout)); break;
      case tfq::FeatureKind::kNone: break;
    }
  }
  return specs;
}

// Row `row` of the column equals the view's values of the feature.
void CheckRow(const Column& c, size_t row, const tfq::FeatureView& feature) {
  size_t begin, end;
  c.RowRange(row, &begin, &end);
  size_t i = begin;
  switch (c.dtype) {
    case tfq::pipeline::DType::kInt64:
      FUZZ_CHECK(feature.ForEachInt64([&](int64_t v) { FUZZ_CHECK(i < end && c.int64_values[i++] == v); }).ok());
      break;
    case tfq::pipeline::DType::kFloat:
      FUZZ_CHECK(feature.ForEachFloat([&](float v) {
        FUZZ_CHECK(i < end);
        const float got = c.float_values[i++];
        FUZZ_CHECK(std::memcmp(&got, &v, sizeof v) == 0);  // NaN payloads too
      }).ok());
      break;
    case tfq::pipeline::DType::kBytes:
      FUZZ_CHECK(feature.ForEachBytes([&](std::string_view v) { FUZZ_CHECK(i < end && c.bytes_value(i++) == v); }).ok());
      break;
  }
  FUZZ_CHECK(i == end);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const BytesLayout layout = static_cast<BytesLayout>(data[0] % 3);
  const std::string record(reinterpret_cast<const char*>(data) + 1, size - 1);

  tfq::ExampleView strict;
  if (strict.Parse(record).ok()) {
    const std::vector<FeatureSpec> specs = SpecsOf(strict.features(), layout);
    ExampleParser parser(&specs);
    Batch batch;
    tfq::pipeline::internal::ResetBatch(specs, &batch);
    for (size_t row = 0; row < 2; ++row) {
      const tfq::Status s = parser.AppendRow(record, &batch);
      if (!s.ok()) std::fprintf(stderr, "%s\n", s.ToString().c_str());
      FUZZ_CHECK(s.ok());
    }
    for (size_t c = 0; c < specs.size(); ++c) {
      const tfq::FeatureView* feature = strict.features().Find(specs[c].key);
      FUZZ_CHECK(feature != nullptr);
      CheckRow(batch.columns[c], 0, *feature);
      CheckRow(batch.columns[c], 1, *feature);
    }
    return 0;
  }

  tfq::ExampleView lenient;
  if (!lenient.Parse(record, tfq::ListValidation::kOnUse).ok()) return 0;
  std::vector<FeatureSpec> specs = SpecsOf(lenient.features(), layout);
  specs.push_back(tfq::pipeline::VarLenInt64(std::string("\xff absent", 8)));
  ExampleParser parser(&specs);
  Batch batch;
  tfq::pipeline::internal::ResetBatch(specs, &batch);
  std::vector<tfq::pipeline::internal::ColumnMark> before, after;
  tfq::pipeline::internal::MarkColumns(batch, &before);
  const tfq::Status status = parser.AppendRow(record, &batch);
  if (!status.ok()) {
    tfq::pipeline::internal::MarkColumns(batch, &after);
    for (size_t c = 0; c < before.size(); ++c) {
      FUZZ_CHECK(std::memcmp(&before[c], &after[c], sizeof before[c]) == 0);  // rolled back
    }
  }
  const std::string with_unknown_field = record + std::string("\x78\x00", 2);  // field 15, varint 0
  ExampleParser full_parser(&specs);
  Batch full;
  tfq::pipeline::internal::ResetBatch(specs, &full);
  const tfq::Status full_status = full_parser.AppendRow(with_unknown_field, &full);
  FUZZ_CHECK(status.code() == full_status.code() && status.message() == full_status.message());
  for (size_t c = 0; status.ok() && c < specs.size(); ++c) {
    const Column& a = batch.columns[c];
    const Column& b = full.columns[c];
    FUZZ_CHECK(a.int64_values == b.int64_values && a.row_splits == b.row_splits);
    FUZZ_CHECK(a.float_values.size() == b.float_values.size());
    for (size_t i = 0; i < a.float_values.size(); ++i) {
      FUZZ_CHECK(std::memcmp(&a.float_values[i], &b.float_values[i], sizeof(float)) == 0);  // NaN payloads too
    }
    FUZZ_CHECK(a.num_values() == b.num_values());
    for (size_t i = 0; a.dtype == tfq::pipeline::DType::kBytes && i < a.num_values(); ++i) {
      FUZZ_CHECK(a.bytes_value(i) == b.bytes_value(i));
    }
  }
  return 0;
}
