// The main() of every unit-test binary. The test cases that read ../shared form the test suite
// "shared" (tests/common/test_env.h); ctest runs them on their own as conformance.<part> with
// --test-suite=shared, which reports a skip (exit 77) rather than a pass where ../shared is absent.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

#include "common/test_env.h"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--test-suite=shared" && tfq::testing::SharedDir().empty()) {
      std::printf("SKIP: ../shared is absent (set TFQ_SHARED_DIR to run these tests)\n");
      return 77;
    }
  }
  doctest::Context context(argc, argv);
  return context.run();
}
