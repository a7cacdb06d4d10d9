// Finding the temporaries of tfq runs that could not clean up after themselves (SIGKILL, a
// crash, power loss): hidden files ".tfq-partial.<name>.<pid>" whose process no longer exists.
//
// SIGINT/SIGTERM are handled (io/cleanup.h) and the shuffle's spill file has no name at all
// (reshard/spill.h), so such files come only from an uncatchable end. A new run looks in the
// directories it writes to: files belonging to its own output prefix are removed (they can only
// be an earlier, killed run of the same job, whose outputs this run replaces); any others are
// reported so that the user can decide. Files of running processes are never touched. The pid
// test assumes the directory is not shared with processes of another machine.
#ifndef TFQ_RESHARD_LEFTOVERS_H_
#define TFQ_RESHARD_LEFTOVERS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tfq::reshard {

struct Leftover {
  std::string path;
  uint64_t bytes = 0;
};

struct LeftoverReport {
  std::vector<Leftover> removed;  // stale temporaries of `prefix`, now deleted
  std::vector<Leftover> found;    // other stale temporaries, left alone
};

// Scans the directory of `prefix` and each of `extra_dirs` (duplicates are scanned once).
// Unreadable directories are skipped silently: this is housekeeping, not the job.
LeftoverReport CleanLeftovers(const std::string& prefix, const std::vector<std::string>& extra_dirs);

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_LEFTOVERS_H_
