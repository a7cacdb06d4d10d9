// Built instead of inflater_isal.cc and deflater_isal.cc where ISA-L was not found: NewInflater
// and NewDeflater then use zlib.
#include "io/deflater.h"
#include "io/inflater.h"

namespace tfq {

std::unique_ptr<Inflater> NewIsalInflater() { return nullptr; }
std::unique_ptr<Deflater> NewIsalDeflater() { return nullptr; }
std::string IsalVersion() { return ""; }
uint32_t IsalGzipCrc32(uint32_t, const char*, size_t) { return 0; }

}  // namespace tfq
