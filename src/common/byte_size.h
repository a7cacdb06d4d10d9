// Parsing sizes given on the command line: "512MB", "256MiB", "1G", "4096".
#ifndef TFQ_COMMON_BYTE_SIZE_H_
#define TFQ_COMMON_BYTE_SIZE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tfq {

// Decimal (KB, MB, GB, TB = powers of 1000) and binary (KiB, MiB, GiB, TiB; K, M, G, T) units,
// case-insensitive, optional "B"; a bare number is bytes. Errors are kInvalidArgument.
Result<uint64_t> ParseByteSize(std::string_view text);

// "1.5 GiB"-style text for summaries.
std::string FormatByteSize(uint64_t bytes);

}  // namespace tfq

#endif  // TFQ_COMMON_BYTE_SIZE_H_
