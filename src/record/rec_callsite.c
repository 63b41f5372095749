/* augur recorder — raw return addresses to per-rank call-site ids.
 *
 * Done once per block (under aug_lock), never per event. A call site is
 * stored as module + offset from the module's load address, so traces stay
 * meaningful with PIE/ASLR; the reader resolves them to file:line with libdw.
 * Module lookup needs dl_iterate_phdr, a GNU extension: hence _GNU_SOURCE in
 * this file only. */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec_internal.h"
#include "u64map.h"

static aug_u64map callsites; /* address -> call-site id */
static uint32_t cs_next_id = 1;

typedef struct module {
  char *path;
  uint64_t base; /* dlpi_addr */
} module;
static module *mods;
static size_t nmods;

struct find_ctx {
  uint64_t addr;
  const char *name;
  uint64_t base;
  int found;
};

static int find_cb(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct find_ctx *c = arg;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD) continue;
    uint64_t lo = info->dlpi_addr + ph->p_vaddr;
    if (c->addr >= lo && c->addr < lo + ph->p_memsz) {
      c->name = info->dlpi_name;
      c->base = info->dlpi_addr;
      c->found = 1;
      return 1;
    }
  }
  return 0;
}

int aug_module_of(uint64_t addr, const char **name, uint64_t *base) {
  struct find_ctx c = {.addr = addr};
  dl_iterate_phdr(find_cb, &c);
  if (!c.found) return 0;
  *name = c.name;
  *base = c.base;
  return 1;
}

/* Module id for a dl_iterate_phdr entry; queues its definition when new. */
static uint32_t module_id(const char *name, uint64_t base) {
  for (size_t i = 0; i < nmods; i++)
    if (mods[i].base == base) return (uint32_t)i + 1;
  char path[AUG_PATH_MAX];
  if (!name || !*name) { /* the main program */
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n < 0) return 0;
    path[n] = '\0';
  } else if (!realpath(name, path)) {
    snprintf(path, sizeof path, "%s", name);
  }
  module *nm = realloc(mods, (nmods + 1) * sizeof *nm);
  if (!nm) return 0;
  mods = nm;
  mods[nmods].path = strdup(path);
  mods[nmods].base = base;
  if (!mods[nmods].path) return 0;
  nmods++;
  augur_module_def def = {.id = (uint32_t)nmods, .path = mods[nmods - 1].path};
  augur_error err;
  if (augur_writer_def_module(aug_writer, &def, &err) != AUGUR_OK)
    aug_rec_fail("module definition", err.msg);
  return (uint32_t)nmods;
}

static uint32_t new_callsite(uint64_t addr) {
  const char *name;
  uint64_t base;
  if (!aug_module_of(addr, &name, &base)) return 0;
  uint32_t mod = module_id(name, base);
  if (!mod) return 0;
  augur_callsite_def def = {.id = cs_next_id, .module = mod, .offset = addr - base};
  augur_error err;
  if (augur_writer_def_callsite(aug_writer, &def, &err) != AUGUR_OK)
    aug_rec_fail("call-site definition", err.msg);
  return cs_next_id++;
}

int aug_callsites_convert(augur_event *ev, size_t n, aug_tick_map *ticks) {
  uint64_t last_addr = 0;
  uint64_t last_id = 0;
  for (size_t i = 0; i < n; i++) {
    if (ticks) aug_clock_apply(ticks, &ev[i]);
    uint64_t a = ev[i].callsite;
    if (a == 0) continue;
    if (a == last_addr) {
      ev[i].callsite = last_id;
      continue;
    }
    int fresh;
    uint32_t *id = aug_u64map_slot(&callsites, a, &fresh);
    if (!id) return -1; /* the block is not written */
    if (fresh) *id = new_callsite(a);
    last_addr = a;
    last_id = *id;
    ev[i].callsite = last_id;
  }
  return 0;
}

void aug_callsites_convert_known(augur_event *ev, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint32_t id = 0;
    if (ev[i].callsite && !aug_u64map_get(&callsites, ev[i].callsite, &id)) id = 0;
    ev[i].callsite = id;
  }
}
