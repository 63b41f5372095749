/* The one option parser of the augur commands: each command states its
 * options once, in a cli_opt table (cli.h), and this file turns the table
 * into the parse, the value checks and the --help text. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mpi_flavour.h"

/* The entry of OPTS that ARG names, with *VAL set to the value of a
 * "--name=VALUE" spelling (else NULL); NULL when none does. */
static const cli_opt *find_opt(const cli_opt *opts, const char *arg, const char **val) {
  *val = NULL;
  for (const cli_opt *o = opts; o && o->name; o++) {
    size_t n = strlen(o->name);
    if (!strcmp(arg, o->name) || (o->shortname && !strcmp(arg, o->shortname))) return o;
    if (!strncmp(arg, o->name, n) && arg[n] == '=') {
      *val = arg + n + 1;
      return o;
    }
  }
  return NULL;
}

/* "a|b|c" -> "a, b or c" */
static void choice_list(char *b, size_t n, const char *choices) {
  size_t len = 0;
  b[0] = '\0';
  for (const char *p = choices; *p && len + 5 < n; p++) {
    if (*p != '|') {
      b[len++] = *p;
    } else {
      const char *sep = strchr(p + 1, '|') ? ", " : " or ";
      memcpy(b + len, sep, strlen(sep));
      len += strlen(sep);
    }
  }
  b[len] = '\0';
}

/* Whether VAL is one of the '|'-separated CHOICES. */
static int is_choice(const char *choices, const char *val) {
  size_t n = strlen(val);
  for (const char *p = choices; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
    if (!strncmp(p, val, n) && (p[n] == '|' || p[n] == '\0') && n) return 1;
  return 0;
}

/* Stores VAL in O's destination; 0, or -1 after a usage line. */
static int set_value(const cli_opt *o, const char *val) {
  long long n;
  char list[256];
  switch (o->kind) {
  case CLI_OPT_INT:
    if (cli_parse_int(o->name, val, o->min, o->max, &n) < 0) return -1;
    *(long long *)o->dst = n;
    return 0;
  case CLI_OPT_REAL:
    return cli_parse_real(o->name, val, o->lo, o->hi, o->what, (double *)o->dst);
  case CLI_OPT_STRING:
    if (o->what && !*val) {
      cli_usage("%s wants %s", o->shortname ? o->shortname : o->name, o->what);
      return -1;
    }
    *(const char **)o->dst = val;
    return 0;
  case CLI_OPT_CHOICE:
    if (!is_choice(o->choices, val)) {
      choice_list(list, sizeof list, o->choices);
      cli_usage("%s: expected %s, got '%s'", o->name, list, val);
      return -1;
    }
    *(const char **)o->dst = val;
    return 0;
  case CLI_OPT_CALL:
    return o->call(o->name, val, o->dst);
  case CLI_OPT_FLAG:
    break;
  }
  assert(0 && "a flag has no value");
  return -1;
}

/* The first line of SPEC's usage text, without "usage: ". */
static int usage_line(const cli_spec *spec, const char **start) {
  const char *u = spec->usage;
  if (!strncmp(u, "usage: ", 7)) u += 7;
  *start = u;
  return (int)strcspn(u, "\n");
}

int cli_parse_args(int argc, char **argv, const cli_spec *spec, cli_args *a) {
  assert(spec && spec->usage && spec->opts && a);
  assert(spec->max_operands >= 0 && spec->max_operands <= 2);
  memset(a, 0, sizeof *a);
  a->dashdash = -1;
  a->status = CLI_USAGE;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *val = NULL;
    if (spec->dashdash && !strcmp(arg, "--")) {
      a->dashdash = i;
      break;
    }
    if (cli_is_help(arg)) {
      cli_help(spec);
      a->status = CLI_OK;
      return 0;
    }
    if (arg[0] == '-' && arg[1]) {
      const cli_opt *o = find_opt(spec->opts, arg, &val);
      if (!o) {
        cli_usage("unknown option '%s' (see '%s --help')", arg, cli_prog);
        return 0;
      }
      if (o->kind == CLI_OPT_FLAG) {
        if (val) {
          cli_usage("option %s takes no value (see '%s --help')", o->name, cli_prog);
          return 0;
        }
        *(int *)o->dst = 1;
        continue;
      }
      if (!val) {
        if (i + 1 >= argc) {
          cli_usage("option %s needs a value (see '%s --help')", arg, cli_prog);
          return 0;
        }
        val = argv[++i];
      }
      if (set_value(o, val) < 0) return 0;
    } else if (a->noperands < spec->max_operands) {
      a->operand[a->noperands++] = arg;
    } else if (spec->dashdash) {
      const char *u;
      int n = usage_line(spec, &u);
      cli_usage("missing '--' before the command (usage: %.*s)", n, u);
      return 0;
    } else if (spec->operand) {
      cli_usage("unexpected argument '%s': one %s at a time", arg, spec->operand);
      return 0;
    } else {
      cli_usage("unexpected argument '%s' (see '%s --help')", arg, cli_prog);
      return 0;
    }
  }
  if (spec->required && a->noperands == 0) {
    const char *u;
    int n = usage_line(spec, &u);
    cli_usage("missing %s (usage: %.*s)", spec->required, n, u);
    return 0;
  }
  return 1;
}

/* "-o, --output FILE" */
static int label(char *b, size_t n, const cli_opt *o) {
  return snprintf(b, n, "%s%s%s%s%s", o->shortname ? o->shortname : "", o->shortname ? ", " : "",
                  o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

void cli_help(const cli_spec *spec) {
  static const char help_label[] = "-h, --help";
  assert(spec && spec->usage && spec->opts);
  char b[128];
  int width = (int)strlen(help_label);
  for (const cli_opt *o = spec->opts; o->name; o++) {
    int n = label(b, sizeof b, o);
    if (n > width) width = n;
  }
  fputs(spec->usage, stdout);
  fputs("\noptions:\n", stdout);
  for (const cli_opt *o = spec->opts; o->name; o++) {
    label(b, sizeof b, o);
    printf("  %-*s  ", width, b);
    for (const char *h = o->help; *h; h++) {
      fputc(*h, stdout);
      if (*h == '\n') printf("  %-*s  ", width, "");
    }
    fputc('\n', stdout);
  }
  printf("  %-*s  show this help\n", width, help_label);
  if (spec->trailer) fputs(spec->trailer, stdout);
}

int cli_opt_mpi(const char *opt, const char *val, void *dst) {
  if (mpi_flavour_parse(val) < 0) {
    cli_usage("%s: expected mpich or openmpi, got '%s'", opt, val);
    return -1;
  }
  *(const char **)dst = val;
  return 0;
}
