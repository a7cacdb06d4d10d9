#include "convert/line_reader.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "io/file_streams.h"

namespace tfq {
namespace {

std::vector<std::string> Lines(const std::string& text, size_t max = 1 << 20, Status* status = nullptr) {
  auto in = NewMemoryInputStream("mem.jsonl", text);
  LineReader reader(in.get(), max);
  std::vector<std::string> out;
  std::string_view line;
  while (reader.Next(&line)) out.emplace_back(line);
  if (status) *status = reader.status();
  return out;
}

}  // namespace

TEST_CASE("lines split on LF and CRLF, a last line without newline counts") {
  CHECK(Lines("a\nb\r\nc") == std::vector<std::string>{"a", "b", "c"});
  CHECK(Lines("a\n\nb\n") == std::vector<std::string>{"a", "", "b"});
  CHECK(Lines("").empty());
}

TEST_CASE("lines longer than the read window are returned whole") {
  std::string big(200000, 'x');
  CHECK(Lines(big + "\n" + "y") == std::vector<std::string>{big, "y"});
}

TEST_CASE("a line over the cap is an error naming the line") {
  Status s;
  auto lines = Lines("ok\n" + std::string(100, 'x') + "\n", 50, &s);
  CHECK(lines.size() == 1);
  CHECK(s.code() == StatusCode::kResourceExhausted);
  CHECK(s.message().find("mem.jsonl: line 2") != std::string::npos);
}

TEST_CASE("blank lines are skipped in bulk, line numbers kept") {
  const std::string text = "a\n\n \t\r\n" + std::string(200000, '\n') + "  b\n\n   ";
  auto in = NewMemoryInputStream("mem.jsonl", text);
  LineReader reader(in.get(), 1 << 20);
  std::string_view line;
  REQUIRE(reader.SkipBlankLines());
  REQUIRE(reader.Next(&line));
  CHECK(line == "a");
  CHECK(reader.line_number() == 1);
  REQUIRE(reader.SkipBlankLines());
  REQUIRE(reader.Next(&line));
  CHECK(line == "  b");  // a line's own leading blanks stay
  CHECK(reader.line_number() == 200004);
  REQUIRE(reader.SkipBlankLines());
  REQUIRE(reader.Next(&line));  // the last, blank, line without a newline
  CHECK(line == "   ");
  CHECK(reader.SkipBlankLines());
  CHECK_FALSE(reader.Next(&line));
  CHECK(reader.status().ok());
}

}  // namespace tfq
