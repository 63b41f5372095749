/* Internals of execution-graph files (src/sim/gfile_*.c): the parsed program
 * (expression trees, statements, classes, communicators). */
#ifndef AUGUR_GFILE_INT_H
#define AUGUR_GFILE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "augur/simgraph.h"

#define GF_MAX_DEPTH 32 /* nested loops/branches */

enum gx_kind {
  GX_NUM,
  GX_VAR, /* loop variable: idx = loop depth (0 = outermost) */
  GX_ME,
  GX_RANK,
  GX_NRANKS,
  GX_COUNT,  /* n(CLASS): idx = class */
  GX_MEMBER, /* CLASS[a]: idx = class */
  GX_BIN,    /* op: + - * / F(//) % */
  GX_NEG,
  GX_UNIFORM,
  GX_NORMAL,
  GX_EXP,
  GX_LOGNORMAL,
  GX_TABLE,
  GX_AT /* at(a, k:v, ...): v where round(a) == k, else 0; keys ascending in tv */
};

typedef struct gx {
  int kind, op, idx;
  uint32_t line; /* for errors found at expansion */
  char *cname;   /* GX_COUNT/GX_MEMBER: class name until resolved */
  double num;
  struct gx *a, *b;
  size_t n;        /* table entries */
  double *tv, *tp; /* table values, probabilities */
} gx;

enum gs_kind {
  GS_COMPUTE,
  GS_RATE,
  GS_LOCAL,
  GS_SEND, /* flags: nonblocking, sync */
  GS_RECV,
  GS_WAIT,
  GS_COLL,
  GS_LOOP,
  GS_BRANCH
};

typedef struct gblock {
  struct gstmt *v;
  size_t n, cap;
} gblock;

typedef struct garm {
  gx *p;
  gblock body;
} garm;

typedef struct gstmt {
  int kind;
  uint32_t line;
  gx *e[2];       /* COMPUTE/RATE/LOCAL: e[0]; SEND/RECV: peer, bytes; COLL: root (or NULL), bytes;
                     LOOP: count */
  int rel;        /* SEND/RECV: peer is relative */
  int instr;      /* COMPUTE: e[0] is instructions */
  unsigned flags; /* SEND/RECV: AUGUR_SIM_F_NONBLOCKING / _SYNC */
  uint16_t type;  /* MPI event type */
  int comm;       /* COLL: communicator index (0 = world) */
  int var;        /* LOOP: depth of its variable */
  int shared;     /* BRANCH: same arm on every rank */
  int all;        /* WAIT: every outstanding request (npos = 0) */
  uint32_t *pos;  /* WAIT: positions */
  size_t npos;
  gblock body; /* LOOP */
  garm *arms;  /* BRANCH */
  size_t narms;
} gstmt;

typedef struct gclass {
  char *name;
  uint32_t count;
  gblock body;
} gclass;

typedef struct gcspec {
  gx *e;   /* a rank, or NULL: */
  int cls; /* every member of this class */
  char *cname;
  uint32_t line;
} gcspec;

typedef struct gcomm {
  char *name;
  gcspec *specs;
  size_t n;
  uint32_t line;
} gcomm;

typedef struct gstart {
  uint32_t rank;
  double seconds;
} gstart;

/* The collective statements with a keyword of their own (the rest are
 * written "coll NAME ROOT BYTES"): whether they take a root and a size. */
typedef struct gf_collkw {
  const char *kw;
  uint16_t type;
  int root, bytes;
} gf_collkw;
extern const gf_collkw gf_collkws[];
extern const size_t gf_ncollkws;

struct augur_gfile {
  char *name; /* file name for messages */
  double rate;
  gclass *classes;
  size_t nclasses;
  gcomm *comms; /* [0] = world (no specs) */
  size_t ncomms;
  gstart *starts;
  size_t nstarts;
  gx **nodes; /* every expression node, for freeing */
  size_t nnodes, nodes_cap;
};

#endif
