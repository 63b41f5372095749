/* augur web — the read-only web UI over the monitoring database (src/web).
 *
 *   augur web [--db FILE] [--listen ADDR:PORT] [--token T] [--allow-host NAMES]
 *             [--timeout S] [--port-file F]
 *
 * Bound to 127.0.0.1 by default; any other address needs a token, so the
 * job data of a centre is never served to anyone who can reach the port. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#ifdef AUGUR_HAVE_WEB
#include "web.h"
#endif

/* --allow-host NAMES: appended to the comma list in DST (2048 bytes). */
static int allow_host(const char *opt, const char *val, void *dst) {
  char *allow = dst;
  size_t used = strlen(allow);
  if (used + strlen(val) + 2 > 2048) {
    cli_usage("%s: too many names", opt);
    return -1;
  }
  snprintf(allow + used, 2048 - used, "%s%s", used ? "," : "", val);
  return 0;
}

int cmd_web(int argc, char **argv) {
  const char *db = getenv("AUGUR_DB"), *listen = "127.0.0.1:8077",
             *token = getenv("AUGUR_WEB_TOKEN");
  const char *port_file = NULL;
  int verbose = 0;
  long long timeout = 10;
  char allow[2048] = "";
  double threshold;
  int rc = cli_pe_threshold_env(&threshold);
  if (rc != CLI_OK) return rc;
  const cli_opt options[] = {
      CLI_STRING("--db", NULL, "DB", &db, NULL,
                 "the database: a SQLite file, or PostgreSQL as a libpq URI\n"
                 "or conninfo string (default $AUGUR_DB or augur.db)"),
      CLI_STRING("--listen", NULL, "ADDR:PORT", &listen, NULL,
                 "IPv4 address and port (default 127.0.0.1:8077; port 0 =\n"
                 "any free port)"),
      CLI_STRING("--token", NULL, "T", &token, NULL,
                 "require this token (default $AUGUR_WEB_TOKEN); required\n"
                 "when ADDR is not a loopback address. Log in once with\n"
                 "http://ADDR:PORT/?token=T (a cookie keeps it)"),
      CLI_CALL("--allow-host", NULL, "NAMES", allow_host, allow,
               "more names the browser may use for this server (comma\n"
               "list; repeatable). Requests whose Host header is not the\n"
               "bind address, localhost, 127.0.0.1, [::1], this host's\n"
               "name or one of NAMES are refused with 421 (DNS rebinding)"),
      CLI_INT("--timeout", "S", &timeout, 1, 3600,
              "a whole request within S seconds of the connection or of\n"
              "the previous answer, else it is closed (default 10)"),
      CLI_STRING("--port-file", NULL, "FILE", &port_file, NULL,
                 "write the port there once listening (for scripts)"),
      CLI_CALL("--pe-threshold", NULL, "PCT", cli_pe_threshold, &threshold,
               "flag jobs below PCT % parallel efficiency with the factor\n"
               "that limits them (default $AUGUR_PE_THRESHOLD or 60)"),
      CLI_FLAG("--verbose", "-v", &verbose, "log each request on stderr"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur web [options]\n"
               "\n"
               "Serves the monitoring database read-only over HTTP: pick cluster, user, job\n"
               "and step; group by cluster, user, job, step, node, program, rank, process or\n"
               "thread; metrics with aggregations; table, bar, line and scatter charts;\n"
               "drill-down by clicking a row or bar; the SQL of every page on request.\n",
      .opts = options,
      .trailer = "\n"
                 "examples:\n"
                 "  augur web --db /var/lib/augur/augur.db\n"
                 "  augur web --db augur.db --listen 0.0.0.0:8077 --token \"$(cat "
                 "/etc/augur/web-token)\"\n"};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  if (!db || !*db) db = "augur.db";
  if (token && !*token) token = NULL;
  if (token && (strlen(token) < 8 || strlen(token) > 256))
    return cli_usage("--token wants 8 to 256 characters");
  /* It travels in a cookie and a URL: letters, digits and -._~+/= only. */
  for (const char *t = token; t && *t; t++)
    if (!((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || (*t >= '0' && *t <= '9') ||
          strchr("-._~+/=", *t)))
      return cli_usage("--token may hold letters, digits and -._~+/= only");
  char host[64];
  const char *colon = strrchr(listen, ':');
  long long port;
  if (!colon || colon == listen || (size_t)(colon - listen) >= sizeof host)
    return cli_usage("--listen wants ADDR:PORT, e.g. 127.0.0.1:8077, got '%s'", listen);
  memcpy(host, listen, (size_t)(colon - listen));
  host[colon - listen] = '\0';
  if (cli_parse_int("--listen port", colon + 1, 0, 65535, &port) < 0) return CLI_USAGE;
  if (strncmp(host, "127.", 4) != 0 && !token)
    return cli_usage("listening on %s (not loopback) needs --token or AUGUR_WEB_TOKEN", host);
#ifdef AUGUR_HAVE_WEB
  /* Check the database now: a wrong path is a start-up error, not a page. */
  mon_qdb *probe;
  char why[512];
  if (mon_query_open(db, &probe, why, sizeof why) < 0) return cli_fail("%s", why);
  mon_query_close(probe);
  web_opts o = {db, host, (int)port, token, port_file, verbose, allow, (int)timeout, threshold};
  if (web_run(&o, why, sizeof why) < 0) return cli_fail("%s", why);
  return CLI_OK;
#else
  (void)verbose;
  (void)port_file;
  (void)timeout;
  (void)threshold;
  return cli_fail("this augur was built without libmicrohttpd (scripts/install-deps.sh)");
#endif
}
