/* augur timeline — placeholder until the command lands. */
#include "cli.h"

int cmd_timeline(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return cli_fail("not available in this build");
}
