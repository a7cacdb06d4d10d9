// Removing temporary files when tfq is interrupted.
//
// Outputs are written under temporary names (io/file_streams.h). If the user presses Ctrl-C or a
// scheduler sends SIGTERM, those temporaries must go: the handler installed here unlinks every
// registered path (using only async-signal-safe calls) and then re-raises the signal with its
// default action, so the exit status still says "killed by SIGINT". After SIGKILL nothing can run;
// the temporaries' hidden names (".tfq-partial.*") let the next run or the user find them.
#ifndef TFQ_IO_CLEANUP_H_
#define TFQ_IO_CLEANUP_H_

#include <string>

namespace tfq {

// Installs the SIGINT/SIGTERM/SIGHUP handler, ignores SIGPIPE (a closed pipe then shows up as
// EPIPE from write(), which becomes a kBrokenPipe Status) and SIGXFSZ (a write past `ulimit -f`
// then fails with EFBIG, an error like a full disk). Called once by main(); calling it again
// is harmless. A signal already ignored when it is called (nohup, background jobs of a script)
// stays ignored.
void InstallInterruptCleanup();

// Registers a path to unlink on interrupt; returns a slot id for Unregister, or -1 when out of
// memory (the table grows as needed, up to a million paths; the file is then simply not cleaned
// up on interrupt, and the next run's leftover scan, io/leftovers.h, reports it). Both functions
// are thread-safe; UnregisterTemporaryPath(-1) does nothing.
//
// There is deliberately no "interrupt requested" flag for long loops to poll: the handler ends
// the process as soon as the temporaries are gone, which is what a user pressing Ctrl-C wants,
// and what keeps a stuck write from delaying the exit.
int RegisterTemporaryPath(const std::string& path);
void UnregisterTemporaryPath(int slot);

}  // namespace tfq

#endif  // TFQ_IO_CLEANUP_H_
