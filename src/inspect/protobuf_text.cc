#include "inspect/protobuf_text.h"

#include <cctype>

namespace tfq::inspect {
namespace {

// Nesting deeper than any schema, shallow enough that recursion cannot exhaust the stack.
constexpr int kMaxDepth = 100;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Status ParseMessage(TextMessage* out, char close, int depth) {
    if (depth > kMaxDepth) return Error("messages nested more than 100 deep");
    while (true) {
      SkipSpace();
      if (AtEnd()) return close == 0 ? Status::OK() : Error("missing '" + std::string(1, close) + "'");
      if (close != 0 && Peek() == close) {
        ++pos_;
        return Status::OK();
      }
      if (Peek() == ',' || Peek() == ';') {
        ++pos_;
        continue;
      }
      TFQ_RETURN_IF_ERROR(ParseField(out, depth));
    }
  }

 private:
  Status ParseField(TextMessage* out, int depth) {
    if (Peek() == '[') return Error("extensions and Any expansions ([...]) are not supported");
    const int line = line_;
    std::string name = Identifier();
    if (name.empty()) return Error("expected a field name");
    SkipSpace();
    bool colon = false;
    if (!AtEnd() && Peek() == ':') {
      ++pos_;
      colon = true;
      SkipSpace();
    }
    if (!AtEnd() && (Peek() == '{' || Peek() == '<')) {
      const char close = Peek() == '{' ? '}' : '>';
      ++pos_;
      TextField f{std::move(name), line, true, "", false, std::make_shared<TextMessage>()};
      TFQ_RETURN_IF_ERROR(ParseMessage(f.message.get(), close, depth + 1));
      out->fields.push_back(std::move(f));
      return Status::OK();
    }
    if (!colon) return Error("expected ':' or '{' after '" + name + "'");
    if (!AtEnd() && Peek() == '[') return ParseList(name, line, out, depth);
    TextField f{std::move(name), line, false, "", false, nullptr};
    TFQ_RETURN_IF_ERROR(Scalar(&f));
    out->fields.push_back(std::move(f));
    return Status::OK();
  }

  // name: [v1, v2] or name: [{...}, {...}]
  Status ParseList(const std::string& name, int line, TextMessage* out, int depth) {
    ++pos_;  // '['
    while (true) {
      SkipSpace();
      if (AtEnd()) return Error("missing ']'");
      if (Peek() == ']') {
        ++pos_;
        return Status::OK();
      }
      if (Peek() == ',') {
        ++pos_;
        continue;
      }
      TextField f{name, line, false, "", false, nullptr};
      if (Peek() == '{' || Peek() == '<') {
        const char close = Peek() == '{' ? '}' : '>';
        ++pos_;
        f.is_message = true;
        f.message = std::make_shared<TextMessage>();
        TFQ_RETURN_IF_ERROR(ParseMessage(f.message.get(), close, depth + 1));
      } else {
        TFQ_RETURN_IF_ERROR(Scalar(&f));
      }
      out->fields.push_back(std::move(f));
    }
  }

  Status Scalar(TextField* f) {
    if (AtEnd()) return Error("expected a value");
    if (Peek() == '"' || Peek() == '\'') {
      f->quoted = true;
      while (!AtEnd() && (Peek() == '"' || Peek() == '\'')) {
        TFQ_RETURN_IF_ERROR(QuotedString(&f->scalar));
        SkipSpace();
      }
      return Status::OK();
    }
    const size_t start = pos_;
    if (Peek() == '-' || Peek() == '+') ++pos_;
    while (!AtEnd() && (std::isalnum(static_cast<unsigned char>(Peek())) || Peek() == '_' ||
                        Peek() == '.' || ((Peek() == '-' || Peek() == '+') &&
                                          (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E')))) {
      ++pos_;
    }
    if (pos_ == start) return Error("expected a value");
    f->scalar = std::string(text_.substr(start, pos_ - start));
    return Status::OK();
  }

  Status QuotedString(std::string* out) {
    const char quote = text_[pos_++];
    while (true) {
      if (AtEnd() || Peek() == '\n') return Error("unterminated string");
      char c = text_[pos_++];
      if (c == quote) return Status::OK();
      if (c != '\\') {
        *out += c;
        continue;
      }
      if (AtEnd()) return Error("unterminated string");
      c = text_[pos_++];
      switch (c) {
        case 'n': *out += '\n'; break;
        case 't': *out += '\t'; break;
        case 'r': *out += '\r'; break;
        case 'a': *out += '\a'; break;
        case 'b': *out += '\b'; break;
        case 'f': *out += '\f'; break;
        case 'v': *out += '\v'; break;
        case 'x': {
          int value = 0, digits = 0;
          while (digits < 2 && !AtEnd() && std::isxdigit(static_cast<unsigned char>(Peek()))) {
            const char h = text_[pos_++];
            value = value * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
            ++digits;
          }
          if (digits == 0) return Error("\\x without hex digits");
          *out += static_cast<char>(value);
          break;
        }
        default:
          if (c >= '0' && c <= '7') {
            int value = c - '0', digits = 1;
            while (digits < 3 && !AtEnd() && Peek() >= '0' && Peek() <= '7') {
              value = value * 8 + (text_[pos_++] - '0');
              ++digits;
            }
            *out += static_cast<char>(value);
          } else {
            *out += c;  // \" \' \\ \?
          }
      }
    }
  }

  std::string Identifier() {
    const size_t start = pos_;
    while (!AtEnd() && (std::isalnum(static_cast<unsigned char>(Peek())) || Peek() == '_')) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  void SkipSpace() {
    while (!AtEnd()) {
      const char c = Peek();
      if (c == '#') {
        while (!AtEnd() && Peek() != '\n') ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        if (c == '\n') {
          ++line_;
          line_start_ = pos_ + 1;
        }
        ++pos_;
      } else {
        return;
      }
    }
  }

  Status Error(const std::string& what) const {
    return Status::InvalidData("line " + std::to_string(line_) + ", column " +
                               std::to_string(pos_ - line_start_ + 1) + ": " + what);
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return text_[pos_]; }

  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
};

}  // namespace

std::vector<const TextField*> TextMessage::All(std::string_view name) const {
  std::vector<const TextField*> out;
  for (const TextField& f : fields) {
    if (f.name == name) out.push_back(&f);
  }
  return out;
}

const TextField* TextMessage::Last(std::string_view name) const {
  const TextField* last = nullptr;
  for (const TextField& f : fields) {
    if (f.name == name) last = &f;
  }
  return last;
}

Result<TextMessage> ParseProtobufText(std::string_view text) {
  TextMessage root;
  Parser parser(text);
  TFQ_RETURN_IF_ERROR(parser.ParseMessage(&root, 0, 0));
  return root;
}

}  // namespace tfq::inspect
