/* augur format tests — the rank stream pairs completions with the calls that
 * started their requests and translates peers to world ranks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"

#define SPLIT 0x5151ull /* members (world) 1, 3 */
#define INTER 0x7777ull /* local group {3}, remote group {0, 2} */

static augur_event ev(unsigned type, uint64_t t, uint64_t comm, int32_t peer, int32_t tag,
                      uint64_t req) {
  augur_event e = tu_ev(type, t, t + 10);
  e.comm = comm;
  e.peer = peer;
  e.tag = tag;
  e.req = req;
  return e;
}

static augur_event sub(unsigned type, uint64_t req, uint32_t aux) {
  augur_event e = tu_ev(type, 0, 0);
  e.req = req;
  e.aux = aux;
  e.peer = 0;
  e.tag = 0;
  return e;
}

static void test_pairing(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 4);
  augur_error err;
  for (uint32_t r = 0; r < 4; r++) { /* empty ranks, except 3 */
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, 4, 0, &err), 0);
    int32_t world[4] = {0, 1, 2, 3}, split[2] = {1, 3}, local[1] = {3}, remote[2] = {0, 2};
    augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = 4, .members = world};
    augur_comm_def cs = {
        .id = SPLIT, .parent = 1, .kind = AUGUR_COMM_KIND_SPLIT, .size = 2, .members = split};
    /* As the recorder writes it on both sides: members = the group holding the
     * smallest world rank ({0, 2}), remote = the other ({3}); rank 3 lives in
     * `remote`, so its peers are found in `members`. */
    augur_comm_def ci = {.id = INTER,
                         .parent = 1,
                         .kind = AUGUR_COMM_KIND_INTERCOMM,
                         .size = 2,
                         .members = remote,
                         .remote_size = 1,
                         .remote = local};
    int32_t self_member = (int32_t)r;
    augur_comm_def cself = {
        .id = AUGUR_COMM_SELF, .kind = AUGUR_COMM_KIND_SELF, .size = 1, .members = &self_member};
    assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
    assert_int_equal(augur_writer_def_comm(w, &cself, &err), 0); /* differs per rank: fine */
    if (r == 1 || r == 3) assert_int_equal(augur_writer_def_comm(w, &cs, &err), 0);
    if (r == 3) assert_int_equal(augur_writer_def_comm(w, &ci, &err), 0);
    if (r != 3) {
      assert_int_equal(augur_writer_close(w, &err), 0);
      continue;
    }
    augur_event v[64];
    size_t n = 0;
    uint64_t t = 100;
    v[n] = ev(AUGUR_EV_ISEND, t += 100, SPLIT, 0, 7, 0xA); /* to split rank 0 = world 1 */
    v[n++].bytes = 100;
    v[n] = ev(AUGUR_EV_IRECV, t += 100, SPLIT, AUGUR_PEER_ANY, AUGUR_TAG_ANY, 0xB);
    v[n].flags = AUGUR_F_ANY_SOURCE | AUGUR_F_ANY_TAG;
    v[n++].bytes_recv = 64;
    v[n] = ev(AUGUR_EV_SEND_INIT, t += 100, AUGUR_COMM_WORLD, 2, 5, 0xC);
    v[n++].bytes = 8;
    v[n++] = ev(AUGUR_EV_START, t += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0xC);
    v[n] = ev(AUGUR_EV_WAIT, t += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0);
    v[n++].aux = 1;
    v[n++] = sub(AUGUR_EV_COMPLETION, 0xC, 0); /* [5] persistent send */
    v[n] = ev(AUGUR_EV_STARTALL, t += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0);
    v[n++].aux = 1;
    v[n++] = sub(AUGUR_EV_SUB_START, 0xC, 0);
    v[n] = ev(AUGUR_EV_WAITALL, t += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0); /* [8] */
    v[n++].aux = 3;
    v[n++] = sub(AUGUR_EV_COMPLETION, 0xA, 0); /* [9] isend */
    v[n] = sub(AUGUR_EV_COMPLETION, 0xB, 1);   /* [10] irecv, status source split 0 */
    v[n].peer = 0;
    v[n].tag = 9;
    v[n++].bytes_recv = 48;
    v[n++] = sub(AUGUR_EV_COMPLETION, 0xC, 2); /* [11] persistent again */
    v[n++] = ev(AUGUR_EV_REQUEST_FREE, t += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0xC);
    v[n] = ev(AUGUR_EV_WAITALL, t += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0);
    v[n++].aux = 2;
    v[n++] = sub(AUGUR_EV_COMPLETION, 0xC, 0); /* [14] freed: unmatched */
    v[n++] = sub(AUGUR_EV_COMPLETION, 0xB, 1); /* [15] completed already: unmatched */
    v[n] = ev(AUGUR_EV_IBCAST, t += 100, SPLIT, 0, AUGUR_TAG_NONE, 0xD); /* root split 0 */
    v[n].bytes_recv = 256;
    v[n++].flags = 0;
    v[n] = ev(AUGUR_EV_ISEND, t += 100, INTER, 1, 3, 0xE); /* remote rank 1 = world 2 */
    v[n].flags = AUGUR_F_INTER;
    v[n++].bytes = 12;
    v[n] = ev(AUGUR_EV_IRECV, t += 100, INTER, AUGUR_PEER_ANY, 4, 0xF);
    v[n++].flags = AUGUR_F_INTER | AUGUR_F_ANY_SOURCE;
    v[n] = ev(AUGUR_EV_WAITSOME, t += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0); /* [19] */
    v[n++].aux = 3;
    v[n++] = sub(AUGUR_EV_COMPLETION, 0xD, 0); /* [20] ibcast */
    v[n++] = sub(AUGUR_EV_COMPLETION, 0xE, 1); /* [21] inter send */
    v[n] = sub(AUGUR_EV_COMPLETION, 0xF, 2);   /* [22] inter recv from remote 0 = world 0 */
    v[n].peer = 0;
    v[n].tag = 4;
    v[n++].bytes_recv = 4;
    v[n] = ev(AUGUR_EV_SENDRECV, t += 100, SPLIT, 0, 1, 0); /* [23] */
    v[n++].aux = 1;
    v[n] = sub(AUGUR_EV_SUB_RECV, 0, 0); /* [24] from split 0, comm left 0 */
    v[n].peer = 0;
    v[n++].tag = 2;
    v[n] = ev(AUGUR_EV_RECV, t += 100, AUGUR_COMM_SELF, 0, 1, 0); /* [25] self */
    v[n++].bytes_recv = 1;
    v[n++] = ev(AUGUR_EV_SEND, t += 100, 0xdead, 5, 1, 0); /* [26] unknown comm: kept */
    v[n++] = ev(AUGUR_EV_SEND, t += 100, SPLIT, AUGUR_PEER_PROC_NULL, 1, 0); /* [27] */
    v[n++] = ev(AUGUR_EV_SEND, t += 100, SPLIT, 9, 1, 0);        /* [28] out of range: kept */
    v[n++] = ev(AUGUR_EV_COMM_DUP, t += 100, SPLIT, 0, 0, 0x99); /* [29] no peer */
    assert_int_equal(augur_writer_events(w, 0, v, n, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  int rc = augur_trace_open(&t, dir, &err);
  if (rc) fail_msg("%s", err.msg);
  assert_int_equal(augur_trace_damage(t, 3, NULL), 0);
  size_t n;
  augur_event *o = tu_read_rank(t, 3, &n, &rc, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(n, 30);
  assert_int_equal(o[0].peer, 1); /* isend to split 0 */
  assert_int_equal(o[1].peer, AUGUR_PEER_ANY);
  /* [5] persistent send completion */
  assert_int_equal(o[5].flags, AUGUR_F_SENDREQ | AUGUR_F_PERSISTENT);
  assert_int_equal(o[5].comm, AUGUR_COMM_WORLD);
  assert_int_equal(o[5].peer, 2);
  assert_int_equal(o[5].tag, 5);
  assert_int_equal(o[5].bytes, 8);
  /* [9] isend */
  assert_int_equal(o[9].flags, AUGUR_F_SENDREQ);
  assert_int_equal(o[9].comm, SPLIT);
  assert_int_equal(o[9].peer, 1);
  assert_int_equal(o[9].tag, 7);
  assert_int_equal(o[9].bytes, 100);
  /* [10] wildcard irecv: status source split 0 -> world 1, status tag and size kept */
  assert_int_equal(o[10].flags, AUGUR_F_RECVREQ);
  assert_int_equal(o[10].comm, SPLIT);
  assert_int_equal(o[10].peer, 1);
  assert_int_equal(o[10].tag, 9);
  assert_int_equal(o[10].bytes_recv, 48);
  assert_int_equal(o[11].flags, AUGUR_F_SENDREQ | AUGUR_F_PERSISTENT);
  assert_int_equal(o[14].flags, AUGUR_F_UNMATCHED);
  assert_int_equal(o[15].flags, AUGUR_F_UNMATCHED);
  assert_int_equal(o[16].peer, 1); /* ibcast root */
  assert_int_equal(o[20].flags, AUGUR_F_COLLREQ);
  assert_int_equal(o[20].peer, 1);
  assert_int_equal(o[20].bytes_recv, 256);
  assert_int_equal(o[17].peer, 2); /* intercomm remote 1 */
  assert_int_equal(o[21].flags, AUGUR_F_SENDREQ | AUGUR_F_INTER);
  assert_int_equal(o[21].peer, 2);
  assert_int_equal(o[22].flags, AUGUR_F_RECVREQ | AUGUR_F_INTER);
  assert_int_equal(o[22].peer, 0);
  assert_int_equal(o[23].peer, 1);
  assert_int_equal(o[24].comm, SPLIT);
  assert_int_equal(o[24].peer, 1);
  assert_int_equal(o[24].tag, 2);
  assert_int_equal(o[25].peer, 3); /* self rank 0 = me */
  assert_int_equal(o[26].peer, 5);
  assert_int_equal(o[27].peer, AUGUR_PEER_PROC_NULL);
  assert_int_equal(o[28].peer, 9);
  assert_int_equal(o[29].peer, 0);
  assert_int_equal(o[29].req, 0x99);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(o[i].rank, 3);
  free(o);
  /* The merged stream hands out the same pairing. */
  augur_stream *s;
  assert_int_equal(augur_stream_merged(t, &s, &err), 0);
  augur_event e;
  size_t k = 0;
  while ((rc = augur_stream_next(s, &e, &err)) == 1) {
    if (k == 10) {
      assert_int_equal(e.peer, 1);
      assert_int_equal(e.flags, AUGUR_F_RECVREQ);
    }
    k++;
  }
  assert_int_equal(rc, 0);
  assert_int_equal(k, 30);
  augur_stream_close(s);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* MPICH gives every send that completed at once the same handle: several
 * in-flight requests share it and complete in start order. */
static void test_shared_handle(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 0, &err), 0);
  augur_event v[16];
  size_t n = 0;
  uint64_t tt = 100;
  const uint64_t shared = 0x6c000001;
  v[n] = ev(AUGUR_EV_IRECV, tt += 100, AUGUR_COMM_WORLD, 0, 1, 0xac000000);
  v[n++].bytes_recv = 80;
  v[n] = ev(AUGUR_EV_ISEND, tt += 100, AUGUR_COMM_WORLD, 0, 1, shared);
  v[n++].bytes = 10;
  v[n] = ev(AUGUR_EV_ISEND, tt += 100, AUGUR_COMM_WORLD, 0, 2, shared);
  v[n++].bytes = 20;
  v[n] = ev(AUGUR_EV_ISEND, tt += 100, AUGUR_COMM_WORLD, 0, 3, shared);
  v[n++].bytes = 30;
  v[n] = ev(AUGUR_EV_WAITALL, tt += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0); /* [4] */
  v[n++].aux = 3;
  v[n++] = sub(AUGUR_EV_COMPLETION, 0xac000000, 0);
  v[n++] = sub(AUGUR_EV_COMPLETION, shared, 1); /* [6] tag 1 */
  v[n++] = sub(AUGUR_EV_COMPLETION, shared, 2); /* [7] tag 2 */
  v[n] = ev(AUGUR_EV_WAIT, tt += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0);
  v[n++].aux = 1;
  v[n++] = sub(AUGUR_EV_COMPLETION, shared, 0); /* [9] tag 3 */
  v[n] = ev(AUGUR_EV_WAIT, tt += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0);
  v[n++].aux = 1;
  v[n++] = sub(AUGUR_EV_COMPLETION, shared, 0); /* [11] nothing left */
  v[n] = ev(AUGUR_EV_ISEND, tt += 100, AUGUR_COMM_WORLD, 0, 4, shared);
  v[n++].bytes = 40;
  v[n] = ev(AUGUR_EV_WAIT, tt += 100, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0);
  v[n++].aux = 1;
  v[n++] = sub(AUGUR_EV_COMPLETION, shared, 0); /* [14] tag 4 */
  assert_int_equal(augur_writer_events(w, 0, v, n, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  augur_trace *t;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  size_t got;
  int rc;
  augur_event *o = tu_read_rank(t, 0, &got, &rc, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(got, n);
  assert_int_equal(o[5].flags, AUGUR_F_RECVREQ);
  assert_int_equal(o[6].flags, AUGUR_F_SENDREQ);
  assert_int_equal(o[6].tag, 1);
  assert_int_equal(o[6].bytes, 10);
  assert_int_equal(o[7].tag, 2);
  assert_int_equal(o[7].bytes, 20);
  assert_int_equal(o[9].tag, 3);
  assert_int_equal(o[9].bytes, 30);
  assert_int_equal(o[11].flags, AUGUR_F_UNMATCHED);
  assert_int_equal(o[14].flags, AUGUR_F_SENDREQ);
  assert_int_equal(o[14].tag, 4);
  free(o);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* Two ranks that disagree about one communicator's members: the later
 * definition block counts as damage. */
static void test_comm_disagree(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 2);
  augur_error err;
  for (uint32_t r = 0; r < 2; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, 2, 0, &err), 0);
    int32_t m[2] = {(int32_t)r, 1 - (int32_t)r};
    augur_comm_def c = {.id = 0x42, .size = 2, .members = m};
    assert_int_equal(augur_writer_def_comm(w, &c, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  const char *msg;
  assert_int_equal(augur_trace_damage(t, 1, &msg), 1);
  assert_non_null(strstr(msg, "rank-00001.evt"));
  assert_non_null(strstr(msg, "disagree"));
  augur_trace_close(t);
  tu_cleanup(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pairing),
      cmocka_unit_test(test_comm_disagree),
      cmocka_unit_test(test_shared_handle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
