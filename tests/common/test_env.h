// Where tests find the shared corpus (../shared beside the checkout, or $TFQ_SHARED_DIR) and
// scratch space. Test cases that need ../shared belong to the doctest test suite "shared"
// (`TEST_CASE("..." * doctest::test_suite("shared"))`, registered with tfq_add_unit_test's
// SHARED): unit.<part> leaves them out and conformance.<part> runs them, reporting a skip where
// ../shared is absent (a user's fresh clone has none). Inside, they REQUIRE a non-empty
// SharedDir(), so that they can never pass without reading it. Also the small helpers many
// tests share (one copy each, so that a unity build sees no twins).
#ifndef TFQ_TESTS_COMMON_TEST_ENV_H_
#define TFQ_TESTS_COMMON_TEST_ENV_H_

#include <string>
#include <string_view>

namespace tfq::testing {

// The shared folder if it exists (has corpus/), else "".
std::string SharedDir();

// A fresh empty directory under $TMPDIR (or /tmp), removed at process exit.
std::string MakeTempDir();

std::string ReadFileOrDie(const std::string& path);
void WriteFileOrDie(const std::string& path, const std::string& bytes);

// Whether anything (a file, folder or link, dangling or not) is at `path`.
bool PathExists(const std::string& path);

// Whether `text` contains `part` (error messages: CHECK(Contains(status.message(), "record 3"))).
inline bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace tfq::testing

#endif  // TFQ_TESTS_COMMON_TEST_ENV_H_
