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

/* address -> call-site id; open addressing, key 0 = empty */
static uint64_t *cs_keys;
static uint32_t *cs_vals;
static size_t cs_cap, cs_count;
static uint32_t cs_next_id = 1;

typedef struct module {
  char *path;
  uint64_t base; /* dlpi_addr */
} module;
static module *mods;
static size_t nmods;

static size_t slot_of(uint64_t key, size_t cap) {
  return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

static int cs_grow(void) {
  size_t ncap = cs_cap ? cs_cap * 2 : 1024;
  uint64_t *nk = calloc(ncap, sizeof *nk);
  uint32_t *nv = calloc(ncap, sizeof *nv);
  if (!nk || !nv) {
    free(nk);
    free(nv);
    return -1;
  }
  for (size_t i = 0; i < cs_cap; i++)
    if (cs_keys[i]) {
      size_t s = slot_of(cs_keys[i], ncap);
      while (nk[s])
        s = (s + 1) & (ncap - 1);
      nk[s] = cs_keys[i];
      nv[s] = cs_vals[i];
    }
  free(cs_keys);
  free(cs_vals);
  cs_keys = nk;
  cs_vals = nv;
  cs_cap = ncap;
  return 0;
}

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
  struct find_ctx c = {.addr = addr};
  dl_iterate_phdr(find_cb, &c);
  if (!c.found) return 0;
  uint32_t mod = module_id(c.name, c.base);
  if (!mod) return 0;
  augur_callsite_def def = {.id = cs_next_id, .module = mod, .offset = addr - c.base};
  augur_error err;
  if (augur_writer_def_callsite(aug_writer, &def, &err) != AUGUR_OK)
    aug_rec_fail("call-site definition", err.msg);
  return cs_next_id++;
}

int aug_callsites_convert(augur_event *ev, size_t n) {
  uint64_t last_addr = 0;
  uint64_t last_id = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t a = ev[i].callsite;
    if (a == 0) continue;
    if (a == last_addr) {
      ev[i].callsite = last_id;
      continue;
    }
    if (cs_count * 2 >= cs_cap && cs_grow() != 0) return -1;
    size_t s = slot_of(a, cs_cap);
    while (cs_keys[s] && cs_keys[s] != a)
      s = (s + 1) & (cs_cap - 1);
    if (!cs_keys[s]) {
      cs_keys[s] = a;
      cs_vals[s] = new_callsite(a);
      cs_count++;
    }
    last_addr = a;
    last_id = cs_vals[s];
    ev[i].callsite = last_id;
  }
  return 0;
}
