/* augur core — which event types are sub-records (docs/trace-format.md
 * "Sub-records"): records that belong to the parent record before them and
 * are kept in its block. The one definition, for the public
 * augur_event_is_sub (event.c), the encoder and writer (src/format) and the
 * merged stream (src/trace); inline because the encoder asks per record. */
#ifndef AUGUR_CORE_SUBREC_H
#define AUGUR_CORE_SUBREC_H

#include "augur/event.h"

static inline int aug_type_is_sub(unsigned t) {
  return t - AUGUR_EV_COMPLETION <= AUGUR_EV_SUB_START - AUGUR_EV_COMPLETION ||
         t - AUGUR_EV_NEIGH_SEND <= AUGUR_EV_NEIGH_RECV - AUGUR_EV_NEIGH_SEND;
}

#endif
