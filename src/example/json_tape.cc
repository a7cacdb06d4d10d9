#include "example/json_tape.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <memory>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "common/json_output.h"
#include "common/json_text.h"
#include "common/swar.h"
#include "example/wire_format.h"

namespace tfq {

// --- reading ------------------------------------------------------------------------------------

std::string_view JsonTape::StringAt(uint64_t offset) const {
  uint64_t length = 0;
  const char* begin = strings_.data() + offset;
  const char* p = wire::DecodeVarint(begin, strings_.data() + strings_.size(), &length);
  return std::string_view(p, static_cast<size_t>(length));
}

size_t JsonTape::Skip(size_t index) const {
  const uint64_t slot = slots_[index];
  const Tag tag = TagOf(slot);
  return tag == kArray || tag == kObject ? static_cast<size_t>(PayloadOf(slot)) : index + 1;
}

void JsonTape::ReleaseIfLarger(size_t bytes) {
  if (slots_.capacity() * sizeof(uint64_t) > bytes) std::vector<uint64_t>().swap(slots_);
  if (numbers_.capacity() * sizeof(uint64_t) > bytes) std::vector<uint64_t>().swap(numbers_);
  if (strings_.capacity() > bytes) std::string().swap(strings_);
}

JsonNode::Type JsonNode::type() const {
  // By tag, in JsonTape::Tag's order: a load instead of a switch, as the readers ask every value.
  static constexpr Type kTypeOfTag[] = {
      Type::kNull,     Type::kBoolean,  Type::kBoolean, Type::kInteger, Type::kInteger, Type::kUnsigned,
      Type::kUnsigned, Type::kFloat,    Type::kString,  Type::kString,  Type::kArray,   Type::kObject};
  static_assert(JsonTape::kObject == 11 && JsonTape::kString == 8 && JsonTape::kFloat == 7);
  return kTypeOfTag[JsonTape::TagOf(tape_->slots_[index_])];
}

bool JsonNode::boolean() const { return JsonTape::TagOf(tape_->slots_[index_]) == JsonTape::kTrue; }

int64_t JsonNode::integer() const {
  const uint64_t slot = tape_->slots_[index_];
  const uint64_t payload = JsonTape::PayloadOf(slot);
  switch (JsonTape::TagOf(slot)) {
    case JsonTape::kSmallInteger:  // sign-extend the 60-bit payload
      return static_cast<int64_t>(payload << (64 - JsonTape::kPayloadBits)) >> (64 - JsonTape::kPayloadBits);
    case JsonTape::kSmallUnsigned: return static_cast<int64_t>(payload);
    default: return static_cast<int64_t>(tape_->numbers_[payload]);
  }
}

uint64_t JsonNode::unsigned_integer() const {
  const uint64_t slot = tape_->slots_[index_];
  const uint64_t payload = JsonTape::PayloadOf(slot);
  return JsonTape::TagOf(slot) == JsonTape::kSmallUnsigned ? payload : tape_->numbers_[payload];
}

double JsonNode::number_float() const {
  double d;
  std::memcpy(&d, &tape_->numbers_[JsonTape::PayloadOf(tape_->slots_[index_])], sizeof d);
  return d;
}

std::string_view JsonNode::string() const {
  return tape_->StringAt(JsonTape::PayloadOf(tape_->slots_[index_]));
}

JsonMembers JsonNode::members() const {
  return JsonMembers(tape_, index_ + 1, tape_->Skip(index_), is_object());
}

size_t JsonNode::size() const {
  size_t n = 0;
  for (JsonMembers m = members(); !m.done(); m.Next()) ++n;
  return n;
}

bool JsonNode::empty() const { return tape_->Skip(index_) == index_ + 1; }

JsonNode JsonNode::find(std::string_view key) const {
  for (JsonMembers m = members(); !m.done(); m.Next()) {
    if (m.key() == key) return m.value();
  }
  return JsonNode();
}

JsonMembers::JsonMembers(const JsonTape* tape, size_t index, size_t end, bool object)
    : tape_(tape), index_(object && index < end ? index + 1 : index), end_(end), object_(object) {}

std::string_view JsonMembers::key() const {
  return object_ ? tape_->StringAt(JsonTape::PayloadOf(tape_->slots_[index_ - 1])) : std::string_view();
}

void JsonMembers::Next() {
  index_ = tape_->Skip(index_);
  if (object_ && index_ < end_) ++index_;  // past the next member's key
}

// --- parsing ------------------------------------------------------------------------------------

// nlohmann's SAX events -> slots. Friend of JsonTape.
class JsonTapeBuilder {
 public:
  using Json = nlohmann::json;
  explicit JsonTapeBuilder(JsonTape* tape) : tape_(tape) {}

  bool null() { return Push(JsonTape::kNull, 0); }
  bool boolean(bool v) { return Push(v ? JsonTape::kTrue : JsonTape::kFalse, 0); }
  bool number_integer(Json::number_integer_t v) {
    constexpr int64_t kLimit = int64_t{1} << (JsonTape::kPayloadBits - 1);
    if (v >= -kLimit && v < kLimit) return Push(JsonTape::kSmallInteger, static_cast<uint64_t>(v) & JsonTape::kPayloadMask);
    return PushNumber(JsonTape::kInteger, static_cast<uint64_t>(v));
  }
  bool number_unsigned(Json::number_unsigned_t v) {
    if (v <= JsonTape::kPayloadMask) return Push(JsonTape::kSmallUnsigned, v);
    return PushNumber(JsonTape::kUnsigned, v);
  }
  bool number_float(Json::number_float_t v, const std::string&) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return PushNumber(JsonTape::kFloat, bits);
  }
  bool string(std::string& v) { return Push(JsonTape::kString, AppendString(v)); }
  bool binary(Json::binary_t&) { return false; }  // not produced by the JSON parser

  bool start_object(size_t) { return Open(JsonTape::kObject); }
  bool start_array(size_t) { return Open(JsonTape::kArray); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }

  bool key(std::string& key) {
    Frame& frame = frames_.back();
    const uint64_t offset = AppendString(key);
    if (IsRepeat(&frame, offset, key)) {
      error_ = "duplicate key " + QuotedKeyText(key) + Path() +
               " (each key may appear once; the value would be lost)";
      return false;
    }
    frame.last_key = offset;
    tape_->slots_.push_back(Slot(JsonTape::kKey, offset));
    return true;
  }

  bool parse_error(size_t position, const std::string&, const nlohmann::json::exception& e) {
    std::string what = e.what();
    const size_t colon = what.find("syntax error");  // drop "[json.exception.parse_error.101] "
    error_ = "not valid JSON at byte " + std::to_string(position > 0 ? position - 1 : 0) + " (" +
             (colon == std::string::npos ? what : what.substr(colon)) + ")";
    return false;
  }

  const std::string& error() const { return error_; }

 private:
  // Below this many keys a scan of the members finds a repeat faster than a hash set is built.
  static constexpr size_t kLinearScanKeys = 16;

  // Key offsets into the arena, hashed and compared by the strings they point to.
  struct KeyHash {
    const std::string* arena;
    size_t operator()(uint64_t offset) const { return std::hash<std::string_view>()(View(*arena, offset)); }
  };
  struct KeyEqual {
    const std::string* arena;
    bool operator()(uint64_t a, uint64_t b) const { return View(*arena, a) == View(*arena, b); }
  };
  using KeySet = std::unordered_set<uint64_t, KeyHash, KeyEqual>;

  struct Frame {
    size_t slot;              // the container's slot
    bool object;
    size_t values = 0;        // an array's elements so far, an object's keys so far
    uint64_t last_key = 0;    // an object's newest key (for messages)
    std::unique_ptr<KeySet> keys;  // objects past kLinearScanKeys keys
  };

  static std::string_view View(const std::string& arena, uint64_t offset) {
    uint64_t length = 0;
    const char* p = wire::DecodeVarint(arena.data() + offset, arena.data() + arena.size(), &length);
    return std::string_view(p, static_cast<size_t>(length));
  }
  static uint64_t Slot(JsonTape::Tag tag, uint64_t payload) {
    return static_cast<uint64_t>(tag) << JsonTape::kPayloadBits | payload;
  }

  void CountValue() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().values;
  }
  bool Push(JsonTape::Tag tag, uint64_t payload) {
    CountValue();
    tape_->slots_.push_back(Slot(tag, payload));
    return true;
  }
  bool PushNumber(JsonTape::Tag tag, uint64_t bits) {
    tape_->numbers_.push_back(bits);
    return Push(tag, tape_->numbers_.size() - 1);
  }
  uint64_t AppendString(std::string_view s) {
    const uint64_t offset = tape_->strings_.size();
    wire::AppendVarint(s.size(), &tape_->strings_);
    tape_->strings_.append(s);
    return offset;
  }
  bool Open(JsonTape::Tag tag) {
    Push(tag, 0);
    frames_.push_back(Frame{tape_->slots_.size() - 1, tag == JsonTape::kObject, 0, 0, nullptr});
    return true;
  }
  bool Close() {
    tape_->slots_[frames_.back().slot] |= tape_->slots_.size();
    frames_.pop_back();
    return true;
  }

  bool IsRepeat(Frame* frame, uint64_t offset, std::string_view key) {
    ++frame->values;
    if (frame->keys == nullptr) {
      const std::vector<uint64_t>& slots = tape_->slots_;
      for (size_t i = frame->slot + 1; i < slots.size(); i = tape_->Skip(i + 1)) {
        if (View(tape_->strings_, JsonTape::PayloadOf(slots[i])) == key) return true;
      }
      if (frame->values < kLinearScanKeys) return false;
      frame->keys = std::make_unique<KeySet>(0, KeyHash{&tape_->strings_}, KeyEqual{&tape_->strings_});
      for (size_t i = frame->slot + 1; i < slots.size(); i = tape_->Skip(i + 1)) {
        frame->keys->insert(JsonTape::PayloadOf(slots[i]));
      }
      frame->keys->insert(offset);
      return false;
    }
    return !frame->keys->insert(offset).second;
  }

  // " in [\"a\"][2][\"b\"]": the keys of the enclosing objects, for messages ("" at the top level).
  std::string Path() const {
    std::string path;
    for (size_t i = 0; i + 1 < frames_.size(); ++i) {
      path.push_back('[');
      path += frames_[i].object ? QuotedKeyText(View(tape_->strings_, frames_[i].last_key))
                                : std::to_string(frames_[i].values - 1);
      path.push_back(']');
    }
    return path.empty() ? path : path.insert(0, " in ");
  }

  static std::string QuotedKeyText(std::string_view key) { return ToJsonText(nlohmann::json(key)); }

  JsonTape* tape_;
  std::vector<Frame> frames_;
  std::string error_;
};

namespace {

// The builder's events straight from the bytes, for well-formed text: the events nlohmann's SAX
// parser gives for it, in the same order with the same values (a scan of bytes, against its
// lexer's byte-at-a-time reads and a string grown a byte at a time: the lexer was a fifth of
// converting JSON lines). It gives up (false) on anything else (a syntax error, a control
// character or invalid UTF-8 in a string, a lone surrogate, a number that does not fit its
// type, a byte order mark, nesting past the guard's max_depth, a key the builder refuses), and
// JsonTape::Parse then parses the text with nlohmann, whose answer and messages are the only
// ones a user sees.
class DirectJsonParser {
 public:
  // `max_depth`: at most kMaxDepth.
  DirectJsonParser(std::string_view text, int max_depth, JsonTapeBuilder* builder)
      : p_(text.data()), end_(text.data() + text.size()), max_depth_(std::min(max_depth, kMaxDepth)),
        builder_(builder) {}

  bool Parse() {
    SkipSpace();
    if (!Value(0)) return false;
    SkipSpace();
    return p_ == end_;
  }

 private:
  // Recursion depth, so that the stack stays small whatever the text (nlohmann's parser keeps
  // its own stack and takes over past this).
  static constexpr int kMaxDepth = 128;

  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }
  void SkipSpace() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool Take(char c) {
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool Literal(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) return false;
    p_ += word.size();
    return true;
  }

  bool Value(int depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{': return Object(depth + 1);
      case '[': return Array(depth + 1);
      case '"': return String() && builder_->string(scratch_);
      case 't': return Literal("true") && builder_->boolean(true);
      case 'f': return Literal("false") && builder_->boolean(false);
      case 'n': return Literal("null") && builder_->null();
      default: return Number();
    }
  }

  bool Object(int depth) {
    if (depth > max_depth_) return false;
    ++p_;
    if (!builder_->start_object(static_cast<size_t>(-1))) return false;
    SkipSpace();
    if (Take('}')) return builder_->end_object();
    while (true) {
      if (p_ == end_ || *p_ != '"' || !String() || !builder_->key(scratch_)) return false;
      SkipSpace();
      if (!Take(':')) return false;
      SkipSpace();
      if (!Value(depth)) return false;
      SkipSpace();
      if (Take('}')) return builder_->end_object();
      if (!Take(',')) return false;
      SkipSpace();
    }
  }

  bool Array(int depth) {
    if (depth > max_depth_) return false;
    ++p_;
    if (!builder_->start_array(static_cast<size_t>(-1))) return false;
    SkipSpace();
    if (Take(']')) return builder_->end_array();
    while (true) {
      if (!Value(depth)) return false;
      SkipSpace();
      if (Take(']')) return builder_->end_array();
      if (!Take(',')) return false;
      SkipSpace();
    }
  }

  // A string, *p_ being its opening quote, unescaped into scratch_.
  bool String() {
    ++p_;
    scratch_.clear();
    bool high = false;  // bytes of 0x80 and above: UTF-8 to check
    while (true) {
      const char* run = p_;
      uint64_t run_bits = 0;  // the bytes passed eight at a time, OR'ed: their high bits
      for (; end_ - p_ >= 8; p_ += 8) {
        const uint64_t word = swar::Load(p_);
        const uint64_t stop = swar::Equal(word, '"') | swar::Equal(word, '\\') | swar::Below(word, 0x20);
        if (stop != 0) {
          const size_t first = swar::FirstFlagged(stop);
          run_bits |= word & swar::LanesBefore(first);
          p_ += first;
          break;
        }
        run_bits |= word;
      }
      high |= (run_bits & swar::kHighs) != 0;
      while (p_ < end_) {
        const auto c = static_cast<uint8_t>(*p_);
        if (c < 0x20 || c == '"' || c == '\\') break;
        high |= c >= 0x80;
        ++p_;
      }
      scratch_.append(run, static_cast<size_t>(p_ - run));
      if (p_ == end_) return false;
      if (*p_ == '"') {
        ++p_;
        // Escapes give whole sequences, so the raw runs are valid exactly when the whole is.
        return !high || IsValidUtf8(scratch_);
      }
      if (*p_ != '\\') return false;  // a control character
      ++p_;
      if (p_ == end_) return false;
      switch (*p_++) {
        case '"': scratch_.push_back('"'); break;
        case '\\': scratch_.push_back('\\'); break;
        case '/': scratch_.push_back('/'); break;
        case 'b': scratch_.push_back('\b'); break;
        case 'f': scratch_.push_back('\f'); break;
        case 'n': scratch_.push_back('\n'); break;
        case 'r': scratch_.push_back('\r'); break;
        case 't': scratch_.push_back('\t'); break;
        case 'u': {
          uint32_t code = 0;
          if (!Hex4(&code)) return false;
          if (code >= 0xD800 && code <= 0xDBFF) {  // a high surrogate: its low one must follow
            uint32_t low = 0;
            if (!Take('\\') || !Take('u') || !Hex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          } else if (code >= 0xDC00 && code <= 0xDFFF) {
            return false;
          }
          AppendUtf8(code);
          break;
        }
        default: return false;
      }
    }
  }

  bool Hex4(uint32_t* code) {
    if (end_ - p_ < 4) return false;
    for (int i = 0; i < 4; ++i) {
      const char c = *p_++;
      const int digit = IsDigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
      if (digit < 0) return false;
      *code = *code << 4 | static_cast<uint32_t>(digit);
    }
    return true;
  }

  void AppendUtf8(uint32_t code) {
    if (code < 0x80) {
      scratch_.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      scratch_.push_back(static_cast<char>(0xC0 | code >> 6));
      scratch_.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      scratch_.push_back(static_cast<char>(0xE0 | code >> 12));
      scratch_.push_back(static_cast<char>(0x80 | (code >> 6 & 0x3F)));
      scratch_.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      scratch_.push_back(static_cast<char>(0xF0 | code >> 18));
      scratch_.push_back(static_cast<char>(0x80 | (code >> 12 & 0x3F)));
      scratch_.push_back(static_cast<char>(0x80 | (code >> 6 & 0x3F)));
      scratch_.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  // JSON's grammar; then as nlohmann's lexer: an integer is number_integer when negative, else
  // number_unsigned; a fraction or exponent makes it number_float (correctly rounded, as strtod).
  // An integer that does not fit, or a float that overflows or underflows, is left to nlohmann.
  bool Number() {
    const char* start = p_;
    Take('-');
    if (p_ == end_) return false;
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      while (p_ < end_ && IsDigit(*p_)) ++p_;
    } else {
      return false;
    }
    bool is_float = false;
    if (Take('.')) {
      is_float = true;
      if (p_ == end_ || !IsDigit(*p_)) return false;
      while (p_ < end_ && IsDigit(*p_)) ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      is_float = true;
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !IsDigit(*p_)) return false;
      while (p_ < end_ && IsDigit(*p_)) ++p_;
    }
    if (is_float) {
      double v = 0;
      const std::from_chars_result r = std::from_chars(start, p_, v);
      return r.ec == std::errc() && r.ptr == p_ && builder_->number_float(v, no_text_);
    }
    if (*start == '-') {
      int64_t v = 0;
      const std::from_chars_result r = std::from_chars(start, p_, v);
      return r.ec == std::errc() && r.ptr == p_ && builder_->number_integer(v);
    }
    uint64_t v = 0;
    const std::from_chars_result r = std::from_chars(start, p_, v);
    return r.ec == std::errc() && r.ptr == p_ && builder_->number_unsigned(v);
  }

  const char* p_;
  const char* const end_;
  const int max_depth_;
  JsonTapeBuilder* const builder_;
  std::string scratch_;
  const std::string no_text_;  // number_float's text, which the builder does not read
};

}  // namespace

Status JsonTape::Parse(std::string_view text, const JsonParseGuard& guard) {
  // Every value takes at least two bytes of text ("1," "[]" "{}"; a key and its value four), so
  // this many slots never reallocate: growing by doubling would hold the old and the new vector
  // at once (1.5 times the final size). Pages never written are never resident.
  Clear();
  slots_.reserve(text.size() / 2 + 1);
  try {
    JsonTapeBuilder builder(this);
    if (DirectJsonParser(text, guard.max_depth, &builder).Parse()) return Status::OK();
  } catch (const std::exception&) {  // allocation failure: nlohmann's parse says it
  }
  if (guard.check != nullptr) TFQ_RETURN_IF_ERROR(guard.check(text));
  return ParseWithNlohmann(text);
}

Status JsonTape::ParseWithNlohmann(std::string_view text) {
  Clear();
  slots_.reserve(text.size() / 2 + 1);
  JsonTapeBuilder builder(this);
  try {
    if (nlohmann::json::sax_parse(text.begin(), text.end(), &builder, nlohmann::json::input_format_t::json,
                                  /*strict=*/true)) {
      return Status::OK();
    }
  } catch (const std::exception& e) {  // allocation failure; nlohmann reports its own via parse_error
    slots_.clear();
    return Status::InvalidData(std::string("not valid JSON (") + e.what() + ")");
  }
  slots_.clear();
  return Status::InvalidData(builder.error().empty() ? "not valid JSON" : builder.error());
}

void JsonTape::Clear() {
  slots_.clear();
  numbers_.clear();
  strings_.clear();
}

}  // namespace tfq
