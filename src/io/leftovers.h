// Finding the temporaries of tfq runs that could not clean up after themselves (SIGKILL, a
// crash, power loss): hidden files ".tfq-partial.<name>.<pid>" (io/file_streams.h) whose
// process no longer exists.
//
// SIGINT/SIGTERM are handled (io/cleanup.h), so such files come only from an uncatchable end. A
// new run looks in the directories it writes to: files belonging to its own output are removed
// (they can only be an earlier, killed run of the same job, whose outputs this run replaces);
// any others are reported so that the user can decide. Files of running processes are never
// touched. The pid test assumes the directory is not shared with processes of another machine.
#ifndef TFQ_IO_LEFTOVERS_H_
#define TFQ_IO_LEFTOVERS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tfq {

struct LeftoverScope {
  // The output file or shard prefix ("out/train"). Its directory is scanned; the temporaries of
  // `output` itself, of its shards ("<output>-00003...") and of its side files
  // ("<output>.manifest.json", "<output>.manifest-...") are ours.
  std::string output;
  // Further directories to scan (a shuffle's --tmp-dir); duplicates are scanned once.
  std::vector<std::string> extra_dirs;
  // Further temporary names that are ours wherever they are found, as the start of what follows
  // ".tfq-partial." ("shuffle-spill.").
  std::vector<std::string> own_stems;
};

struct Leftover {
  std::string path;
  uint64_t bytes = 0;
};

struct LeftoverReport {
  std::vector<Leftover> removed;  // stale temporaries of this job, now deleted
  std::vector<Leftover> found;    // other stale temporaries, left alone
};

// Scans and cleans as described above. Unreadable directories are skipped silently: this is
// housekeeping, not the job.
LeftoverReport CleanLeftovers(const LeftoverScope& scope);

}  // namespace tfq

#endif  // TFQ_IO_LEFTOVERS_H_
