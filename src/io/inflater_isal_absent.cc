// Built instead of inflater_isal.cc (and deflater_isal.cc) where ISA-L was not found: NewInflater
// then falls back to zlib.
#include "io/inflater.h"

namespace tfq {

std::unique_ptr<Inflater> NewIsalInflater() { return nullptr; }
std::string IsalVersion() { return ""; }

}  // namespace tfq
