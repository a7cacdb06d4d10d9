// Internal to src/csv: classification of a run of input into one set of bit masks per 64-byte
// block (bit i is byte i), the first pass of both the chunker and the parser.
//
// Why a separate pass over a run of blocks rather than a block at a time inside each loop: the
// classification is the part that gains from wider vectors (AVX2, AVX-512) and from a carry-less
// multiply for the quote parity, which baseline x86-64 lacks, so it is compiled once per
// instruction set (one file each, block_scan_*.cc) and chosen at run time, while the loops that
// walk the masks stay plain C++. The masks of a run (a few KiB of input) stay in L1.
#ifndef TFQ_CSV_BLOCK_SCAN_H_
#define TFQ_CSV_BLOCK_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tfq::csv::internal {

inline constexpr size_t kBlockBytes = 64;

struct BlockMasks {
  uint64_t quote = 0;   // '"' bytes (zero when quoting is off)
  uint64_t inside = 0;  // inside a quoted field: the opening quote included, the closing excluded
  uint64_t delim = 0;
  uint64_t lf = 0;
  uint64_t cr = 0;
};

// Classifies p[0, len) into out[0, ceil(len / 64)). In a last, partial block the bits at and
// above len are zero (whatever the delimiter), except `inside`, whose bits there repeat the state
// after the last byte. *in_quote is all ones when p[0] lies inside quotes, else zero, and is set
// to the same for the byte after the run. `quoting` false: '"' is an ordinary byte.
using ClassifyBlocksFn = void (*)(const char* p, size_t len, char delim, bool quoting,
                                  uint64_t* in_quote, BlockMasks* out);

// The fastest variant this CPU supports (chosen on the first call).
void ClassifyBlocks(const char* p, size_t len, char delim, bool quoting, uint64_t* in_quote,
                    BlockMasks* out);

struct ClassifyVariant {
  const char* name;
  ClassifyBlocksFn fn;
};
// Every variant this CPU can run, the baseline first (tests compare them).
std::vector<ClassifyVariant> ClassifyVariants();

// The variants (block_scan*.cc); the SIMD ones only on CPUs with their instructions.
void ClassifyBlocksBaseline(const char* p, size_t len, char delim, bool quoting,
                            uint64_t* in_quote, BlockMasks* out);
#if defined(__x86_64__)
void ClassifyBlocksAvx2(const char* p, size_t len, char delim, bool quoting, uint64_t* in_quote,
                        BlockMasks* out);
void ClassifyBlocksAvx512(const char* p, size_t len, char delim, bool quoting,
                          uint64_t* in_quote, BlockMasks* out);
#endif

}  // namespace tfq::csv::internal

#endif  // TFQ_CSV_BLOCK_SCAN_H_
