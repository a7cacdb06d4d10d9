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

// Installs the SIGINT/SIGTERM/SIGHUP handler and ignores SIGPIPE (a closed pipe then shows up as
// EPIPE from write(), which becomes a kBrokenPipe Status). Called once by main(); calling it again
// is harmless. A signal already ignored when it is called (nohup, background jobs of a script)
// stays ignored.
void InstallInterruptCleanup();

// Registers a path to unlink on interrupt; returns a slot id for Unregister, or -1 if the fixed
// table (256 slots) is full (the file is then simply not cleaned up on interrupt). Both functions
// are thread-safe; UnregisterTemporaryPath(-1) does nothing.
int RegisterTemporaryPath(const std::string& path);
void UnregisterTemporaryPath(int slot);

// True once SIGINT/SIGTERM/SIGHUP arrived (long loops may poll it to stop early). Note that the
// handler above ends the process right after the cleanup, so other threads can only observe this
// during that brief window.
bool InterruptRequested();

}  // namespace tfq

#endif  // TFQ_IO_CLEANUP_H_
