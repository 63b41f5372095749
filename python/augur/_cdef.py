"""The C declarations the package uses, copied from include/augur/*.h.

cffi's ABI mode (ffi.dlopen) reads these instead of the headers: no compiler
is needed at import. They must agree with the headers byte for byte:
python/tests/test_cdef.py compiles TYPES' sizes and offsets (as cffi lays
them out) as _Static_asserts, and FUNCS verbatim, against include/augur, so
a header change that is not copied here fails the test suite.

TYPES: structs, opaque handles and integer constants. Only what the package
reads is declared in full; the rest are opaque (pointers only).
FUNCS: prototypes, exactly as C would accept them after the headers.
LIBC: what the package needs from the C library (a FILE* for the writers
that take one; FILE is cffi's own type).
"""

TYPES = r"""
#define AUGUR_ERROR_MSG_MAX 512
#define AUGUR_MAX_COUNTERS 4
#define AUGUR_MAX_DIMS 8
#define AUGUR_INCOMPLETE_MAX 1024
#define AUGUR_KIND_MPI 1
#define AUGUR_KIND_OMP 2
#define AUGUR_POP_NOTES 8
#define AUGUR_POP_NOTE_MAX 1024
#define AUGUR_EV_MAX 256

typedef struct augur_error {
  int code;
  char msg[AUGUR_ERROR_MSG_MAX];
} augur_error;

typedef struct augur_event {
  uint64_t t_start;
  uint64_t t_end;
  uint64_t bytes;
  uint64_t bytes_recv;
  uint64_t req;
  uint64_t comm;
  uint64_t hash;
  uint64_t callsite;
  uint64_t ctr[AUGUR_MAX_COUNTERS];
  int32_t peer;
  int32_t tag;
  uint32_t aux;
  uint16_t type;
  uint16_t flags;
  uint32_t rank;
  uint32_t thread;
} augur_event;

typedef struct augur_comm_def {
  uint64_t id;
  uint64_t parent;
  uint32_t kind;
  uint32_t size;
  int32_t *members;
  uint32_t remote_size;
  int32_t *remote;
  uint32_t ndims;
  int32_t dims[AUGUR_MAX_DIMS];
  int32_t periods[AUGUR_MAX_DIMS];
} augur_comm_def;

typedef struct augur_module_def {
  uint32_t id;
  char *path;
} augur_module_def;

typedef struct augur_callsite_def {
  uint32_t id;
  uint32_t module;
  uint64_t offset;
} augur_callsite_def;

typedef struct augur_srcloc {
  const char *function;
  const char *file;
  int line;
  const char *module;
} augur_srcloc;

typedef struct augur_counter_def {
  uint32_t index;
  uint32_t source;
  char *name;
} augur_counter_def;

typedef struct augur_clock_sync {
  uint32_t kind;
  uint64_t local_ns;
  int64_t offset_ns;
  uint64_t rtt_ns;
} augur_clock_sync;

typedef struct augur_cpu_move {
  uint64_t ns;
  uint32_t cpu;
} augur_cpu_move;

typedef struct augur_rank_def {
  uint32_t rank;
  uint32_t nranks;
  uint64_t pid;
  char *host;
  int32_t thread_level;
  uint64_t init_ns;
  uint64_t finalize_ns;
  uint32_t nsync;
  augur_clock_sync sync[2];
  uint32_t ncounters;
  augur_counter_def counters[AUGUR_MAX_COUNTERS];
  char *counter_note;
  uint32_t cores;
  uint32_t cpu_quota;
  char *cpus;
  uint32_t nmoves;
  augur_cpu_move *moves;
  uint64_t moves_lost;
  uint64_t migrations;
  uint64_t cpu_ns;
  uint64_t run_delay_ns;
} augur_rank_def;

typedef struct augur_omp_callback {
  const char *name;
  int result;
} augur_omp_callback;

typedef struct augur_omp_meta {
  const char *mode;
  const char *runtime;
  size_t ncallbacks;
  const augur_omp_callback *callbacks;
  const char *note;
  uint64_t dropped_before_init;
} augur_omp_meta;

typedef struct augur_trace_info {
  uint32_t version_major, version_minor;
  uint32_t nranks;
  int argc;
  char **argv;
  const char *mpi_library;
  const char *mpi_version;
  const char *recorder;
  uint64_t start_unix_ns;
  int payload_hash;
  int complete;
  const char *counters_requested;
  augur_omp_meta openmp;
} augur_trace_info;

typedef struct augur_hosts {
  uint32_t nhosts;
  uint32_t max_ranks;
  uint32_t known;
  uint32_t oversubscribed;
  const char *host;
  uint32_t ranks;
  uint32_t cores;
  uint32_t delay_ranks;
  uint64_t run_delay_ns;
  uint64_t window_ns;
} augur_hosts;

typedef struct augur_trace augur_trace;
typedef struct augur_stream augur_stream;
typedef struct augur_report augur_report;
typedef struct augur_diagnosis augur_diagnosis;
typedef struct augur_logical augur_logical;
typedef struct augur_phases augur_phases;
typedef struct augur_pop_region augur_pop_region;

typedef void (*augur_report_progress)(void *arg, uint32_t rank, uint32_t nranks, uint64_t events);

typedef struct augur_dx_options {
  double min_share;
  uint64_t eager_limit;
  uint32_t bins;
  void (*progress)(void *arg, uint64_t events, uint64_t total);
  void *progress_arg;
  int (*open_stream)(void *arg, augur_trace *t, augur_stream **s, augur_error *err);
  void *open_stream_arg;
  double io_bandwidth;
} augur_dx_options;

typedef struct augur_phase_opts {
  int mode;
  double volume_tol;
  double work_sim;
  double min_share;
  uint32_t max_period;
  int rank;
} augur_phase_opts;

typedef struct augur_pop {
  uint32_t nranks;
  double t_ns;
  double t_ideal_ns;
  int ideal_skipped;
  double useful_avg_ns, useful_max_ns;
  uint32_t useful_max_rank;
  double lb, comm_eff, ser_eff, trans_eff, par_eff;
  int hybrid;
  uint64_t nthreads;
  double thread_useful_avg_ns, thread_useful_max_ns;
  double hpe, hlbe, omp_pe, omp_lbe, omp_ce;
  double thread_ns, ser_ns, lb_ns, sched_ns;
  double omp_ser_eff, omp_lb_eff, omp_sched_eff;
  uint64_t unbalanced;
  uint64_t mpi_threads;
  int trusted;
  size_t nnotes;
  char notes[AUGUR_POP_NOTES][AUGUR_POP_NOTE_MAX];
  size_t nregions;
  augur_pop_region *regions;
} augur_pop;
"""

FUNCS = r"""
unsigned augur_version_number(void);
const char *augur_version_string(void);
const char *augur_status_name(int code);

int augur_trace_open(augur_trace **t, const char *path, augur_error *err);
void augur_trace_close(augur_trace *t);
const augur_trace_info *augur_trace_info_get(const augur_trace *t);
uint32_t augur_trace_nranks(const augur_trace *t);
const char *augur_trace_path(const augur_trace *t);
int augur_trace_damage(const augur_trace *t, uint32_t rank, const char **msg);
size_t augur_trace_dropped(const augur_trace *t, uint32_t rank, const char **msg);
int augur_trace_rank_finished(const augur_trace *t, uint32_t rank);
uint64_t augur_trace_rank_end_ns(const augur_trace *t, uint32_t rank);
int augur_trace_incomplete(const augur_trace *t, char *buf, size_t n);
const augur_rank_def *augur_trace_rank(const augur_trace *t, uint32_t rank);
int augur_trace_hosts(const augur_trace *t, augur_hosts *p, augur_error *err);
size_t augur_trace_ncomms(const augur_trace *t);
const augur_comm_def *augur_trace_comm_at(const augur_trace *t, size_t i);
size_t augur_trace_ncallsites(const augur_trace *t);
const augur_callsite_def *augur_trace_callsite(const augur_trace *t, uint32_t id);
const augur_module_def *augur_trace_module(const augur_trace *t, uint32_t id);
int augur_trace_resolve(augur_trace *t, uint32_t callsite, augur_srcloc *out);
uint32_t augur_trace_ncounters(const augur_trace *t);
const augur_counter_def *augur_trace_counter(const augur_trace *t, uint32_t index);
int augur_trace_counter_slot(const augur_trace *t, uint32_t source, const char *name);
uint64_t augur_trace_nevents(const augur_trace *t, uint32_t rank);
uint64_t augur_trace_omp_nevents(const augur_trace *t, uint32_t rank);
int augur_stream_rank_kinds(augur_trace *t, uint32_t rank, unsigned kinds, augur_stream **s,
                            augur_error *err);
int augur_stream_merged_kinds(augur_trace *t, unsigned kinds, augur_stream **s, augur_error *err);
int augur_stream_next(augur_stream *s, augur_event *ev, augur_error *err);
int augur_stream_read(augur_stream *s, augur_event *ev, size_t max, size_t *n, augur_error *err);
void augur_stream_close(augur_stream *s);

const char *augur_event_name(unsigned type);
int augur_event_is_sub(unsigned type);

int augur_report_compute(augur_trace *t, augur_report **out, augur_report_progress progress,
                         void *progress_arg, augur_error *err);
void augur_report_free(augur_report *r);
char *augur_report_json(const augur_report *r, augur_trace *t, int top);
void augur_fmt_callsite(char *buf, size_t n, augur_trace *t, uint32_t callsite);

int augur_pop_trace(augur_trace *t, int ideal, augur_pop *out, augur_error *err);
void augur_pop_free(augur_pop *p);
char *augur_pop_json(const augur_pop *p, augur_trace *t);

int augur_diagnose(augur_trace *t, const augur_dx_options *opt, augur_diagnosis **out,
                   augur_error *err);
void augur_diagnosis_free(augur_diagnosis *d);
int augur_diagnosis_write_json(const augur_diagnosis *d, FILE *f, augur_error *err);

int augur_logical_build(augur_trace *t, augur_logical **out, augur_error *err);
void augur_logical_free(augur_logical *lg);
void augur_phase_opts_default(augur_phase_opts *o);
int augur_phases_detect(const augur_logical *lg, const augur_phase_opts *o, augur_phases **out,
                        augur_error *err);
void augur_phases_free(augur_phases *p);
char *augur_phases_json(const augur_phases *p, const augur_logical *lg, augur_trace *t);
"""

LIBC = r"""
FILE *open_memstream(char **ptr, size_t *sizeloc);
int fclose(FILE *f);
void free(void *p);
"""

# The headers FUNCS and TYPES come from (for the check in test_cdef.py).
HEADERS = ("api.h", "error.h", "event.h", "defs.h", "reader.h", "report.h", "pop.h",
           "diagnose.h", "phases.h")
