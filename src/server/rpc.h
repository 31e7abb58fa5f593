/* rpc.h — JSON-RPC messages framed as the Language Server Protocol frames
 * them: headers (`Content-Length: N`), a blank line, N bytes of JSON.
 *
 * A Reader reads a file descriptor through a buffer of its own, so that
 * the server can ask whether another message is already waiting (to
 * coalesce a burst of edits) without blocking. */
#ifndef GPULINT_SERVER_RPC_H
#define GPULINT_SERVER_RPC_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/* Bodies larger than this are read through and dropped. */
#define RPC_MAX_BODY (64u * 1024u * 1024u)
/* A header line longer than this is dropped to its end. */
#define RPC_MAX_HEADER_LINE 8192u

typedef enum {
  RPC_MESSAGE,   /* a body was read */
  RPC_END,       /* end of input (or a read error) */
  RPC_BAD_HEADER,/* a header block without a usable Content-Length: dropped */
  RPC_TOO_LARGE, /* a body over RPC_MAX_BODY: read through and dropped */
} RpcStatus;

typedef struct Reader Reader;

/* A reader of `fd` (borrowed; not closed). */
Reader *reader_new(int fd);
void reader_delete(Reader *self);

/* Reads the next message. On RPC_MESSAGE, `*body` (NUL-terminated, owned by
 * the reader until the next call) holds `*length` bytes. */
RpcStatus reader_next(Reader *self, const char **body, size_t *length);

/* Whether input is waiting: buffered, or readable within `timeout_ms`
 * (0: now). End of input counts as waiting. */
bool reader_ready(Reader *self, int timeout_ms);

/* Writes `message` framed to `fd`; false when the other end is gone. */
bool rpc_write(int fd, const cJSON *message);

#endif
