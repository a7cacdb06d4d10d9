// Where tests find the shared corpus (../shared beside the checkout, or $TFQ_SHARED_DIR) and
// scratch space. Tests that need ../shared call SharedDir() and skip, with a message saying so,
// when it returns an empty string: a user's fresh clone has no ../shared.
#ifndef TFQ_TESTS_COMMON_TEST_ENV_H_
#define TFQ_TESTS_COMMON_TEST_ENV_H_

#include <string>

namespace tfq::testing {

// The shared folder if it exists (has corpus/), else "".
std::string SharedDir();

// A fresh empty directory under $TMPDIR (or /tmp), removed at process exit.
std::string MakeTempDir();

std::string ReadFileOrDie(const std::string& path);
void WriteFileOrDie(const std::string& path, const std::string& bytes);

}  // namespace tfq::testing

#endif  // TFQ_TESTS_COMMON_TEST_ENV_H_
