/* augur — the OTF2 attributes that carry augur's event fields (see
 * otf2_common.h): their names and the one mapping between an event and the
 * attribute values, used by the export (event -> values) and the import
 * (values -> event), so the two cannot disagree. */
#include "otf2_common.h"

#include <string.h>

const char *const otf2_attr_names[OTF2A_COUNT] = {
    "augur::type",       "augur::flags",   "augur::peer",  "augur::tag",    "augur::bytes",
    "augur::bytes_recv", "augur::req",     "augur::comm",  "augur::hash",   "augur::callsite",
    "augur::aux",        "augur::t_start", "augur::t_end", "augur::thread", "augur::ctr0",
    "augur::ctr1",       "augur::ctr2",    "augur::ctr3"};

/* Attribute, event field, and the unsigned type its value travels as (a
 * signed field's bits, zero-extended). The counters follow OTF2A_CTR0. */
#define OTF2A_FIELDS(X)                                                                            \
  X(OTF2A_TYPE, type, uint16_t)                                                                    \
  X(OTF2A_FLAGS, flags, uint16_t)                                                                  \
  X(OTF2A_PEER, peer, uint32_t)                                                                    \
  X(OTF2A_TAG, tag, uint32_t)                                                                      \
  X(OTF2A_BYTES, bytes, uint64_t)                                                                  \
  X(OTF2A_BYTES_RECV, bytes_recv, uint64_t)                                                        \
  X(OTF2A_REQ, req, uint64_t)                                                                      \
  X(OTF2A_COMM, comm, uint64_t)                                                                    \
  X(OTF2A_HASH, hash, uint64_t)                                                                    \
  X(OTF2A_CALLSITE, callsite, uint64_t)                                                            \
  X(OTF2A_AUX, aux, uint32_t)                                                                      \
  X(OTF2A_T_START, t_start, uint64_t)                                                              \
  X(OTF2A_T_END, t_end, uint64_t)                                                                  \
  X(OTF2A_THREAD, thread, uint32_t)

#define SAME_SIZE(a, field, wire)                                                                  \
  _Static_assert(sizeof(((augur_event *)0)->field) == sizeof(wire), #field " travels as " #wire);
OTF2A_FIELDS(SAME_SIZE)
#undef SAME_SIZE

void otf2_attrs_of(const augur_event *e, uint64_t v[OTF2A_COUNT]) {
#define GET(a, field, wire) v[a] = (wire)e->field;
  OTF2A_FIELDS(GET)
#undef GET
  for (int i = 0; i < AUGUR_MAX_COUNTERS; i++)
    v[OTF2A_CTR0 + i] = e->ctr[i];
}

void otf2_attr_set(augur_event *e, unsigned a, uint64_t x) {
  switch (a) {
#define SET(a, field, wire)                                                                        \
  case a:                                                                                          \
    memcpy(&e->field, &(wire){(wire)x}, sizeof e->field);                                          \
    break;
    OTF2A_FIELDS(SET)
#undef SET
  default:
    if (a >= OTF2A_CTR0 && a < OTF2A_COUNT) e->ctr[a - OTF2A_CTR0] = x;
    break;
  }
}
