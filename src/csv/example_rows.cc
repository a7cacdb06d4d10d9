#include "csv/example_rows.h"

#include <algorithm>
#include <cstring>

#include "csv/values.h"
#include "example/wire_format.h"

namespace tfq::csv {

}  // namespace tfq::csv

// --- RowExampleWriter ----------------------------------------------------------------------------

namespace tfq::csv {
namespace {

constexpr size_t kCopySlack = 32;  // as KeyedExampleEncoder: short copies are fixed 32-byte ones

char* CopySmall(char* p, const char* src, size_t n) {
  std::memcpy(p, src, n <= kCopySlack ? kCopySlack : n);
  return p + n;
}

// The value of the first m (1..8) bytes of `word` (loaded little-endian from the text) if they
// are all digits: the digits are moved to the top, zero bytes below them act as leading zeros, and
// three multiplies combine them (simdjson's method).
inline bool LeadingDigits(uint64_t word, size_t m, uint64_t* value) {
  const unsigned shift = static_cast<unsigned>(8 * (8 - m));
  word <<= shift;
  const uint64_t mask = ~uint64_t{0} << shift;
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0u;
  constexpr uint64_t kZeros = 0x3030303030303030u;
  const uint64_t bad = ((word & kHigh) ^ kZeros) | (((word + 0x0606060606060606u) & kHigh) ^ kZeros);
  if ((bad & mask) != 0) return false;
  word = (word & 0x0F0F0F0F0F0F0F0Fu) * 2561 >> 8;
  word = (word & 0x00FF00FF00FF00FFu) * 6553601 >> 16;
  *value = (word & 0x0000FFFF0000FFFFu) * 42949672960001u >> 32;
  return true;
}

inline uint64_t Load8(const char* p) {
  uint64_t word;
  std::memcpy(&word, p, 8);
  return word;
}

// ParseInt64 without a branch per digit (the length of numbers in a column varies, and a digit
// loop mispredicts its exit on almost every field, and chains a multiply per digit): up to 8
// digits as one 8-byte word, up to 16 as two and up to 19 as three. A number of fewer than 8
// digits is read as a word that may reach past the field but must lie within `memory` (the
// chunk); one at the end of the memory and those starting with 0 go to ParseInt64. Same results
// as ParseInt64.
inline bool ParseInt64Word(std::string_view text, std::string_view memory, int64_t* out) {
  const bool negative = !text.empty() && text[0] == '-';
  const char* const digits = text.data() + negative;
  const size_t n = text.size() - negative;
  if (n - 1 >= 19 || digits[0] == '0') {
    return ParseInt64(text, out);  // empty, too long, "0" or a leading zero
  }
  uint64_t v;
  if (n <= 8) {
    const uintptr_t at =
        reinterpret_cast<uintptr_t>(digits) - reinterpret_cast<uintptr_t>(memory.data());
    if (at + 8 > memory.size()) return ParseInt64(text, out);
    if (!LeadingDigits(Load8(digits), n, &v)) return false;
  } else if (n <= 16) {  // the first n - 8 digits, then the last 8: both words inside the field
    uint64_t low;
    if (!LeadingDigits(Load8(digits), n - 8, &v) || !LeadingDigits(Load8(digits + n - 8), 8, &low)) {
      return false;
    }
    v = v * 100000000 + low;
  } else {  // 17 to 19 digits: at most 999 * 10^16 + ... < 2^64, so no wrap before the check
    uint64_t middle, low;
    if (!LeadingDigits(Load8(digits), n - 16, &v) ||
        !LeadingDigits(Load8(digits + n - 16), 8, &middle) ||
        !LeadingDigits(Load8(digits + n - 8), 8, &low)) {
      return false;
    }
    v = (v * 100000000 + middle) * 100000000 + low;
    constexpr uint64_t kMax = uint64_t{0x7fffffffffffffff};
    if (v > kMax + negative) return false;
  }
  *out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);  // C++20: wraps
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
    : converter_(converter), encoder_(KeysOf(converter)), na_(converter.na()),
      has_na_(!converter.na().na_values().empty()) {
  row_room_ = KeyedExampleEncoder::kRecordRoom;
  for (size_t col = 0; col < converter.num_columns(); ++col) {
    const ColumnSpec& spec = converter.spec(col);
    Column c;
    c.field = static_cast<uint32_t>(converter.field(col));
    fields_needed_ = std::max<size_t>(fields_needed_, c.field + 1);
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
    size_t room = feature_room + 11;
    const size_t room_per_byte = spec.list_separator ? 12 : spec.kind == ColumnKind::kBytes ? 1 : 0;

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
    room = std::max(room, c.missing_size + kCopySlack);
    row_room_ += room + wire::kMaxVarintBytes;  // EndRecord may move the features that far
    room_per_byte_ = std::max(room_per_byte_, room_per_byte);  // the fields are disjoint
    columns_.push_back(c);
  }
  missing_.append(kCopySlack, '\0');
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
  std::span<const std::string_view> fields = batch.row(row);
  if (fields.size() < fields_needed_) [[unlikely]] {  // absent fields are empty, as in the converter
    short_row_.assign(fields.begin(), fields.end());
    short_row_.resize(fields_needed_);
    fields = short_row_;
  }
  const std::string_view memory = batch.data();
  const size_t start = out->size();
  // Room for the whole row at once: one check per row instead of one per column.
  char* p = out->Reserve(row_room_ + room_per_byte_ * batch.RowBytes(row));
  p = encoder_.BeginRecord(p);
  auto fail = [&] {
    out->CommitTo(out->data() + start);
    return Error(batch, row);
  };
  // Members in locals: every byte written through `p` may alias them (a char store), so the
  // compiler would load them again after each write.
  const Column* const columns = columns_.data();
  const size_t num_columns = columns_.size();
  const char* const missing = missing_.data();
  const bool has_na = has_na_;
  for (size_t col = 0; col < num_columns; ++col) {
    const Column& c = columns[col];
    const std::string_view text = fields[c.field];
    if (text.empty() || (has_na && na_.IsMissing(text))) {
      if (c.missing_is_error) return fail();
      p = CopySmall(p, missing + c.missing, c.missing_size);
      continue;
    }
    bool ok = true;
    switch (c.mode) {
      case Mode::kInt64: {
        int64_t v;
        if (!ParseInt64Word(text, memory, &v)) return fail();
        p = encoder_.Int64(col, v, p);
        break;
      }
      case Mode::kFloat: {
        float v;
        if (ParseFloat(text, &v) != FloatParse::kOk) return fail();
        p = encoder_.Float(col, v, p);
        break;
      }
      case Mode::kBytes: {
        // A view into the chunk with 32 bytes after its start is copied without a memcpy call
        // (an unescaped value lies in the batch's scratch, outside `memory`: never padded).
        const uintptr_t at =
            reinterpret_cast<uintptr_t>(text.data()) - reinterpret_cast<uintptr_t>(memory.data());
        p = encoder_.Bytes(col, text, p, at + kCopySlack <= memory.size());
        break;
      }
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
      default:
        __builtin_unreachable();  // no range check before the jump table
    }
  }
  out->CommitTo(encoder_.EndRecord(out->data() + start, p));
  return Status::OK();
}

}  // namespace tfq::csv
