#include "csv/example_rows.h"

#include <algorithm>
#include <cstring>

#include "csv/values.h"
#include "example/wire_format.h"

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

// --- RowExampleWriter ----------------------------------------------------------------------------

namespace tfq::csv {
namespace {

constexpr size_t kCopySlack = 32;  // as KeyedExampleEncoder: short copies are fixed 32-byte ones

char* CopySmall(char* p, const char* src, size_t n) {
  std::memcpy(p, src, n <= kCopySlack ? kCopySlack : n);
  return p + n;
}

// ParseInt64 for up to 8 digits without a branch per digit (the length of numbers in a column
// varies, and a digit loop mispredicts its exit on almost every field): the digits are loaded as
// one 8-byte word, checked and combined with three multiplies (simdjson's method). The word may
// reach past the field but must lie within `memory` (the chunk); fields elsewhere, long ones and
// those starting with 0 go to ParseInt64. Same results as ParseInt64.
inline bool ParseInt64Word(std::string_view text, std::string_view memory, int64_t* out) {
  const bool negative = !text.empty() && text[0] == '-';
  const char* const digits = text.data() + negative;
  const size_t n = text.size() - negative;
  const uintptr_t at = reinterpret_cast<uintptr_t>(digits) - reinterpret_cast<uintptr_t>(memory.data());
  if (n - 1 >= 8 || at + 8 > memory.size() || digits[0] == '0') {
    return ParseInt64(text, out);  // long, at the end of the memory, "0" or a leading zero
  }
  uint64_t word;
  std::memcpy(&word, digits, 8);
  const unsigned shift = static_cast<unsigned>(8 * (8 - n));
  word <<= shift;  // the digits on top, zero bytes (digit 0) below: leading zeros
  const uint64_t mask = ~uint64_t{0} << shift;
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0u;
  constexpr uint64_t kZeros = 0x3030303030303030u;
  const uint64_t bad = ((word & kHigh) ^ kZeros) | (((word + 0x0606060606060606u) & kHigh) ^ kZeros);
  if ((bad & mask) != 0) return false;
  word = (word & 0x0F0F0F0F0F0F0F0Fu) * 2561 >> 8;
  word = (word & 0x00FF00FF00FF00FFu) * 6553601 >> 16;
  const uint64_t v = (word & 0x0000FFFF0000FFFFu) * 42949672960001u >> 32;
  *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

std::vector<std::string> KeysOf(const RowConverter& converter) {
  std::vector<std::string> keys;
  for (size_t col = 0; col < converter.num_columns(); ++col) keys.push_back(converter.spec(col).name);
  return keys;
}

FeatureKind FeatureKindOf(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::kInt64: return FeatureKind::kInt64;
    case ColumnKind::kFloat: return FeatureKind::kFloat;
    case ColumnKind::kBytes: break;
  }
  return FeatureKind::kBytes;
}

}  // namespace

RowExampleWriter::RowExampleWriter(const RowConverter& converter)
    : converter_(converter), encoder_(KeysOf(converter)), na_(converter.na()) {
  for (size_t col = 0; col < converter.num_columns(); ++col) {
    const ColumnSpec& spec = converter.spec(col);
    Column c;
    c.field = static_cast<uint32_t>(converter.field(col));
    c.separator = spec.list_separator;
    c.missing_is_error = spec.required && !converter.has_default(col);
    const size_t feature_room = encoder_.FeatureRoom(col);
    // Value bytes per field byte: a list of k elements has k - 1 separators, so k <= size + 1,
    // and an element takes at most 10 bytes (int64), 4 (float) or 11 + its size (bytes).
    switch (spec.kind) {
      case ColumnKind::kInt64:
        c.mode = spec.list_separator ? Mode::kInt64List : Mode::kInt64;
        break;
      case ColumnKind::kFloat:
        c.mode = spec.list_separator ? Mode::kFloatList : Mode::kFloat;
        break;
      case ColumnKind::kBytes:
        c.mode = spec.list_separator ? Mode::kBytesList : Mode::kBytes;
        break;
    }
    c.room = feature_room + 11;
    c.room_per_byte = spec.list_separator ? 12 : spec.kind == ColumnKind::kBytes ? 1 : 0;

    // The entry of a missing value: the default, or an empty list.
    const auto ints = converter.default_int64s(col);
    const auto floats = converter.default_floats(col);
    const auto strings = converter.default_bytes(col);
    std::vector<std::string_view> views(strings.begin(), strings.end());
    size_t values = 10 * ints.size() + 4 * floats.size();
    for (const std::string& s : strings) values += 11 + s.size();
    std::string entry(feature_room + values, '\0');
    char* p = entry.data();
    if (!ints.empty()) {
      p = encoder_.Int64s(col, ints, p);
    } else if (!floats.empty()) {
      p = encoder_.Floats(col, floats, p);
    } else if (!views.empty()) {
      p = encoder_.BytesList(col, views, p);
    } else {
      p = encoder_.Empty(col, FeatureKindOf(spec.kind), p);
    }
    c.missing = static_cast<uint32_t>(missing_.size());
    c.missing_size = static_cast<uint32_t>(p - entry.data());
    missing_.append(entry.data(), c.missing_size);
    c.room = std::max(c.room, c.missing_size + kCopySlack);
    c.room += wire::kMaxVarintBytes;  // EndRecord may move the features that far
    columns_.push_back(c);
  }
  missing_.append(kCopySlack, '\0');
}

char* RowExampleWriter::Grow(ByteBuffer* out, char* p, size_t need, char** limit) {
  out->CommitTo(p);
  char* q = out->Reserve(need);
  *limit = q + (out->capacity() - out->size());
  return q;
}

Status RowExampleWriter::Error(const RowBatch& batch, size_t row) {
  Status s = converter_.Convert(batch, row);
  if (s.ok()) {
    return Status::Internal(batch.Where(row, std::string::npos, {}) +
                            ": the CSV row writer and converter disagree");
  }
  return s;
}

Status RowExampleWriter::Append(const RowBatch& batch, size_t row, ByteBuffer* out) {
  const std::span<const std::string_view> fields = batch.row(row);
  const size_t start = out->size();
  char* p = out->Reserve(KeyedExampleEncoder::kRecordRoom);
  char* limit = p + (out->capacity() - start);
  p = encoder_.BeginRecord(p);
  auto fail = [&] {
    out->CommitTo(out->data() + start);
    return Error(batch, row);
  };
  for (size_t col = 0; col < columns_.size(); ++col) {
    const Column& c = columns_[col];
    const std::string_view text = c.field < fields.size() ? fields[c.field] : std::string_view();
    const size_t need = c.room + c.room_per_byte * text.size();
    if (static_cast<size_t>(limit - p) < need) p = Grow(out, p, need, &limit);
    if (na_.IsMissing(text)) {
      if (c.missing_is_error) return fail();
      p = CopySmall(p, missing_.data() + c.missing, c.missing_size);
      continue;
    }
    bool ok = true;
    switch (c.mode) {
      case Mode::kInt64: {
        int64_t v;
        if (!ParseInt64Word(text, batch.data(), &v)) return fail();
        p = encoder_.Int64(col, v, p);
        break;
      }
      case Mode::kFloat: {
        float v;
        if (ParseFloat(text, &v) != FloatParse::kOk) return fail();
        p = encoder_.Float(col, v, p);
        break;
      }
      case Mode::kBytes:
        p = encoder_.Bytes(col, text, p);
        break;
      case Mode::kInt64List:
        int64s_.clear();
        ForEachListElement(text, c.separator, [&](std::string_view e) {
          int64_t v;
          if (ok && ParseInt64(e, &v)) {
            int64s_.push_back(v);
          } else {
            ok = false;
          }
        });
        if (!ok) return fail();
        p = encoder_.Int64s(col, int64s_, p);
        break;
      case Mode::kFloatList:
        floats_.clear();
        ForEachListElement(text, c.separator, [&](std::string_view e) {
          float v;
          if (ok && ParseFloat(e, &v) == FloatParse::kOk) {
            floats_.push_back(v);
          } else {
            ok = false;
          }
        });
        if (!ok) return fail();
        p = encoder_.Floats(col, floats_, p);
        break;
      case Mode::kBytesList:
        bytes_.clear();
        ForEachListElement(text, c.separator, [&](std::string_view e) { bytes_.push_back(e); });
        p = encoder_.BytesList(col, bytes_, p);
        break;
    }
  }
  if (static_cast<size_t>(limit - p) < wire::kMaxVarintBytes) {
    p = Grow(out, p, wire::kMaxVarintBytes, &limit);
  }
  out->CommitTo(encoder_.EndRecord(out->data() + start, p));
  return Status::OK();
}

}  // namespace tfq::csv
