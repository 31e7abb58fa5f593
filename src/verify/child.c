/* child.c — fork/exec with two pipes, poll, and a timeout. */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "text.h"

#define TAIL_BYTES 4096

double child_now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

typedef struct {
  int out;  /* stdout's read end, -1 once closed */
  int err;  /* stderr's read end, -1 once closed */
  Text line; /* the stdout line being read */
  Text tail; /* stderr, trimmed to its last TAIL_BYTES */
} Pipes;

/* ---- In the child ------------------------------------------------------- */

/* Never returns: becomes argv, or reports exec's errno through `status_fd`. */
static void child__exec(char *const argv[], char *const env[], int out, int err, int status_fd) {
  setpgid(0, 0);
  dup2(out, STDOUT_FILENO);
  dup2(err, STDERR_FILENO);
  for (char *const *entry = env; entry && *entry; entry++) putenv(*entry);
  execvp(argv[0], argv);
  int error = errno;
  ssize_t written = write(status_fd, &error, sizeof error);
  (void)written;
  _exit(127);
}

/* ---- In the parent ------------------------------------------------------ */

static void pipes__tail(Pipes *self, const char *bytes, size_t count) {
  text_append(&self->tail, "%.*s", (int)count, bytes);
  if (self->tail.size > 2 * TAIL_BYTES) {
    uint32_t drop = self->tail.size - TAIL_BYTES;
    memmove(self->tail.contents, self->tail.contents + drop, TAIL_BYTES + 1);
    self->tail.size = TAIL_BYTES;
  }
}

/* Splits stdout bytes into lines for the hook. */
static void pipes__lines(Pipes *self, const char *bytes, size_t count, const ChildHooks *hooks, double t) {
  for (size_t i = 0; i < count; i++) {
    if (bytes[i] != '\n') {
      array_push(&self->line, bytes[i]);
      continue;
    }
    array_push(&self->line, '\0');
    if (hooks->on_line) hooks->on_line(hooks->payload, self->line.contents, t);
    array_clear(&self->line);
  }
}

/* Reads what `*fd` has; closes it at end of file. */
static void pipes__read(Pipes *self, int *fd, const ChildHooks *hooks, double t) {
  char buffer[8192];
  ssize_t count = read(*fd, buffer, sizeof buffer);
  if (count < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (count <= 0) {
    close(*fd);
    *fd = -1;
    return;
  }
  if (fd == &self->out) pipes__lines(self, buffer, (size_t)count, hooks, t);
  else pipes__tail(self, buffer, (size_t)count);
}

/* Waits up to `wait_ms` for output and reads it. */
static void pipes__poll(Pipes *self, double wait_ms, const ChildHooks *hooks, double start) {
  struct pollfd fds[2] = {{self->out, POLLIN, 0}, {self->err, POLLIN, 0}};
  int ready = poll(fds, 2, wait_ms < 0 ? 0 : (int)wait_ms);
  if (ready <= 0) return;
  double t = child_now_ms() - start;
  if (self->out >= 0 && fds[0].revents) pipes__read(self, &self->out, hooks, t);
  if (self->err >= 0 && fds[1].revents) pipes__read(self, &self->err, hooks, t);
}

/* The exec error the child reported, or 0 once exec succeeded. */
static int child__exec_error(int status_fd) {
  int error = 0;
  ssize_t count;
  do count = read(status_fd, &error, sizeof error);
  while (count < 0 && errno == EINTR);
  close(status_fd);
  return count == (ssize_t)sizeof error ? error : 0;
}

/* Pumps output and ticks until the child exits or time runs out. */
static void child__watch(pid_t pid, Pipes *pipes, double timeout_s, const ChildHooks *hooks,
                         ChildResult *result, double start) {
  double tick = hooks->tick_ms > 0 ? hooks->tick_ms : 20;
  double next_tick = 0;
  int status = 0;
  for (;;) {
    double now = child_now_ms() - start;
    if (now >= next_tick) {
      if (hooks->on_tick) hooks->on_tick(hooks->payload, now);
      next_tick = now + tick;
    }
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    if (now >= timeout_s * 1e3) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      result->timed_out = true;
      break;
    }
    if (pipes->out < 0 && pipes->err < 0) {
      struct timespec pause = {0, (long)(tick * 1e6)};
      nanosleep(&pause, NULL);
    } else {
      pipes__poll(pipes, next_tick - now, hooks, start);
    }
  }
  /* Output still buffered in the pipes; a grandchild that keeps them open
   * gets two seconds. */
  double drain_until = child_now_ms() + 2000;
  while ((pipes->out >= 0 || pipes->err >= 0) && child_now_ms() < drain_until) {
    pipes__poll(pipes, 100, hooks, start);
  }
  if (pipes->out >= 0) close(pipes->out);
  if (pipes->err >= 0) close(pipes->err);
  if (WIFEXITED(status)) result->exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result->term_signal = WTERMSIG(status);
}

ChildResult child_run(char *const argv[], char *const env[], double timeout_s, const ChildHooks *hooks) {
  ChildResult result = {0};
  int out[2], err[2], status[2];
  if (pipe(out) || pipe(err) || pipe(status)) {
    result.stderr_tail = gl_format("cannot create pipes: %s", strerror(errno));
    return result;
  }
  fcntl(status[1], F_SETFD, FD_CLOEXEC);
  fflush(NULL);
  double start = child_now_ms();
  pid_t pid = fork();
  if (pid == 0) {
    close(out[0]), close(err[0]), close(status[0]);
    child__exec(argv, env, out[1], err[1], status[1]);
  }
  close(out[1]), close(err[1]), close(status[1]);
  Pipes pipes = {out[0], err[0], array_new(), array_new()};
  int exec_error = errno;
  if (pid < 0) close(status[0]);
  else exec_error = child__exec_error(status[0]);
  if (pid < 0 || exec_error) {
    if (pid > 0) waitpid(pid, NULL, 0);
    close(out[0]), close(err[0]);
    result.stderr_tail = gl_format("cannot run %s: %s", argv[0], strerror(exec_error));
    return result;
  }
  result.spawned = true;
  child__watch(pid, &pipes, timeout_s, hooks, &result, start);
  if (pipes.line.size) pipes__lines(&pipes, "\n", 1, hooks, child_now_ms() - start);
  result.wall_ms = child_now_ms() - start;
  result.stderr_tail = text_take(&pipes.tail);
  array_delete(&pipes.line);
  return result;
}

void child_result_delete(ChildResult *self) {
  free(self->stderr_tail);
  self->stderr_tail = NULL;
}
