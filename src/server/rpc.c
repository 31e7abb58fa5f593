/* rpc.c — reading and writing LSP-framed JSON-RPC messages. */
#include "rpc.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "alloc.h"

#define READER_CHUNK 65536u

struct Reader {
  int fd;
  char *buffer;     /* owned; bytes [start, end) are unread */
  size_t start, end, capacity;
  char *body;       /* the last message's body; owned */
  bool ended;
};

Reader *reader_new(int fd) {
  Reader *self = gl_calloc(1, sizeof(Reader));
  self->fd = fd;
  self->capacity = READER_CHUNK;
  self->buffer = gl_malloc(self->capacity);
  return self;
}

void reader_delete(Reader *self) {
  if (!self) return;
  free(self->buffer);
  free(self->body);
  free(self);
}

/* ---- Buffering ------------------------------------------------------------- */

/* Reads more input after the unread bytes (moved to the front); false at
 * the end of input. */
static bool reader__fill(Reader *self) {
  if (self->ended) return false;
  if (self->start > 0) {
    memmove(self->buffer, self->buffer + self->start, self->end - self->start);
    self->end -= self->start;
    self->start = 0;
  }
  if (self->end == self->capacity) self->buffer = gl_realloc(self->buffer, self->capacity *= 2);
  for (;;) {
    ssize_t got = read(self->fd, self->buffer + self->end, self->capacity - self->end);
    if (got > 0) {
      self->end += (size_t)got;
      return true;
    }
    if (got < 0 && errno == EINTR) continue;
    self->ended = true;
    return false;
  }
}

bool reader_ready(Reader *self, int timeout_ms) {
  if (self->end > self->start || self->ended) return true;
  struct pollfd wait = {self->fd, POLLIN, 0};
  int ready;
  do ready = poll(&wait, 1, timeout_ms);
  while (ready < 0 && errno == EINTR);
  return ready != 0;
}

/* ---- Headers ---------------------------------------------------------------- */

/* The next header line, without its CR LF (or LF), in `line` (a buffer of
 * RPC_MAX_HEADER_LINE bytes); a longer line is cut there and read through
 * to its end. False at the end of input. */
static bool reader__line(Reader *self, char *line) {
  size_t kept = 0;
  for (;;) {
    char *newline = memchr(self->buffer + self->start, '\n', self->end - self->start);
    size_t take = newline ? (size_t)(newline - (self->buffer + self->start)) : self->end - self->start;
    size_t copy = take < RPC_MAX_HEADER_LINE - 1 - kept ? take : RPC_MAX_HEADER_LINE - 1 - kept;
    memcpy(line + kept, self->buffer + self->start, copy);
    kept += copy;
    self->start += take + (newline ? 1 : 0);
    if (newline) break;
    if (!reader__fill(self)) return false;
  }
  if (kept > 0 && line[kept - 1] == '\r') kept--;
  line[kept] = '\0';
  return true;
}

/* The value of a `Content-Length` header line, or -1 when the line is
 * another header; -2 when it is one but unusable. */
static long long reader__content_length(const char *line) {
  static const char NAME[] = "content-length:";
  if (strncasecmp(line, NAME, sizeof NAME - 1) != 0) return -1;
  const char *at = line + sizeof NAME - 1;
  while (*at == ' ' || *at == '\t') at++;
  if (*at < '0' || *at > '9') return -2;
  long long value = 0;
  for (; *at >= '0' && *at <= '9'; at++) {
    value = value * 10 + (*at - '0');
    if (value > (long long)INT32_MAX * 64) return -2;
  }
  while (*at == ' ' || *at == '\t') at++;
  return *at ? -2 : value;
}

/* ---- Bodies ------------------------------------------------------------------ */

/* Reads `length` bytes into a new body; false at the end of input. */
static bool reader__body(Reader *self, size_t length) {
  while (self->end - self->start < length) { /* reader__fill grows the buffer as needed */
    if (!reader__fill(self)) return false;
  }
  free(self->body);
  self->body = gl_malloc(length + 1);
  memcpy(self->body, self->buffer + self->start, length);
  self->body[length] = '\0';
  self->start += length;
  if (self->capacity > 4 * READER_CHUNK && self->end - self->start < READER_CHUNK) { /* give a large buffer back */
    memmove(self->buffer, self->buffer + self->start, self->end - self->start);
    self->end -= self->start;
    self->start = 0;
    self->buffer = gl_realloc(self->buffer, self->capacity = READER_CHUNK);
  }
  return true;
}

/* Reads `length` bytes and drops them; false at the end of input. */
static bool reader__skip(Reader *self, unsigned long long length) {
  while (length > 0) {
    if (self->end == self->start && !reader__fill(self)) return false;
    size_t here = self->end - self->start;
    size_t take = here < length ? here : (size_t)length;
    self->start += take;
    length -= take;
  }
  return true;
}

RpcStatus reader_next(Reader *self, const char **body, size_t *length) {
  char line[RPC_MAX_HEADER_LINE];
  long long content_length = -1;
  bool bad = false, any = false;
  for (;;) {
    if (!reader__line(self, line)) return RPC_END;
    if (line[0] == '\0') {
      if (any) break;
      continue; /* blank lines between messages */
    }
    any = true;
    long long value = reader__content_length(line);
    if (value == -2 || (value == -1 && !strchr(line, ':'))) bad = true;
    else if (value >= 0) content_length = value;
  }
  if (bad || content_length < 0) return RPC_BAD_HEADER;
  if ((unsigned long long)content_length > RPC_MAX_BODY) {
    return reader__skip(self, (unsigned long long)content_length) ? RPC_TOO_LARGE : RPC_END;
  }
  if (!reader__body(self, (size_t)content_length)) return RPC_END;
  *body = self->body;
  *length = (size_t)content_length;
  return RPC_MESSAGE;
}

/* ---- Writing ------------------------------------------------------------------- */

static bool rpc__write_all(int fd, const char *bytes, size_t length) {
  while (length > 0) {
    ssize_t put = write(fd, bytes, length);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    bytes += put;
    length -= (size_t)put;
  }
  return true;
}

bool rpc_write(int fd, const cJSON *message) {
  char *body = cJSON_PrintUnformatted(message);
  if (!body) return false;
  size_t length = strlen(body);
  char *frame = gl_format("Content-Length: %zu\r\n\r\n", length);
  size_t header = strlen(frame);
  frame = gl_realloc(frame, header + length);
  memcpy(frame + header, body, length);
  bool ok = rpc__write_all(fd, frame, header + length);
  free(frame);
  cJSON_free(body);
  return ok;
}
