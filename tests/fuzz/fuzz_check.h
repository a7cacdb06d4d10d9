// FUZZ_CHECK: an invariant of a fuzz target. A violation prints what failed and aborts, which
// libFuzzer (and the replay driver, via the abort) reports as a crash with its input.
#ifndef TFQ_TESTS_FUZZ_FUZZ_CHECK_H_
#define TFQ_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                   \
    }                                                                                 \
  } while (0)

#endif  // TFQ_TESTS_FUZZ_FUZZ_CHECK_H_
