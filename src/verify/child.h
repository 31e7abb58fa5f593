/* child.h — running one script as a child process: its stdout read line by
 * line, its stderr's tail kept, a tick between reads for sampling, and a
 * timeout that kills its whole process group. */
#ifndef GPULINT_VERIFY_CHILD_H
#define GPULINT_VERIFY_CHILD_H

#include <stdbool.h>

typedef struct {
  /* Called with each stdout line (borrowed, without '\n') and the time in
   * milliseconds since the child started. */
  void (*on_line)(void *payload, const char *line, double t_ms);
  /* Called about every `tick_ms` while the child runs, and once before. */
  void (*on_tick)(void *payload, double t_ms);
  void *payload;
  double tick_ms;
} ChildHooks;

typedef struct {
  bool spawned;      /* false: exec failed (see stderr_tail) */
  int exit_code;     /* when it exited */
  int term_signal;   /* when a signal ended it, else 0 */
  bool timed_out;    /* killed at the timeout */
  double wall_ms;
  char *stderr_tail; /* owned: the last 4 KB of stderr, or exec's error */
} ChildResult;

/* Runs argv (argv[0] looked up in PATH) with `env` (NAME=VALUE strings,
 * NULL-terminated, borrowed, may be NULL) added to the environment. Blocks
 * until it ends or `timeout_s` passes. */
ChildResult child_run(char *const argv[], char *const env[], double timeout_s, const ChildHooks *hooks);
void child_result_delete(ChildResult *self);

/* Milliseconds on a monotonic clock. */
double child_now_ms(void);

#endif
