/* watch.c — the --watch loop: inotify, a quiet period to let a burst of
 * events settle, and signals read through a signalfd. */
#include "watch.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "discover.h"

/* A burst has settled when no event came for QUIET_MS, or after SETTLE_MS. */
#define QUIET_MS 100
#define SETTLE_MS 1000

#define WATCH_MASK                                                                                      \
  (IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | \
   IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)

typedef struct {
  int wd;
  char *absolute; /* owned */
  bool walked;    /* discovery walks it: its Python files and config files count */
} Watched;

struct Watch {
  const StringList *paths; /* borrowed */
  const char *cwd;         /* borrowed */
  int inotify;
  int signals; /* signalfd of SIGINT and SIGTERM */
  sigset_t blocked, previous;
  Array(Watched) watched;
  StringList named;   /* absolute paths of the files named on the command line */
  StringList ignored; /* absolute folders whose changes do not count */
  bool full;          /* the watch limit was reached (said once) */
};

typedef enum { WAKE_CHANGE, WAKE_SIGNAL } Wake;

/* ---- The watch list ------------------------------------------------------------------ */

static Watched *watch__find(Watch *self, int wd) {
  for (uint32_t i = 0; i < self->watched.size; i++) {
    if (self->watched.contents[i].wd == wd) return &self->watched.contents[i];
  }
  return NULL;
}

static void watch__forget(Watch *self, int wd) {
  for (uint32_t i = 0; i < self->watched.size; i++) {
    if (self->watched.contents[i].wd != wd) continue;
    free(self->watched.contents[i].absolute);
    self->watched.contents[i] = self->watched.contents[--self->watched.size];
    return;
  }
}

/* Watches the directory `absolute`; `walked` marks one discovery walks. A
 * directory watched twice keeps one entry (inotify gives the same wd). */
static void watch__add(Watch *self, const char *absolute, bool walked) {
  int wd = inotify_add_watch(self->inotify, absolute, WATCH_MASK);
  if (wd < 0) {
    if (errno == ENOSPC && !self->full) {
      fprintf(stderr, "gpulint: --watch: cannot watch %s: too many watches (raise fs.inotify.max_user_watches)\n",
              absolute);
      self->full = true;
    }
    return;
  }
  Watched *known = watch__find(self, wd);
  if (known) {
    known->walked |= walked;
    if (strcmp(known->absolute, absolute) != 0) { /* a folder renamed, then walked under its new name */
      free(known->absolute);
      known->absolute = gl_strdup(absolute);
    }
    return;
  }
  Watched entry = {wd, gl_strdup(absolute), walked};
  array_push(&self->watched, entry);
}

void watch_directory(void *payload, const char *absolute) {
  watch__add(payload, absolute, true);
}

void watch_ignore(Watch *self, const char *absolute) {
  for (uint32_t i = 0; i < self->ignored.size; i++) {
    if (strcmp(self->ignored.contents[i], absolute) == 0) return;
  }
  string_list_push(&self->ignored, absolute);
}

/* ---- Making and deleting ------------------------------------------------------------- */

/* Named files are watched through their folder, so that a file an editor
 * replaces (write a copy, rename it over) is still seen. */
static void watch__add_named_files(Watch *self) {
  for (uint32_t i = 0; i < self->paths->size; i++) {
    struct stat info;
    char *absolute = path_absolute(self->cwd, self->paths->contents[i]);
    if (stat(absolute, &info) == 0 && !S_ISDIR(info.st_mode)) {
      char *parent = path_parent(absolute);
      string_list_push(&self->named, absolute);
      watch__add(self, parent, false);
      free(parent);
    }
    free(absolute);
  }
}

Watch *watch_new(const StringList *paths, const char *cwd) {
  Watch *self = gl_calloc(1, sizeof(Watch));
  self->paths = paths, self->cwd = cwd, self->signals = -1;
  self->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  sigemptyset(&self->blocked);
  sigaddset(&self->blocked, SIGINT);
  sigaddset(&self->blocked, SIGTERM);
  if (self->inotify >= 0 && pthread_sigmask(SIG_BLOCK, &self->blocked, &self->previous) == 0) {
    self->signals = signalfd(-1, &self->blocked, SFD_NONBLOCK | SFD_CLOEXEC);
  }
  if (self->inotify < 0 || self->signals < 0) {
    fprintf(stderr, "gpulint: --watch: cannot watch files: %s\n", strerror(errno));
    watch_delete(self);
    return NULL;
  }
  watch__add_named_files(self);
  return self;
}

void watch_delete(Watch *self) {
  if (!self) return;
  if (self->signals >= 0) {
    close(self->signals);
    pthread_sigmask(SIG_SETMASK, &self->previous, NULL);
  }
  if (self->inotify >= 0) close(self->inotify);
  for (uint32_t i = 0; i < self->watched.size; i++) free(self->watched.contents[i].absolute);
  array_delete(&self->watched);
  string_list_delete(&self->named);
  string_list_delete(&self->ignored);
  free(self);
}

/* ---- Events ---------------------------------------------------------------------------- */

static bool watch__is_config(const char *name) {
  return strcmp(name, "pyproject.toml") == 0 || strcmp(name, "gpulint.toml") == 0 ||
         strcmp(name, ".gpulint.toml") == 0 || strcmp(name, ".gitignore") == 0;
}

static bool watch__listed(const StringList *list, const char *absolute, bool or_below) {
  for (uint32_t i = 0; i < list->size; i++) {
    const char *below = or_below ? path_relative(list->contents[i], absolute) : NULL;
    if (below || strcmp(list->contents[i], absolute) == 0) return true;
  }
  return false;
}

/* Whether `event` calls for a run: a change to a file discovery would lint,
 * to a config or .gitignore file, to a folder, or to a named file; never
 * one in an ignored folder. A folder that is gone is forgotten. */
static bool watch__relevant(Watch *self, const struct inotify_event *event) {
  Watched *watched = watch__find(self, event->wd);
  if (!watched) return false;
  if (event->mask & IN_IGNORED) {
    bool ignored = watch__listed(&self->ignored, watched->absolute, true);
    watch__forget(self, event->wd);
    return !ignored;
  }
  char *absolute = event->len ? path_join(watched->absolute, event->name) : gl_strdup(watched->absolute);
  bool relevant = false;
  if (watch__listed(&self->ignored, absolute, true)) relevant = false;
  else if (watch__listed(&self->named, absolute, false)) relevant = true;
  else if (!watched->walked) relevant = false;
  else if (event->mask & (IN_ISDIR | IN_DELETE_SELF | IN_MOVE_SELF)) relevant = true;
  else relevant = event->len && (discover_is_lintable(event->name) || watch__is_config(event->name));
  free(absolute);
  return relevant;
}

/* Reads one buffer of the events waiting (one read, so that a stream of
 * changes cannot keep signals unread); whether one calls for a run. */
static bool watch__read_events(Watch *self) {
  char buffer[65536] __attribute__((aligned(__alignof__(struct inotify_event))));
  bool relevant = false;
  ssize_t length = read(self->inotify, buffer, sizeof buffer);
  for (char *p = buffer; length > 0 && p < buffer + length;) {
    const struct inotify_event *event = (const struct inotify_event *)(void *)p;
    relevant |= watch__relevant(self, event);
    p += sizeof(struct inotify_event) + event->len;
  }
  return relevant;
}

static double watch__now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec * 1000.0 + (double)now.tv_nsec / 1e6;
}

/* Waits up to `timeout_ms` (-1: without end) for an event or a signal. */
static short watch__poll(Watch *self, int timeout_ms, bool *signalled) {
  struct pollfd fds[2] = {{self->inotify, POLLIN, 0}, {self->signals, POLLIN, 0}};
  int ready = poll(fds, 2, timeout_ms);
  *signalled = ready > 0 && (fds[1].revents & POLLIN);
  if (*signalled) { /* taken, so that it is not delivered when the mask is restored */
    struct signalfd_siginfo info;
    while (read(self->signals, &info, sizeof info) == (ssize_t)sizeof info) {}
  }
  return ready > 0 ? fds[0].revents : 0;
}

/* Blocks until a change calls for a run (after its burst settles) or a
 * signal comes. */
static Wake watch__wait(Watch *self) {
  bool signalled = false, relevant = false;
  while (!relevant) {
    watch__poll(self, -1, &signalled);
    if (signalled) return WAKE_SIGNAL;
    relevant = watch__read_events(self);
  }
  double start = watch__now_ms();
  while (watch__now_ms() - start < SETTLE_MS) {
    short events = watch__poll(self, QUIET_MS, &signalled);
    if (signalled) return WAKE_SIGNAL;
    if (!(events & POLLIN)) break;
    watch__read_events(self);
  }
  return WAKE_CHANGE;
}

/* ---- The loop ---------------------------------------------------------------------------- */

static bool watch__all_gone(const Watch *self) {
  for (uint32_t i = 0; i < self->paths->size; i++) {
    struct stat info;
    char *absolute = path_absolute(self->cwd, self->paths->contents[i]);
    bool exists = stat(absolute, &info) == 0;
    free(absolute);
    if (exists) return false;
  }
  return true;
}

/* Before a run: the screen cleared on a terminal, then the time. */
static void watch__header(void) {
  if (isatty(STDOUT_FILENO)) fputs("\x1b[2J\x1b[3J\x1b[H", stdout);
  char stamp[32];
  time_t now = time(NULL);
  struct tm local;
  strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", localtime_r(&now, &local));
  printf("---- gpulint --watch: %s ----\n", stamp);
  fflush(stdout);
}

int watch_loop(Watch *self, WatchRun run, void *payload) {
  for (;;) {
    watch__header();
    run(payload, self);
    printf("Watching for file changes.\n");
    fflush(stdout);
    if (watch__all_gone(self)) break;
    if (watch__wait(self) == WAKE_SIGNAL) return 0;
    if (watch__all_gone(self)) break;
  }
  fprintf(stderr, "gpulint: --watch: every watched path is gone; stopping\n");
  return 2;
}
