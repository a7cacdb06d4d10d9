// tfq: a fast toolkit for TFRecord datasets. main() only dispatches to the subcommands in
// apps/*.cc; all the work happens in the core library (src/).
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "app_common.h"
#include "commands.h"
#include "io/cleanup.h"
#include "io/inflater.h"

int main(int argc, char** argv) {
  tfq::InstallInterruptCleanup();
  // Beyond `ulimit -f`, a write then fails with EFBIG, reported and cleaned up, instead of killing us.
  CLI::App app{"tfq: convert, inspect, shard and shuffle TFRecord datasets without TensorFlow"};
  // The gzip/zlib library in use (ISA-L, or zlib where tfq was built without it) changes read speed
  // and written bytes, so the version says which.
  app.set_version_flag("--version", std::string("tfq ") + TFQ_VERSION + " (gzip: " + tfq::InflateLibrary() + ")");
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success, 1 failure (I/O, limits), 2 usage error, 3 corrupt or invalid data,\n"
      "4 bench regression, 5 some images failed (see README.md).\n"
      "Run 'tfq COMMAND --help' for a command's options.");
  int exit_code = tfq::app::kExitOk;
  tfq::app::SetupShardCommand(app, &exit_code);
  tfq::app::SetupShuffleCommand(app, &exit_code);
  tfq::app::SetupConvertCommand(app, &exit_code);
  tfq::app::SetupInspectCommand(app, &exit_code);
  tfq::app::SetupBenchCommand(app, &exit_code);
  // CLI11 would take an unknown first word for a stray argument ("A subcommand is required"):
  // name it instead, as git and cargo do.
  std::string known;
  bool found = false;
  for (const CLI::App* sub : app.get_subcommands({})) {
    known += (known.empty() ? "" : ", ") + sub->get_name();
    found = found || (argc > 1 && sub->check_name(argv[1]));
  }
  if (argc > 1 && argv[1][0] != '-' && !found) {
    std::fprintf(stderr, "tfq: error: unknown command '%s' (commands: %s); run 'tfq --help'\n", argv[1],
                 known.c_str());
    return tfq::app::kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // In tfq's own format, naming the command whose --help lists the options.
    std::string command = "tfq";
    for (const CLI::App* sub : app.get_subcommands()) command += " " + sub->get_name();
    std::fprintf(stderr, "tfq: error: %s\nRun '%s --help' for the options.\n", e.what(), command.c_str());
    return tfq::app::kExitUsage;
  }
  return exit_code;
}
