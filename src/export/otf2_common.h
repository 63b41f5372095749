/* Shared by the OTF2 export and import: the names of the OTF2 attributes and
 * archive property that carry every augur field OTF2 has no slot for, so an
 * export read back by the import gives identical events and definitions. */
#ifndef AUGUR_OTF2_COMMON_H
#define AUGUR_OTF2_COMMON_H

#include <stdint.h>

#include "augur/event.h"

/* Event fields, in attribute-id order. Each is an OTF2 uint64 attribute on the
 * Enter record of the augur event; a zero field is left out (the importer
 * reads a missing attribute as 0), except `type`, which marks augur events. */
enum {
  OTF2A_TYPE,
  OTF2A_FLAGS,
  OTF2A_PEER,
  OTF2A_TAG,
  OTF2A_BYTES,
  OTF2A_BYTES_RECV,
  OTF2A_REQ,
  OTF2A_COMM,
  OTF2A_HASH,
  OTF2A_CALLSITE,
  OTF2A_AUX,
  OTF2A_T_START,
  OTF2A_T_END,
  OTF2A_THREAD,
  OTF2A_CTR0,
  OTF2A_COUNT = OTF2A_CTR0 + AUGUR_MAX_COUNTERS
};

/* Attribute names as written in the archive ("augur::type", ...). */
extern const char *const otf2_attr_names[OTF2A_COUNT];

/* The attribute values of event e (v[OTF2A_TYPE] = e->type, ...). */
void otf2_attrs_of(const augur_event *e, uint64_t v[OTF2A_COUNT]);
/* Sets the field of e that attribute a carries to x; a >= OTF2A_COUNT: nothing. */
void otf2_attr_set(augur_event *e, unsigned a, uint64_t x);

/* Archive property holding the augur definitions as compact JSON. */
#define OTF2_AUGUR_PROPERTY "AUGUR::DEFS"
/* Above this size the JSON goes to a file of the archive's directory instead, named by the
 * property OTF2_AUGUR_PROPERTY_FILE: OTF2 writes the anchor file through one 256 KiB buffer and
 * a larger property left it truncated (at 4,096 ranks the definitions are 785 KB). */
#define OTF2_AUGUR_PROPERTY_MAX  (128u << 10)
#define OTF2_AUGUR_PROPERTY_FILE "AUGUR::DEFS_FILE"
#define OTF2_AUGUR_DEFS_FILE     "augur-defs.json"

/* Region name of an augur sub-record type ("augur:COMPLETION"). */
#define OTF2_SUB_PREFIX "augur:"

#endif
