/* main.c — the command line's entry point: picks the subcommand. The
 * commands themselves are in cli.c; they call the engine through
 * gpulint.h only. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commit.h" /* GPULINT_COMMIT, generated at build time */
#include "gpulint.h"
#include "options.h"
#include "server.h"
#include "verify.h"

int main(int argc, char **argv) {
  const char *command = argc > 1 ? argv[1] : "check";
  if (strcmp(command, "--version") == 0 || strcmp(command, "version") == 0) {
    printf("gpulint %s (%s)\n", gl_version(), GPULINT_COMMIT);
    return EXIT_CLEAN;
  }
  if (strcmp(command, "-h") == 0 || strcmp(command, "--help") == 0 || strcmp(command, "help") == 0) {
    check_usage_print(stdout);
    return EXIT_CLEAN;
  }
  if (strcmp(command, "rules") == 0) return cli_rules(argc, argv, 2);
  if (strcmp(command, "rule") == 0) return cli_rule(argc, argv, 2);
  if (strcmp(command, "verify") == 0) return verify_main(argc - 1, argv + 1);
  if (strcmp(command, "server") == 0) return server_main(argc, argv);
  if (strcmp(command, "check") == 0) return cli_check(argc, argv, 2);
  if (strcmp(command, "clean") == 0) return cli_clean(argc, argv, 2);
  if (cli_unknown_command(command)) return EXIT_USAGE;
  return cli_check(argc, argv, 1);
}
