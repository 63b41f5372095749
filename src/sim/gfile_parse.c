/* Parser of execution-graph files (docs/graph-format.md): one statement per
 * line, blocks opened by a trailing '{' and closed by a line holding '}'.
 * Expressions become small trees evaluated per rank at expansion. Every
 * error is one line "FILE:LINE: what was expected". */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfile_int.h"
#include "sim_int.h"

#define GF_MAX_LINE 65536

enum { T_END, T_NUM, T_ID, T_PUNCT };

typedef struct tok {
  const char *s; /* cursor after the token */
  int tt;
  char pc; /* T_PUNCT: the character, 'F' for "//" */
  double num;
  char id[128];
} tok;

typedef struct parser {
  augur_gfile *f;
  augur_error *err;
  const char *text;
  size_t len, pos;
  uint32_t line;
  char *buf;
  tok t;
  char vars[GF_MAX_DEPTH][128];
  int nvars;
  int in_class; /* `me`, `rank`, loop variables are defined */
  int edepth;   /* expression nesting (recursion guard) */
  size_t line_nodes;
  int failed;
} parser;

static int perr(parser *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int perr(parser *p, const char *fmt, ...) {
  if (p->failed) return -1;
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  p->failed = 1;
  augur_fail(p->err, AUGUR_E_FORMAT, "%s:%u: %s", p->f->name, p->line, msg);
  return -1;
}

static int nomem(parser *p) {
  if (p->failed) return -1;
  p->failed = 1;
  augur_fail(p->err, AUGUR_E_NOMEM, "%s: out of memory", p->f->name);
  return -1;
}

/* ---- lines and tokens ---------------------------------------------------- */

/* Next line into p->buf without its comment; 0 at the end of the text. */
static int next_line(parser *p) {
  if (p->pos >= p->len) return 0;
  size_t a = p->pos, b = a;
  while (b < p->len && p->text[b] != '\n')
    b++;
  p->pos = b < p->len ? b + 1 : b;
  p->line++;
  p->line_nodes = 0;
  if (b - a >= GF_MAX_LINE) return perr(p, "line longer than %d bytes", GF_MAX_LINE), -1;
  size_t n = 0;
  for (size_t i = a; i < b && p->text[i] != '#'; i++) {
    char c = p->text[i];
    if (c == '\0') return perr(p, "NUL byte in the file"), -1;
    p->buf[n++] = c;
  }
  p->buf[n] = '\0';
  p->t.s = p->buf;
  return 1;
}

static void lex(parser *p) {
  tok *t = &p->t;
  const char *s = t->s;
  while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' || *s == '\v')
    s++;
  if (!*s) {
    t->tt = T_END;
    t->s = s;
    return;
  }
  if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
    char *end = NULL;
    errno = 0;
    t->num = strtod(s, &end);
    t->tt = T_NUM;
    /* "12abc" is a bad number, not 12 followed by a name. */
    /* ... and hexadecimal (strtod's 0x10) is not a number here either. */
    if (errno == ERANGE || !isfinite(t->num) || isalpha((unsigned char)*end) || *end == '_' ||
        *end == '.' || memchr(s, 'x', (size_t)(end - s)) || memchr(s, 'X', (size_t)(end - s))) {
      t->tt = T_PUNCT;
      t->pc = '?';
      size_t k = 0;
      while (s[k] && !isspace((unsigned char)s[k]) && k < sizeof t->id - 1) {
        t->id[k] = s[k];
        k++;
      }
      t->id[k] = '\0';
      t->s = s + k;
      return;
    }
    t->s = end;
    return;
  }
  if (isalpha((unsigned char)*s) || *s == '_') {
    size_t k = 0;
    while ((isalnum((unsigned char)s[k]) || s[k] == '_') && k < sizeof t->id - 1) {
      t->id[k] = s[k];
      k++;
    }
    t->id[k] = '\0';
    t->tt = T_ID;
    t->s = s + k;
    return;
  }
  t->tt = T_PUNCT;
  t->pc = *s;
  t->id[0] = *s;
  t->id[1] = '\0';
  if (s[0] == '/' && s[1] == '/') {
    t->pc = 'F';
    strcpy(t->id, "//");
    s++;
  }
  t->s = s + 1;
}

static const char *desc(parser *p) {
  static char d[160];
  switch (p->t.tt) {
  case T_END:
    return "end of line";
  case T_NUM:
    snprintf(d, sizeof d, "'%g'", p->t.num);
    return d;
  default:
    snprintf(d, sizeof d, "'%s'", p->t.id);
    return d;
  }
}

static int is_punct(parser *p, char c) {
  return p->t.tt == T_PUNCT && p->t.pc == c;
}

static int is_id(parser *p, const char *w) {
  return p->t.tt == T_ID && !strcmp(p->t.id, w);
}

static int expect_punct(parser *p, char c, const char *what) {
  if (!is_punct(p, c)) return perr(p, "%s: expected '%c', got %s", what, c, desc(p));
  lex(p);
  return 0;
}

static int expect_end(parser *p, const char *what) {
  if (p->t.tt != T_END) return perr(p, "%s: expected end of line, got %s", what, desc(p));
  return 0;
}

/* ---- expressions --------------------------------------------------------- */

#define GF_MAX_NESTING    200  /* parentheses, signs, calls in one expression */
#define GF_MAX_LINE_NODES 2000 /* expression nodes on one line: bounds eval's recursion */

static gx *node(parser *p, int kind) {
  augur_gfile *f = p->f;
  if (++p->line_nodes > GF_MAX_LINE_NODES) {
    perr(p, "expression longer than %d terms", GF_MAX_LINE_NODES);
    return NULL;
  }
  if (aug_grow((void **)&f->nodes, &f->nodes_cap, f->nnodes + 1, sizeof *f->nodes)) {
    nomem(p);
    return NULL;
  }
  gx *x = calloc(1, sizeof *x);
  if (!x) {
    nomem(p);
    return NULL;
  }
  f->nodes[f->nnodes++] = x;
  x->kind = kind;
  x->line = p->line;
  return x;
}

static gx *expr(parser *p, const char *what);

static gx *args(parser *p, const char *fn, gx **a, int n) {
  for (int i = 0; i < n; i++) {
    if (i && expect_punct(p, ',', fn)) return NULL;
    if (!(a[i] = expr(p, fn))) return NULL;
  }
  if (expect_punct(p, ')', fn)) return NULL;
  return a[0];
}

static int signed_num(parser *p, const char *what, double *v) {
  int neg = 0;
  if (is_punct(p, '-') || is_punct(p, '+')) {
    neg = p->t.pc == '-';
    lex(p);
  }
  if (p->t.tt != T_NUM) return perr(p, "%s: expected a number, got %s", what, desc(p));
  *v = neg ? -p->t.num : p->t.num;
  lex(p);
  return 0;
}

/* Appends the pair (V, W) to X's tv/tp (CAP: their capacity). */
static int add_pair(parser *p, gx *x, size_t *cap, double v, double w) {
  size_t had = *cap;
  if (aug_grow((void **)&x->tv, cap, x->n + 1, sizeof *x->tv)) return nomem(p);
  if (*cap != had) {
    double *q = realloc(x->tp, *cap * sizeof *q);
    if (!q) return nomem(p);
    x->tp = q;
  }
  x->tv[x->n] = v;
  x->tp[x->n++] = w;
  return 0;
}

static gx *table(parser *p, gx *x) {
  size_t cap = 0;
  double sum = 0;
  for (;;) {
    double v = 0, pr = 0;
    if (signed_num(p, "table", &v) || expect_punct(p, ':', "table") || signed_num(p, "table", &pr))
      return NULL;
    if (!(pr >= 0 && pr <= 1)) return perr(p, "table: probability %g not in [0, 1]", pr), NULL;
    if (add_pair(p, x, &cap, v, pr)) return NULL;
    sum += pr;
    if (is_punct(p, ',')) {
      lex(p);
      continue;
    }
    if (expect_punct(p, ')', "table")) return NULL;
    break;
  }
  if (fabs(sum - 1) > 1e-6) return perr(p, "table: probabilities sum to %g, expected 1", sum), NULL;
  return x;
}

/* at(INDEX, k1:v1, k2:v2, ...): the keys whole and ascending. */
static gx *at_fn(parser *p, gx *x) {
  size_t cap = 0;
  if (!(x->a = expr(p, "at")) || expect_punct(p, ',', "at")) return NULL;
  for (;;) {
    double k, v;
    if (signed_num(p, "at", &k) || expect_punct(p, ':', "at") || signed_num(p, "at", &v))
      return NULL;
    if (k < 0 || k != floor(k) || (x->n && k <= x->tv[x->n - 1]))
      return perr(p, "at: expected whole keys in ascending order, got %g", k), NULL;
    if (add_pair(p, x, &cap, k, v)) return NULL;
    if (is_punct(p, ',')) {
      lex(p);
      continue;
    }
    if (expect_punct(p, ')', "at")) return NULL;
    return x;
  }
}

static gx *primary(parser *p, const char *what) {
  if (p->t.tt == T_NUM) {
    gx *x = node(p, GX_NUM);
    if (x) x->num = p->t.num;
    lex(p);
    return x;
  }
  if (is_punct(p, '(')) {
    lex(p);
    gx *x = expr(p, what);
    if (x && expect_punct(p, ')', what)) return NULL;
    return x;
  }
  if (p->t.tt != T_ID) return perr(p, "%s: expected a value, got %s", what, desc(p)), NULL;
  char id[128];
  strcpy(id, p->t.id);
  lex(p);
  if (is_punct(p, '(')) {
    lex(p);
    gx *x, *a[2];
    if (!strcmp(id, "n")) {
      if (p->t.tt != T_ID) return perr(p, "n(): expected a class name, got %s", desc(p)), NULL;
      if (!(x = node(p, GX_COUNT)) || !(x->cname = strdup(p->t.id))) return nomem(p), NULL;
      lex(p);
      return expect_punct(p, ')', "n()") ? NULL : x;
    }
    if (!strcmp(id, "uniform")) {
      if (!(x = node(p, GX_UNIFORM)) || !args(p, "uniform", a, 2)) return NULL;
    } else if (!strcmp(id, "normal")) {
      if (!(x = node(p, GX_NORMAL)) || !args(p, "normal", a, 2)) return NULL;
    } else if (!strcmp(id, "lognormal")) {
      if (!(x = node(p, GX_LOGNORMAL)) || !args(p, "lognormal", a, 2)) return NULL;
    } else if (!strcmp(id, "exponential")) {
      if (!(x = node(p, GX_EXP)) || !args(p, "exponential", a, 1)) return NULL;
      a[1] = NULL;
    } else if (!strcmp(id, "table")) {
      return (x = node(p, GX_TABLE)) ? table(p, x) : NULL;
    } else if (!strcmp(id, "at")) {
      return (x = node(p, GX_AT)) ? at_fn(p, x) : NULL;
    } else {
      return perr(p,
                  "%s: unknown function '%s' (n, uniform, normal, lognormal, exponential, table, "
                  "at)",
                  what, id),
             NULL;
    }
    x->a = a[0];
    x->b = a[1];
    return x;
  }
  if (is_punct(p, '[')) {
    lex(p);
    gx *x = node(p, GX_MEMBER);
    if (!x || !(x->cname = strdup(id))) return nomem(p), NULL;
    if (!(x->a = expr(p, what)) || expect_punct(p, ']', what)) return NULL;
    return x;
  }
  for (int i = p->nvars - 1; i >= 0 && p->in_class; i--)
    if (!strcmp(p->vars[i], id)) {
      gx *x = node(p, GX_VAR);
      if (x) x->idx = i;
      return x;
    }
  int k = !strcmp(id, "me")       ? GX_ME
          : !strcmp(id, "rank")   ? GX_RANK
          : !strcmp(id, "nranks") ? GX_NRANKS
                                  : -1;
  if (k == GX_NRANKS || (k >= 0 && p->in_class)) return node(p, k);
  if (k >= 0) return perr(p, "%s: '%s' is only defined inside a class", what, id), NULL;
  return perr(p, "%s: unknown name '%s'", what, id), NULL;
}

static gx *unary1(parser *p, const char *what);

static gx *unary(parser *p, const char *what) {
  if (p->edepth >= GF_MAX_NESTING)
    return perr(p, "%s: expression nested deeper than %d", what, GF_MAX_NESTING), NULL;
  p->edepth++;
  gx *x = unary1(p, what);
  p->edepth--;
  return x;
}

static gx *unary1(parser *p, const char *what) {
  if (is_punct(p, '-') || is_punct(p, '+')) {
    int neg = p->t.pc == '-';
    lex(p);
    gx *a = unary(p, what);
    if (!a || !neg) return a;
    gx *x = node(p, GX_NEG);
    if (x) x->a = a;
    return x;
  }
  return primary(p, what);
}

/* Operands from NEXT joined by the operators in OPS, left to right. */
static gx *binary(parser *p, const char *what, const char *ops,
                  gx *(*next)(parser *, const char *)) {
  gx *a = next(p, what);
  while (a && p->t.tt == T_PUNCT && strchr(ops, p->t.pc)) {
    int op = p->t.pc;
    lex(p);
    gx *b = next(p, what), *x = b ? node(p, GX_BIN) : NULL;
    if (!x) return NULL;
    x->op = op;
    x->a = a;
    x->b = b;
    a = x;
  }
  return a;
}

static gx *term(parser *p, const char *what) {
  return binary(p, what, "*/F%", unary);
}

static gx *expr(parser *p, const char *what) {
  return binary(p, what, "+-", term);
}

/* ---- statements ---------------------------------------------------------- */

static gstmt *add_stmt(parser *p, gblock *b, int kind) {
  if (aug_grow((void **)&b->v, &b->cap, b->n + 1, sizeof *b->v)) return nomem(p), NULL;
  gstmt *s = &b->v[b->n++];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->line = p->line;
  return s;
}

static int parse_block(parser *p, gblock *b, uint32_t open_line, const char *what);

static int open_brace(parser *p, const char *what) {
  if (!is_punct(p, '{'))
    return perr(p, "%s: expected '{' at the end of the line, got %s", what, desc(p));
  lex(p);
  return expect_end(p, what);
}

static int find_comm(parser *p, const char *name) {
  for (size_t i = 0; i < p->f->ncomms; i++)
    if (!strcmp(p->f->comms[i].name, name)) return (int)i;
  return perr(p, "unknown communicator '%s' (declare it with 'comm' before use)", name);
}

const gf_collkw gf_collkws[] = {
    {"barrier", AUGUR_EV_BARRIER, 0, 0},
    {"bcast", AUGUR_EV_BCAST, 1, 1},
    {"reduce", AUGUR_EV_REDUCE, 1, 1},
    {"gather", AUGUR_EV_GATHER, 1, 1},
    {"scatter", AUGUR_EV_SCATTER, 1, 1},
    {"allreduce", AUGUR_EV_ALLREDUCE, 0, 1},
    {"allgather", AUGUR_EV_ALLGATHER, 0, 1},
    {"alltoall", AUGUR_EV_ALLTOALL, 0, 1},
    {"reduce_scatter", AUGUR_EV_REDUCE_SCATTER, 0, 1},
    {"scan", AUGUR_EV_SCAN, 0, 1},
    {"exscan", AUGUR_EV_EXSCAN, 0, 1},
};
const size_t gf_ncollkws = sizeof gf_collkws / sizeof *gf_collkws;

static const gf_collkw *find_collkw(const char *kw) {
  for (size_t i = 0; i < gf_ncollkws; i++)
    if (!strcmp(gf_collkws[i].kw, kw)) return &gf_collkws[i];
  return NULL;
}

static int parse_coll(parser *p, gstmt *s, const char *kw) {
  int root = 0, bytes = 0;
  if (!strcmp(kw, "coll")) {
    if (p->t.tt != T_ID) return perr(p, "coll: expected an MPI call name, got %s", desc(p));
    int ty = augur_event_from_name(p->t.id);
    if (ty < 0 || !(augur_event_is_collective((unsigned)ty) ||
                    (augur_event_is_comm_mgmt((unsigned)ty) && ty != AUGUR_EV_COMM_FREE) ||
                    augur_event_is_io((unsigned)ty) || augur_event_is_rma((unsigned)ty)))
      return perr(p, "coll: '%s' is not a collective or communicator-creating MPI call", p->t.id);
    /* As from a trace (docs/simulate.md): its two groups meet through their
     * leaders only, which the graph does not know. */
    if (ty == AUGUR_EV_INTERCOMM_CREATE)
      return perr(p, "coll: MPI_Intercomm_create is replayed as a local call: write 'local "
                     "SECONDS'");
    s->type = (uint16_t)ty;
    lex(p);
    if (is_id(p, "none"))
      lex(p);
    else
      root = 1;
    bytes = 1;
  } else {
    const gf_collkw *c = find_collkw(kw);
    s->type = c->type;
    root = c->root;
    bytes = c->bytes;
  }
  if (root && !(s->e[0] = expr(p, kw))) return -1;
  if (bytes && !(s->e[1] = expr(p, kw))) return -1;
  if (is_id(p, "on")) {
    lex(p);
    if (p->t.tt != T_ID)
      return perr(p, "%s: expected a communicator name after 'on', got %s", kw, desc(p));
    if ((s->comm = find_comm(p, p->t.id)) < 0) return -1;
    lex(p);
  }
  return expect_end(p, kw);
}

/* The next non-empty line of a block WHAT opened at OPEN_LINE, its first
 * token read: 1, or 0 when it closed the block, -1 on error. */
static int block_line(parser *p, uint32_t open_line, const char *what) {
  for (;;) {
    int r = next_line(p);
    if (r < 0) return -1;
    if (r == 0) {
      p->line = open_line;
      return perr(p, "unbalanced braces: '%s' is never closed", what);
    }
    lex(p);
    if (p->t.tt == T_END) continue;
    if (is_punct(p, '}')) {
      lex(p);
      return expect_end(p, "'}'");
    }
    return 1;
  }
}

static int parse_branch(parser *p, gstmt *s) {
  uint32_t open = p->line;
  size_t cap = 0;
  int r;
  while ((r = block_line(p, open, "branch {")) > 0) {
    if (!is_id(p, "p"))
      return perr(p, "branch: expected 'p PROBABILITY {' or '}', got %s", desc(p));
    lex(p);
    if (aug_grow((void **)&s->arms, &cap, s->narms + 1, sizeof *s->arms)) return nomem(p);
    garm *a = &s->arms[s->narms++];
    memset(a, 0, sizeof *a);
    if (!(a->p = expr(p, "p")) || open_brace(p, "p") || parse_block(p, &a->body, p->line, "p {"))
      return -1;
  }
  return r;
}

static int parse_stmt(parser *p, gblock *b) {
  char kw[128];
  strcpy(kw, p->t.id);
  lex(p);
  gstmt *s;
  if (!strcmp(kw, "compute") || !strcmp(kw, "local") || !strcmp(kw, "rate")) {
    int k = kw[0] == 'c' ? GS_COMPUTE : kw[0] == 'l' ? GS_LOCAL : GS_RATE;
    if (!(s = add_stmt(p, b, k)) || !(s->e[0] = expr(p, kw))) return -1;
    if (k == GS_COMPUTE && is_id(p, "instr")) {
      s->instr = 1;
      lex(p);
    }
    return expect_end(p, kw);
  }
  static const struct {
    const char *kw;
    int kind;
    unsigned flags;
    uint16_t type;
  } p2p[] = {
      {"send", GS_SEND, 0, AUGUR_EV_SEND},
      {"ssend", GS_SEND, AUGUR_SIM_F_SYNC, AUGUR_EV_SSEND},
      {"isend", GS_SEND, AUGUR_SIM_F_NONBLOCKING, AUGUR_EV_ISEND},
      {"issend", GS_SEND, AUGUR_SIM_F_NONBLOCKING | AUGUR_SIM_F_SYNC, AUGUR_EV_ISSEND},
      {"recv", GS_RECV, 0, AUGUR_EV_RECV},
      {"irecv", GS_RECV, AUGUR_SIM_F_NONBLOCKING, AUGUR_EV_IRECV},
  };
  for (size_t i = 0; i < sizeof p2p / sizeof *p2p; i++) {
    if (strcmp(kw, p2p[i].kw)) continue;
    if (!(s = add_stmt(p, b, p2p[i].kind))) return -1;
    s->flags = p2p[i].flags;
    s->type = p2p[i].type;
    if (p->t.tt == T_END) return perr(p, "%s: expected a peer, got end of line", kw);
    /* A leading sign makes the peer relative: "+1", "-1", "-me+2". */
    s->rel = is_punct(p, '+') || is_punct(p, '-');
    if (!(s->e[0] = expr(p, kw))) return -1;
    if (p->t.tt == T_END) return perr(p, "%s: expected a size in bytes, got end of line", kw);
    if (!(s->e[1] = expr(p, kw))) return -1;
    return expect_end(p, kw);
  }
  if (!strcmp(kw, "wait")) {
    if (!(s = add_stmt(p, b, GS_WAIT))) return -1;
    if (p->t.tt == T_END) {
      s->all = 1;
      return 0;
    }
    if (is_punct(p, '-')) { /* a wait with nothing to complete */
      lex(p);
      return expect_end(p, kw);
    }
    size_t cap = 0;
    while (p->t.tt == T_NUM) {
      double v = p->t.num;
      if (v < 0 || v != floor(v) || v > 1e6)
        return perr(p, "wait: expected a request position (0, 1, ...), got %g", v);
      if (aug_grow((void **)&s->pos, &cap, s->npos + 1, sizeof *s->pos)) return nomem(p);
      s->pos[s->npos++] = (uint32_t)v;
      lex(p);
    }
    return expect_end(p, kw);
  }
  if (!strcmp(kw, "coll") || find_collkw(kw)) {
    if (!(s = add_stmt(p, b, GS_COLL))) return -1;
    return parse_coll(p, s, kw);
  }
  if (!strcmp(kw, "loop")) {
    if (!(s = add_stmt(p, b, GS_LOOP)) || !(s->e[0] = expr(p, kw))) return -1;
    const char *var = "i";
    if (p->t.tt == T_ID) {
      var = p->t.id;
      if (!strcmp(var, "me") || !strcmp(var, "rank") || !strcmp(var, "nranks"))
        return perr(p, "loop: '%s' cannot be a loop variable", var);
    }
    if (p->nvars >= GF_MAX_DEPTH) return perr(p, "loop: nested deeper than %d", GF_MAX_DEPTH);
    snprintf(p->vars[p->nvars], sizeof p->vars[0], "%s", var);
    if (p->t.tt == T_ID) lex(p);
    s->var = p->nvars;
    if (open_brace(p, kw)) return -1;
    p->nvars++;
    int rc = parse_block(p, &s->body, p->line, "loop {");
    p->nvars--;
    return rc;
  }
  if (!strcmp(kw, "branch")) {
    if (!(s = add_stmt(p, b, GS_BRANCH))) return -1;
    if (is_id(p, "shared")) {
      s->shared = 1;
      lex(p);
    }
    if (open_brace(p, kw)) return -1;
    return parse_branch(p, s);
  }
  return perr(p, "unknown statement '%s'", kw);
}

/* Statements until the line holding '}' (OPEN_LINE: where the block began). */
static int parse_block(parser *p, gblock *b, uint32_t open_line, const char *what) {
  int r;
  while ((r = block_line(p, open_line, what)) > 0) {
    if (p->t.tt != T_ID) return perr(p, "expected a statement, got %s", desc(p));
    if (parse_stmt(p, b)) return -1;
  }
  return r;
}

/* ---- top level ----------------------------------------------------------- */

static int parse_class(parser *p) {
  augur_gfile *f = p->f;
  if (p->t.tt != T_ID) return perr(p, "class: expected a name, got %s", desc(p));
  for (size_t i = 0; i < f->nclasses; i++)
    if (!strcmp(f->classes[i].name, p->t.id)) return perr(p, "class '%s' defined twice", p->t.id);
  gclass c = {0};
  if (!(c.name = strdup(p->t.id))) return nomem(p);
  lex(p);
  double n = -1;
  if (!is_id(p, "count")) {
    free(c.name);
    return perr(p, "class: expected 'count N', got %s", desc(p));
  }
  lex(p);
  if (p->t.tt == T_NUM) n = p->t.num;
  if (!(n >= 0 && n <= 1e7 && n == floor(n))) {
    free(c.name);
    return perr(p, "class: expected a count 0 ... 10000000, got %s", desc(p));
  }
  c.count = (uint32_t)n;
  lex(p);
  if (open_brace(p, "class")) {
    free(c.name);
    return -1;
  }
  p->in_class = 1;
  p->nvars = 0;
  int rc = parse_block(p, &c.body, p->line, "class {");
  p->in_class = 0;
  size_t cap = f->nclasses;
  if (aug_grow((void **)&f->classes, &cap, f->nclasses + 1, sizeof *f->classes)) {
    free(c.name);
    return nomem(p);
  }
  f->classes[f->nclasses++] = c; /* even on error, so free() releases its body */
  return rc;
}

static int parse_comm(parser *p) {
  augur_gfile *f = p->f;
  if (p->t.tt != T_ID) return perr(p, "comm: expected a name, got %s", desc(p));
  for (size_t i = 0; i < f->ncomms; i++)
    if (!strcmp(f->comms[i].name, p->t.id))
      return perr(p, "communicator '%s' defined twice", p->t.id);
  size_t cap = f->ncomms;
  if (aug_grow((void **)&f->comms, &cap, f->ncomms + 1, sizeof *f->comms)) return nomem(p);
  gcomm *c = &f->comms[f->ncomms++];
  memset(c, 0, sizeof *c);
  c->line = p->line;
  if (!(c->name = strdup(p->t.id))) return nomem(p);
  lex(p);
  size_t scap = 0;
  while (p->t.tt != T_END) {
    if (aug_grow((void **)&c->specs, &scap, c->n + 1, sizeof *c->specs)) return nomem(p);
    gcspec *sp = &c->specs[c->n++];
    memset(sp, 0, sizeof *sp);
    sp->line = p->line;
    sp->cls = -1;
    tok save = p->t;
    if (p->t.tt == T_ID) {
      char id[128];
      strcpy(id, p->t.id);
      lex(p);
      if (is_punct(p, '[')) {
        lex(p);
        if (is_punct(p, '*')) {
          lex(p);
          if (expect_punct(p, ']', "comm")) return -1;
          if (!(sp->cname = strdup(id))) return nomem(p);
          continue;
        }
      }
      p->t = save;
    }
    if (!(sp->e = expr(p, "comm"))) return -1;
  }
  if (c->n == 0) return perr(p, "comm: expected its members");
  return 0;
}

static int top_number(parser *p, const char *what, double lo, double *out) {
  if (p->t.tt != T_NUM || !(p->t.num >= lo))
    return perr(p, "%s: expected a number >= %g, got %s", what, lo, desc(p));
  *out = p->t.num;
  lex(p);
  return 0;
}

static int resolve_class(augur_gfile *f, const char *name, uint32_t line, augur_error *err) {
  for (size_t i = 0; i < f->nclasses; i++)
    if (!strcmp(f->classes[i].name, name)) return (int)i;
  augur_fail(err, AUGUR_E_FORMAT, "%s:%u: unknown class '%s'", f->name, line, name);
  return -1;
}

static int parse_all(parser *p) {
  augur_gfile *f = p->f;
  int r = next_line(p);
  if (r < 0) return -1;
  size_t n = r ? strlen(p->buf) : 0;
  while (n && isspace((unsigned char)p->buf[n - 1]))
    p->buf[--n] = '\0';
  if (r == 0 || strncmp(p->buf, "augur-graph ", 12))
    return perr(p, "not an augur graph file: expected '%s' on the first line", AUGUR_GFILE_MAGIC);
  if (strcmp(p->buf, AUGUR_GFILE_MAGIC))
    return perr(p, "graph format version '%s' is not known (expected '%s')", p->buf + 12,
                AUGUR_GFILE_MAGIC);
  /* comm[0] = world */
  if (!(f->comms = calloc(1, sizeof *f->comms)) || !(f->comms[0].name = strdup("world")))
    return nomem(p);
  f->ncomms = 1;
  size_t scap = 0;
  while ((r = next_line(p)) > 0) {
    lex(p);
    if (p->t.tt == T_END) continue;
    if (is_punct(p, '}')) return perr(p, "unbalanced braces: '}' without an open block");
    if (p->t.tt != T_ID) return perr(p, "expected class, comm, rate or start, got %s", desc(p));
    char kw[128];
    strcpy(kw, p->t.id);
    lex(p);
    if (!strcmp(kw, "class")) {
      if (parse_class(p)) return -1;
    } else if (!strcmp(kw, "comm")) {
      if (parse_comm(p)) return -1;
    } else if (!strcmp(kw, "rate")) {
      if (top_number(p, "rate", 1e-300, &f->rate) || expect_end(p, "rate")) return -1;
    } else if (!strcmp(kw, "start")) {
      double rk = 0, sec = 0;
      if (top_number(p, "start", 0, &rk) || top_number(p, "start", 0, &sec) ||
          expect_end(p, "start"))
        return -1;
      if (rk != floor(rk) || rk > 1e9) return perr(p, "start: expected a rank, got %g", rk);
      if (aug_grow((void **)&f->starts, &scap, f->nstarts + 1, sizeof *f->starts)) return nomem(p);
      f->starts[f->nstarts].rank = (uint32_t)rk;
      f->starts[f->nstarts++].seconds = sec;
    } else if (!strcmp(kw, "compute") || !strcmp(kw, "send") || !strcmp(kw, "recv") ||
               !strcmp(kw, "loop")) {
      return perr(p, "'%s' outside a class: put it inside 'class NAME count N {'", kw);
    } else {
      return perr(p, "unknown statement '%s' (expected class, comm, rate or start)", kw);
    }
  }
  if (r < 0) return -1;
  if (f->nclasses == 0) return perr(p, "no class: expected at least one 'class NAME count N {'");
  /* Class names used before their class was defined. */
  for (size_t i = 0; i < f->nnodes; i++) {
    gx *x = f->nodes[i];
    if (x->cname && (x->idx = resolve_class(f, x->cname, x->line, p->err)) < 0) return -1;
  }
  for (size_t c = 1; c < f->ncomms; c++)
    for (size_t i = 0; i < f->comms[c].n; i++) {
      gcspec *sp = &f->comms[c].specs[i];
      if (sp->cname && (sp->cls = resolve_class(f, sp->cname, sp->line, p->err)) < 0) return -1;
    }
  return 0;
}

/* ---- public -------------------------------------------------------------- */

static void free_block(gblock *b) {
  for (size_t i = 0; i < b->n; i++) {
    gstmt *s = &b->v[i];
    free(s->pos);
    free_block(&s->body);
    for (size_t k = 0; k < s->narms; k++)
      free_block(&s->arms[k].body);
    free(s->arms);
  }
  free(b->v);
}

void augur_gfile_free(augur_gfile *f) {
  if (!f) return;
  for (size_t i = 0; i < f->nclasses; i++) {
    free(f->classes[i].name);
    free_block(&f->classes[i].body);
  }
  free(f->classes);
  for (size_t i = 0; i < f->ncomms; i++) {
    free(f->comms[i].name);
    for (size_t k = 0; k < f->comms[i].n; k++)
      free(f->comms[i].specs[k].cname);
    free(f->comms[i].specs);
  }
  free(f->comms);
  free(f->starts);
  for (size_t i = 0; i < f->nnodes; i++) {
    free(f->nodes[i]->cname);
    free(f->nodes[i]->tv);
    free(f->nodes[i]->tp);
    free(f->nodes[i]);
  }
  free(f->nodes);
  free(f->name);
  free(f);
}

int augur_gfile_parse(augur_gfile **out, const char *text, size_t len, const char *name,
                      augur_error *err) {
  *out = NULL;
  augur_gfile *f = calloc(1, sizeof *f);
  parser p = {0};
  if (f) f->name = strdup(name ? name : "<graph>");
  p.buf = malloc(GF_MAX_LINE + 1);
  if (!f || !f->name || !p.buf) {
    free(p.buf);
    augur_gfile_free(f);
    return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", name ? name : "<graph>");
  }
  f->rate = 1e9;
  p.f = f;
  p.err = err;
  p.text = text;
  p.len = len;
  int rc = parse_all(&p);
  free(p.buf);
  if (rc) {
    if (!p.failed && err->code == 0) augur_fail(err, AUGUR_E_FORMAT, "%s: parse failed", f->name);
    int code = err->code ? err->code : AUGUR_E_FORMAT;
    augur_gfile_free(f);
    return code;
  }
  *out = f;
  return AUGUR_OK;
}

int augur_gfile_load(augur_gfile **out, const char *path, augur_error *err) {
  *out = NULL;
  FILE *fp = fopen(path, "rb");
  if (!fp) return augur_fail(err, AUGUR_E_IO, "%s: %s", path, strerror(errno));
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (aug_grow((void **)&buf, &cap, n + 65536, 1)) {
      fclose(fp);
      free(buf);
      return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", path);
    }
    size_t k = fread(buf + n, 1, cap - n, fp);
    n += k;
    if (k == 0) break;
  }
  int bad = ferror(fp);
  fclose(fp);
  if (bad) {
    free(buf);
    return augur_fail(err, AUGUR_E_IO, "%s: read failed", path);
  }
  int rc = augur_gfile_parse(out, buf, n, path, err);
  free(buf);
  return rc;
}

int augur_gfile_sniff(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return 0;
  char b[16] = {0};
  size_t k = fread(b, 1, 12, fp);
  fclose(fp);
  return k == 12 && !memcmp(b, "augur-graph ", 12);
}

uint32_t augur_gfile_nclasses(const augur_gfile *f) {
  return (uint32_t)f->nclasses;
}

const char *augur_gfile_class_name(const augur_gfile *f, uint32_t i) {
  return i < f->nclasses ? f->classes[i].name : NULL;
}

uint32_t augur_gfile_class_count(const augur_gfile *f, uint32_t i) {
  return i < f->nclasses ? f->classes[i].count : 0;
}

int augur_gfile_set_count(augur_gfile *f, const char *name, uint32_t count, augur_error *err) {
  for (size_t i = 0; i < f->nclasses; i++)
    if (!strcmp(f->classes[i].name, name)) {
      f->classes[i].count = count;
      return AUGUR_OK;
    }
  return augur_fail(err, AUGUR_E_ARG, "%s: no class '%s'", f->name, name);
}
