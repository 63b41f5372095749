/* augur recorder — communicator handles to stable ids.
 *
 * Every wrapper needs the id of its communicator, so lookups are lock-free:
 * a fixed-capacity open-addressing table whose slots are written under a
 * mutex (communicator creation is rare) and read with atomic loads. Handles
 * are opaque bytes (an int in MPICH, a pointer in Open MPI) copied into a
 * uint64. MPI reuses handles after MPI_Comm_free, so freeing clears the slot's
 * id (the key stays, keeping probe chains intact) and the next creation with
 * that handle overwrites it.
 *
 * Ids agree on every member without extra messages: xxh3 over (kind, parent
 * id, sorted member world ranks, how many communicators of that kind with those
 * members this parent produced before). MPI orders collective calls on a
 * communicator, so every member counts the same. Never 0, 1 or 2. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "grow.h"
#include "mix.h"
#include "rec_internal.h"
#include "u64map.h"

#define SLOTS (1u << 15)

typedef struct slot {
  _Atomic uint64_t key;
  _Atomic uint64_t id;
  _Atomic uint64_t rank_size;   /* my rank << 32 | size */
  _Atomic uint64_t inter_rsize; /* FOREIGN | is_inter << 32 | remote size */
} slot;

/* inter_rsize bit of a handle whose members are not all in our
 * MPI_COMM_WORLD (Comm_spawn, connect/accept between jobs): id 0, never
 * defined (a definition holds world ranks). Cleared when it is freed. */
#define FOREIGN (1ull << 33)

static slot table[SLOTS];
static pthread_mutex_t comm_lock = PTHREAD_MUTEX_INITIALIZER;

/* creation counters: hash of (kind, parent, members) -> count */
static aug_u64map seqs;

/* pending Comm_idup: request -> (where the new handle will be, its id) */
typedef struct idup {
  uint64_t req;
  MPI_Comm *newcomm;
  uint64_t id;
  uint32_t rank, size;
} idup;
static idup *idups;
static size_t nidup, idup_cap;
atomic_int aug_idup_pending;

static uint64_t handle_key(MPI_Comm c) {
  uint64_t k = 0;
  memcpy(&k, &c, sizeof c < sizeof k ? sizeof c : sizeof k);
  return k;
}

static size_t slot_of(uint64_t key) {
  return (size_t)aug_mix64(key) & (SLOTS - 1);
}

static slot *find(uint64_t key) {
  size_t s = slot_of(key);
  for (size_t n = 0; n < SLOTS; n++, s = (s + 1) & (SLOTS - 1)) {
    uint64_t k = atomic_load_explicit(&table[s].key, memory_order_acquire);
    if (k == key) return &table[s];
    if (k == 0) return NULL;
  }
  return NULL;
}

/* Caller holds comm_lock. */
static void put(uint64_t key, uint64_t id, uint32_t rank, uint32_t size, int inter,
                uint32_t rsize) {
  size_t s = slot_of(key);
  for (size_t n = 0; n < SLOTS; n++, s = (s + 1) & (SLOTS - 1)) {
    uint64_t k = atomic_load_explicit(&table[s].key, memory_order_relaxed);
    if (k != 0 && k != key) continue;
    atomic_store_explicit(&table[s].rank_size, (uint64_t)rank << 32 | size, memory_order_relaxed);
    atomic_store_explicit(&table[s].inter_rsize, (uint64_t)(inter != 0) << 32 | rsize,
                          memory_order_relaxed);
    atomic_store_explicit(&table[s].id, id, memory_order_release);
    if (k == 0) atomic_store_explicit(&table[s].key, key, memory_order_release);
    return;
  }
  /* Table full of live handles: the communicator stays unknown (id 0). */
}

static uint32_t next_seq(uint64_t h) {
  uint32_t *v = aug_u64map_slot(&seqs, h ? h : 1, NULL);
  return v ? (*v)++ : 0;
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* World ranks of a group's members, in group order. */
static int32_t *group_world(MPI_Group g, int n) {
  MPI_Group world;
  int32_t *out = malloc((size_t)(n ? n : 1) * sizeof *out);
  int *in = malloc((size_t)(n ? n : 1) * sizeof *in);
  if (!out || !in) {
    free(out);
    free(in);
    return NULL;
  }
  for (int i = 0; i < n; i++)
    in[i] = i;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  PMPI_Group_translate_ranks(g, n, in, world, (int *)out);
  PMPI_Group_free(&world);
  free(in);
  return out;
}

static int32_t min_of(const int32_t *v, int n) {
  int32_t m = v[0];
  for (int i = 1; i < n; i++)
    if (v[i] < m) m = v[i];
  return m;
}

/* Hash input: kind, parent, then each group sorted (a group of an
 * intercommunicator: the one with the smaller first world rank goes first, so
 * both sides hash the same words). */
static uint64_t make_id(unsigned kind, uint64_t parent, const int32_t *a, int na, const int32_t *b,
                        int nb) {
  size_t nw = 4 + (size_t)na + (size_t)nb;
  int32_t *w = malloc(nw * sizeof *w);
  if (!w) return AUGUR_COMM_NONE;
  int32_t *sa = w + 4, *sb = w + 4 + na;
  memcpy(sa, a, (size_t)na * sizeof *a);
  qsort(sa, (size_t)na, sizeof *sa, cmp_i32);
  if (nb) {
    memcpy(sb, b, (size_t)nb * sizeof *b);
    qsort(sb, (size_t)nb, sizeof *sb, cmp_i32);
    if (na && sb[0] < sa[0]) { /* canonical order: swap the two groups */
      int32_t *tmp = malloc((size_t)na * sizeof *tmp);
      if (!tmp) {
        free(w);
        return AUGUR_COMM_NONE;
      }
      memcpy(tmp, sa, (size_t)na * sizeof *tmp);
      memmove(w + 4, sb, (size_t)nb * sizeof *sb);
      memcpy(w + 4 + nb, tmp, (size_t)na * sizeof *tmp);
      free(tmp);
      int t = na;
      na = nb;
      nb = t;
    }
  }
  w[0] = (int32_t)kind;
  w[1] = (int32_t)(parent >> 32);
  w[2] = (int32_t)parent;
  w[3] = na;
  uint64_t base = XXH3_64bits(w, nw * sizeof *w);
  uint32_t seq = next_seq(base);
  uint64_t id = XXH3_64bits_withSeed(w, nw * sizeof *w, seq);
  free(w);
  if (id <= AUGUR_COMM_SELF) id += 3;
  return id;
}

static void queue_def(const augur_comm_def *def) {
  pthread_mutex_lock(&aug_lock);
  if (aug_writer) {
    augur_error err;
    if (augur_writer_def_comm(aug_writer, def, &err) != AUGUR_OK)
      aug_rec_fail("communicator definition", err.msg);
  }
  pthread_mutex_unlock(&aug_lock);
}

/* 1 if a member is outside our MPI_COMM_WORLD (a spawned or connected job). */
static int foreign_members(const int32_t *m, int n) {
  for (int i = 0; m && i < n; i++)
    if (m[i] < 0 || m[i] >= aug_world_size) return 1;
  return 0;
}

/* Builds and queues the definition of c and maps KEY (c's handle, or a
 * window's made over c: rec_rma.c) to it. Returns the id (AUGUR_COMM_NONE for
 * a communicator with members outside our world, which is marked FOREIGN
 * instead). id_kind differs from kind only for Comm_idup (its own creation
 * counter). */
static uint64_t define_keyed(MPI_Comm c, uint64_t key, uint64_t parent, unsigned kind,
                             unsigned id_kind) {
  int size = 0, rank = 0, inter = 0, rsize = 0;
  PMPI_Comm_test_inter(c, &inter);
  PMPI_Comm_size(c, &size);
  PMPI_Comm_rank(c, &rank);
  MPI_Group g;
  PMPI_Comm_group(c, &g);
  int32_t *members = group_world(g, size);
  PMPI_Group_free(&g);
  int32_t *remote = NULL;
  if (inter) {
    PMPI_Comm_remote_size(c, &rsize);
    PMPI_Comm_remote_group(c, &g);
    remote = group_world(g, rsize);
    PMPI_Group_free(&g);
  }
  if (!members || (inter && !remote)) {
    free(members);
    free(remote);
    return AUGUR_COMM_NONE;
  }
  if (foreign_members(members, size) || foreign_members(remote, rsize)) {
    pthread_mutex_lock(&comm_lock);
    put(key, AUGUR_COMM_NONE, (uint32_t)rank, (uint32_t)size, inter, (uint32_t)rsize);
    slot *s = find(key);
    if (s) atomic_fetch_or_explicit(&s->inter_rsize, FOREIGN, memory_order_relaxed);
    pthread_mutex_unlock(&comm_lock);
    free(members);
    free(remote);
    return AUGUR_COMM_NONE;
  }
  augur_comm_def def;
  memset(&def, 0, sizeof def);
  def.parent = inter ? 0 : parent; /* the two sides of an intercomm have different parents */
  def.kind = kind;
  def.size = (uint32_t)size;
  def.members = members;
  def.remote_size = (uint32_t)rsize;
  def.remote = remote;
  /* Both sides of an intercommunicator define it under one id, so the
   * definition must read the same on both: `members` is the group holding
   * the smallest world rank, `remote` the other one (for ranks of the second
   * group, their local group is `remote`). */
  if (inter && rsize > 0 && size > 0 && min_of(remote, rsize) < min_of(members, size)) {
    def.members = remote;
    def.size = (uint32_t)rsize;
    def.remote = members;
    def.remote_size = (uint32_t)size;
  }
  int topo = MPI_UNDEFINED;
  PMPI_Topo_test(c, &topo);
  if (topo == MPI_CART) {
    int nd = 0;
    PMPI_Cartdim_get(c, &nd);
    if (nd > 0 && nd <= AUGUR_MAX_DIMS) {
      int dims[AUGUR_MAX_DIMS], per[AUGUR_MAX_DIMS], coords[AUGUR_MAX_DIMS];
      PMPI_Cart_get(c, nd, dims, per, coords);
      def.ndims = (uint32_t)nd;
      for (int i = 0; i < nd; i++) {
        def.dims[i] = dims[i];
        def.periods[i] = per[i];
      }
    }
  }
  pthread_mutex_lock(&comm_lock);
  def.id = make_id(id_kind, def.parent, members, size, remote, rsize);
  if (def.id != AUGUR_COMM_NONE)
    put(key, def.id, (uint32_t)rank, (uint32_t)size, inter, (uint32_t)rsize);
  pthread_mutex_unlock(&comm_lock);
  if (def.id != AUGUR_COMM_NONE) queue_def(&def);
  free(members);
  free(remote);
  return def.id;
}

static uint64_t define(MPI_Comm c, uint64_t parent, unsigned kind, unsigned id_kind) {
  return define_keyed(c, handle_key(c), parent, kind, id_kind);
}

void aug_comm_setup(void) {
  int n = aug_world_size;
  int32_t *m = malloc((size_t)n * sizeof *m);
  if (m) {
    for (int i = 0; i < n; i++)
      m[i] = i;
    augur_comm_def w = {
        .id = AUGUR_COMM_WORLD, .kind = AUGUR_COMM_KIND_WORLD, .size = (uint32_t)n, .members = m};
    queue_def(&w);
    free(m);
  }
  int32_t me = aug_world_rank;
  augur_comm_def s = {.id = AUGUR_COMM_SELF,
                      .parent = AUGUR_COMM_WORLD,
                      .kind = AUGUR_COMM_KIND_SELF,
                      .size = 1,
                      .members = &me};
  queue_def(&s);
}

uint64_t aug_comm_id(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return AUGUR_COMM_WORLD;
  if (comm == MPI_COMM_SELF) return AUGUR_COMM_SELF;
  if (comm == MPI_COMM_NULL) return AUGUR_COMM_NONE;
  slot *s = find(handle_key(comm));
  uint64_t id = s ? atomic_load_explicit(&s->id, memory_order_acquire) : 0;
  if (id) return id;
  if (s && (atomic_load_explicit(&s->inter_rsize, memory_order_relaxed) & FOREIGN))
    return AUGUR_COMM_NONE;
  /* Created by a call we do not wrap (Comm_create_group, Comm_accept, ...):
   * define it now, once. */
  if (!aug_rec_active()) return AUGUR_COMM_NONE;
  return define(comm, AUGUR_COMM_NONE, AUGUR_COMM_KIND_OTHER, AUGUR_COMM_KIND_OTHER);
}

int aug_comm_is_inter(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF || comm == MPI_COMM_NULL) return 0;
  uint64_t id = aug_comm_id(comm);
  slot *s = find(handle_key(comm));
  uint64_t ir = s ? atomic_load_explicit(&s->inter_rsize, memory_order_relaxed) : 0;
  if (id == AUGUR_COMM_NONE && !(ir & FOREIGN)) return 0; /* unknown */
  return (int)(ir >> 32) & 1;
}

int aug_comm_rank_in(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return aug_world_rank;
  if (comm == MPI_COMM_SELF) return 0;
  if (aug_comm_id(comm) != AUGUR_COMM_NONE) {
    slot *s = find(handle_key(comm));
    if (s) return (int)(atomic_load_explicit(&s->rank_size, memory_order_relaxed) >> 32);
  }
  int r = -1;
  if (comm != MPI_COMM_NULL) PMPI_Comm_rank(comm, &r);
  return r;
}

int aug_comm_nprocs_for_counts(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return aug_world_size;
  if (comm == MPI_COMM_SELF) return 1;
  if (aug_comm_id(comm) != AUGUR_COMM_NONE) {
    slot *s = find(handle_key(comm));
    if (s) {
      uint64_t ir = atomic_load_explicit(&s->inter_rsize, memory_order_relaxed);
      if (ir >> 32) return (int)(uint32_t)ir;
      return (int)(uint32_t)atomic_load_explicit(&s->rank_size, memory_order_relaxed);
    }
  }
  int n = 0, inter = 0;
  if (comm == MPI_COMM_NULL) return 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter)
    PMPI_Comm_remote_size(comm, &n);
  else
    PMPI_Comm_size(comm, &n);
  return n;
}

void aug_comm_created(augur_event *ev, MPI_Comm parent, MPI_Comm newcomm, unsigned kind) {
  aug_comm_created_as(ev, parent, newcomm, kind, kind);
}

void aug_comm_created_as(augur_event *ev, MPI_Comm parent, MPI_Comm newcomm, unsigned kind,
                         unsigned id_kind) {
  uint64_t pid = aug_comm_id(parent);
  ev->comm = pid;
  if (newcomm == MPI_COMM_NULL) return;
  ev->req = define(newcomm, pid, kind, id_kind);
}

void aug_comm_freed(augur_event *ev, MPI_Comm comm) {
  ev->comm = aug_comm_id(comm);
  if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF || comm == MPI_COMM_NULL) return;
  pthread_mutex_lock(&comm_lock);
  slot *s = find(handle_key(comm));
  if (s) {
    atomic_store_explicit(&s->id, 0, memory_order_release);
    atomic_store_explicit(&s->inter_rsize, 0, memory_order_relaxed);
  }
  pthread_mutex_unlock(&comm_lock);
}

/* Comm_idup: the new handle may not be used before the request completes, but
 * its members are the parent's in the same order, so the id and definition
 * are made now (the call order is the collective order) and the handle is
 * mapped at completion. */
void aug_comm_idup_started(augur_event *ev, MPI_Comm parent, MPI_Comm *newcomm, MPI_Request req) {
  uint64_t pid = aug_comm_id(parent);
  ev->comm = pid;
  /* req holds the new communicator's id, as for every constructor (not the
   * request handle: the completion stays unmatched, docs/trace-format.md) */
  ev->req = AUGUR_COMM_NONE;
  if (pid == AUGUR_COMM_NONE) return;
  int size = 0, rank = 0;
  PMPI_Comm_size(parent, &size);
  PMPI_Comm_rank(parent, &rank);
  MPI_Group g;
  PMPI_Comm_group(parent, &g);
  int32_t *members = group_world(g, size);
  PMPI_Group_free(&g);
  if (!members) return;
  augur_comm_def def;
  memset(&def, 0, sizeof def);
  def.parent = pid;
  def.kind = AUGUR_COMM_KIND_DUP;
  def.size = (uint32_t)size;
  def.members = members;
  pthread_mutex_lock(&comm_lock);
  /* Own creation counter (kind + 100) so Comm_dup and Comm_idup of one parent
   * cannot be counted in different orders on different ranks. */
  def.id = make_id(AUGUR_COMM_KIND_DUP + 100, pid, members, size, NULL, 0);
  ev->req = def.id;
  if (aug_grow((void **)&idups, &idup_cap, nidup + 1, sizeof *idups) == 0) {
    idups[nidup++] = (idup){aug_req_id(req), newcomm, def.id, (uint32_t)rank, (uint32_t)size};
    atomic_store(&aug_idup_pending, (int)nidup);
  }
  pthread_mutex_unlock(&comm_lock);
  queue_def(&def);
  free(members);
}

void aug_comm_idup_completed(uint64_t req) {
  pthread_mutex_lock(&comm_lock);
  for (size_t i = 0; i < nidup; i++)
    if (idups[i].req == req) {
      put(handle_key(*idups[i].newcomm), idups[i].id, idups[i].rank, idups[i].size, 0, 0);
      idups[i] = idups[--nidup];
      atomic_store(&aug_idup_pending, (int)nidup);
      break;
    }
  pthread_mutex_unlock(&comm_lock);
}

/* ---- for one-sided windows (rec_rma.c) ---- */

uint64_t aug_comm_define_object(MPI_Comm comm, uint64_t key, unsigned kind) {
  uint64_t pid = aug_comm_id(comm);
  if (pid == AUGUR_COMM_NONE || key == 0) return AUGUR_COMM_NONE;
  return define_keyed(comm, key, pid, kind, kind);
}

uint64_t aug_comm_object_id(uint64_t key) {
  slot *s = key ? find(key) : NULL;
  return s ? atomic_load_explicit(&s->id, memory_order_acquire) : AUGUR_COMM_NONE;
}

void aug_comm_object_freed(uint64_t key) {
  pthread_mutex_lock(&comm_lock);
  slot *s = key ? find(key) : NULL;
  if (s) atomic_store_explicit(&s->id, 0, memory_order_release);
  pthread_mutex_unlock(&comm_lock);
}

int32_t *aug_group_world(MPI_Group g, int n) {
  return group_world(g, n);
}

void aug_comm_queue_def(const augur_comm_def *def) {
  queue_def(def);
}
