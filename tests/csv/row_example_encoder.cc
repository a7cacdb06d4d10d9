#include "row_example_encoder.h"

namespace tfq::csv {

void RowExampleEncoder::Encode(const RowConverter& converter, std::string* out) {
  encoder_.Clear();
  for (size_t col = 0; col < converter.num_columns(); ++col) {
    const ColumnSpec& spec = converter.spec(col);
    switch (spec.kind) {
      case ColumnKind::kInt64: {
        const auto v = converter.int64s(col);
        if (v.empty()) {
          encoder_.AddEmpty(spec.name, FeatureKind::kInt64);
        } else {
          encoder_.AddInt64s(spec.name, v.data(), v.size());
        }
        break;
      }
      case ColumnKind::kFloat: {
        const auto v = converter.floats(col);
        if (v.empty()) {
          encoder_.AddEmpty(spec.name, FeatureKind::kFloat);
        } else {
          encoder_.AddFloats(spec.name, v.data(), v.size());
        }
        break;
      }
      case ColumnKind::kBytes: {
        const auto v = converter.bytes(col);
        if (v.empty()) {
          encoder_.AddEmpty(spec.name, FeatureKind::kBytes);
        } else if (v.size() == 1) {
          encoder_.AddBytes(spec.name, v[0]);
        } else {
          bytes_.assign(v.begin(), v.end());
          encoder_.AddBytes(spec.name, bytes_);
        }
        break;
      }
    }
  }
  encoder_.Finish(out);
}

}  // namespace tfq::csv
