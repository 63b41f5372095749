/* augur — message matching: the one streaming matcher behind the exports,
 * the timeline and diagnose.
 *
 * Feed it the events of augur_stream_merged in stream order (parents followed
 * by their sub-records). Only each rank's order matters: a stream with slack
 * (augur_stream_set_slack) gives the same messages and instances, with the
 * in-flight memory of the slack's window. It calls back once per matched point-to-point
 * message and once per complete collective instance. Rules (see
 * docs/design.md "Message matching"):
 *  - sends match receives FIFO per (sender, receiver, comm, tag): MPI's
 *    non-overtaking rule; a wildcard receive takes part under the source and
 *    tag of its recorded status, at the time it completes;
 *  - the k-th collective call of each member rank on a communicator forms
 *    instance k of that communicator.
 * Memory holds in-flight messages, open requests and in-flight collective
 * instances only. */
#ifndef AUGUR_MATCH_H
#define AUGUR_MATCH_H

#include <stdint.h>

#include "augur/api.h"
#include "augur/error.h"
#include "augur/event.h"
#include "augur/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How an end of a message was posted. */
enum augur_match_kind {
  AUGUR_MATCH_BLOCKING = 0,    /* Send, Recv, Mrecv, Sendrecv */
  AUGUR_MATCH_NONBLOCKING = 1, /* Isend..., Irecv, Imrecv */
  AUGUR_MATCH_PERSISTENT = 2   /* Send_init.../Recv_init + Start */
};

/* One end of a message.
 * Send: t_start/t_end = the call that sent it (Send, Isend, Sendrecv; for a
 *   persistent request the Start or Startall), t_post = t_start.
 * Receive: blocking (Recv, Mrecv, Sendrecv's SUB_RECV): the call, t_post =
 *   t_start. Nonblocking or persistent: t_post = start of the Irecv / Imrecv
 *   / Start that posted it; t_start/t_end = the Wait/Test call whose
 *   COMPLETION finished it. */
typedef struct augur_match_end {
  uint64_t t_post;
  uint64_t t_start, t_end;
  uint64_t bytes;         /* send: bytes sent; receive: bytes of the status */
  uint64_t callsite;      /* global call-site id of the posting call (0 = unknown) */
  uint64_t wait_callsite; /* global call-site id of the call t_start/t_end are from:
                             the Wait/Test that completed a request (where a
                             receiver's wait is spent), else = callsite */
  uint32_t rank;          /* world rank */
  uint32_t thread;
  uint64_t hash;  /* payload fingerprint of this end (0 = none recorded) */
  uint16_t type;  /* type of the posting call (AUGUR_EV_ISEND, AUGUR_EV_SUB_RECV, ...) */
  uint16_t flags; /* AUGUR_F_* of the event this end comes from */
  uint8_t kind;   /* enum augur_match_kind */
  uint8_t sync;   /* 1: synchronous send (Ssend, Issend, Ssend_init) */
  uint64_t call;  /* the feeder's tag of the call t_start/t_end are from
                     (augur_match_feed_call), else AUGUR_MATCH_NO_CALL */
} augur_match_end;

typedef struct augur_message {
  uint64_t id; /* 0, 1, 2, ... in match order */
  uint32_t sender, receiver;
  uint64_t comm;
  int32_t tag;
  uint64_t bytes; /* the sender's count */
  augur_match_end send, recv;
} augur_message;

/* One member's call in a collective instance. */
typedef struct augur_coll_member {
  uint32_t rank; /* world rank */
  uint32_t thread;
  uint64_t t_start, t_end; /* the collective call (for I* calls: the call itself) */
  uint64_t bytes, bytes_recv;
  uint64_t callsite;
  int32_t root; /* world rank of the root, or AUGUR_PEER_NONE */
  uint16_t type;
  uint64_t call; /* the feeder's tag of the call (augur_match_feed_call), else
                    AUGUR_MATCH_NO_CALL */
} augur_coll_member;

typedef struct augur_coll_instance {
  uint64_t comm;
  uint64_t index; /* k: the k-th collective call on comm (0-based) */
  uint16_t type;  /* event type of the first member's call */
  uint16_t mixed; /* 1: members called different collectives (a bug in the program) */
  uint32_t nmembers;
  const augur_coll_member *members; /* in comm rank order; valid during the callback */
} augur_coll_instance;

/* Callbacks return AUGUR_OK or a negative status that stops augur_match_feed. */
typedef int (*augur_message_fn)(void *ctx, const augur_message *m);
typedef int (*augur_coll_fn)(void *ctx, const augur_coll_instance *c);

typedef struct augur_match_counts {
  uint64_t messages;         /* matched */
  uint64_t unmatched_send;   /* sends still waiting for a receive */
  uint64_t unmatched_recv;   /* receives still waiting for a send */
  uint64_t open_recv;        /* nonblocking receives posted, never completed */
  uint64_t collectives;      /* complete instances */
  uint64_t open_coll;        /* instances some member never reached */
  uint64_t dropped;          /* ends not queued: AUGUR_MATCH_MAX_PENDING were waiting */
  uint64_t sends_by_horizon; /* waiting sends that started at or before the horizon */
} augur_match_counts;

/* Waiting ends over all channels beyond which new ones are dropped (counted):
 * a trace full of unmatched sends must not grow memory without bound. */
#define AUGUR_MATCH_MAX_PENDING (4u << 20)

typedef struct augur_matcher augur_matcher;

/* TRACE gives the communicators' members for collectives; collectives are
 * followed only with a TRACE and an ON_COLL. ON_MESSAGE may be NULL. */
AUGUR_API augur_matcher *augur_matcher_new(augur_trace *trace, augur_message_fn on_message,
                                           augur_coll_fn on_coll, void *ctx);
AUGUR_API void augur_matcher_free(augur_matcher *m);
/* Feeds one event of the merged stream. Returns AUGUR_OK, a callback's
 * status, or AUGUR_E_NOMEM (with ERR filled). */
AUGUR_API int augur_match_feed(augur_matcher *m, const augur_event *ev, augur_error *err);
/* The same, with the caller's tag for EV's call (e.g. its index in the
 * caller's arrays): the ends and members whose times are that call's carry
 * it in their `call`, so a callback needs no search by time. A sub-record's
 * CALL is ignored: it takes its parent's. augur_match_feed tags
 * AUGUR_MATCH_NO_CALL. */
#define AUGUR_MATCH_NO_CALL UINT64_MAX
AUGUR_API int augur_match_feed_call(augur_matcher *m, const augur_event *ev, uint64_t call,
                                    augur_error *err);
/* Counters so far; "unmatched" are final once the stream has ended (a trace
 * cut short leaves some). */
AUGUR_API void augur_match_counts_get(const augur_matcher *m, augur_match_counts *c);
/* Sets the time that counts.sends_by_horizon refers to (default: no limit).
 * Call before feeding: a windowed reader stops once it is past its window
 * and no send of the window still waits. */
AUGUR_API void augur_matcher_set_horizon(augur_matcher *m, uint64_t t);
/* The same as counts.sends_by_horizon, in constant time. */
AUGUR_API uint64_t augur_match_sends_by_horizon(const augur_matcher *m);
/* Calls FN for every end still waiting for its partner (IS_SEND: a send). */
typedef void (*augur_waiting_fn)(void *ctx, uint32_t sender, uint32_t receiver, uint64_t comm,
                                 int32_t tag, const augur_match_end *e, int is_send);
AUGUR_API void augur_match_each_waiting(const augur_matcher *m, augur_waiting_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
