// `tfq inspect`: options shared by the modes in inspect.cc and inspect_summary.cc.
#ifndef TFQ_APPS_INSPECT_H_
#define TFQ_APPS_INSPECT_H_

#include <string>
#include <vector>

#include "app_common.h"
#include "inspect/scan.h"

namespace tfq::app {

struct InspectOptions {
  RecordInputFlags input;
  bool json = false;
  bool quiet = false;  // no progress line
  bool count = false;
  bool verify = false;
  bool records = false;
  bool stats = false;
  bool index = false;
  bool index_beside = false;
  bool sequence = false;
  bool raw = false;  // payloads are not Examples: check framing only
  std::string format = "proto-json";
  uint64_t head = 0;  // 0: all
  uint64_t skip = 0;
  size_t top_k = 10;
};

// The default mode (and --stats): read everything, print the summary as text or JSON.
int RunInspectSummary(const InspectOptions& opts, const std::vector<std::string>& paths,
                      const inspect::ScanOptions& scan);

}  // namespace tfq::app

#endif  // TFQ_APPS_INSPECT_H_
