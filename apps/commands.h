// One setup function per subcommand (CLI11's subcom_in_files pattern): each adds its subcommand
// to the app, with an options struct and a callback that stores the exit code in *exit_code.
#ifndef TFQ_APPS_COMMANDS_H_
#define TFQ_APPS_COMMANDS_H_

#include <CLI/CLI.hpp>

namespace tfq::app {

void SetupInspectCommand(CLI::App& app, int* exit_code);
void SetupConvertCommand(CLI::App& app, int* exit_code);
void SetupShardCommand(CLI::App& app, int* exit_code);
void SetupShuffleCommand(CLI::App& app, int* exit_code);
void SetupBenchCommand(CLI::App& app, int* exit_code);

}  // namespace tfq::app

#endif  // TFQ_APPS_COMMANDS_H_
