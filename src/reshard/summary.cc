#include "reshard/summary.h"

namespace tfq::reshard {

Status CheckChecksums(const RunSummary& summary) {
  if (summary.expected == summary.written) return Status::OK();
  return Status::Internal(
      "CHECKSUM MISMATCH: the inputs gave " + std::to_string(summary.expected.count()) +
      " records (checksum " + summary.expected.Hex() + ") but " +
      std::to_string(summary.written.count()) + " records (checksum " + summary.written.Hex() +
      ") were written; no output was kept. This is a bug in tfq or a failing disk or memory: "
      "please report it");
}

}  // namespace tfq::reshard
