/* watch.h — `gpulint check --watch`: lint again whenever a file changes.
 *
 * Linux inotify watches every directory that discovery walks (so the same
 * excludes and .gitignore files apply, and a new directory is watched from
 * the run that first walks it) and the folder of each file named on the
 * command line. A burst of events (an editor's write, rename and chmod)
 * makes one run. Changes to the result cache's folder are ignored.
 * SIGINT and SIGTERM end the loop (exit 0); so does the loss of every
 * watched path (exit 2). */
#ifndef GPULINT_WATCH_H
#define GPULINT_WATCH_H

#include <stdbool.h>

#include "path.h"

typedef struct Watch Watch;

/* One lint run; its exit status is shown, never fatal. */
typedef int (*WatchRun)(void *payload, Watch *watch);

/* A watcher of `paths` (as given, relative to the absolute `cwd`; both
 * borrowed for its life), or NULL with the reason printed on stderr. It
 * blocks SIGINT and SIGTERM in the calling thread (and the threads it
 * starts later) to read them in its loop. */
Watch *watch_new(const StringList *paths, const char *cwd);
void watch_delete(Watch *self);

/* Watches `absolute`, a directory discovery walks (the signature of
 * Discovery.on_directory; `payload` is the Watch). */
void watch_directory(void *payload, const char *absolute);

/* Ignores every change at or below `absolute` (the cache's folder). */
void watch_ignore(Watch *self, const char *absolute);

/* Runs `run` once, then again after each change, until a signal (returns
 * 0) or until every path is gone (returns 2). */
int watch_loop(Watch *self, WatchRun run, void *payload);

#endif
