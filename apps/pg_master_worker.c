/* pg_master_worker — master/worker collaboration out of balance (KappaPi
 * "master/slave"): rank 0 generates TASKS tasks, each costing GEN us, and
 * hands each to a free worker (ranks 1..N-1), who works TASK us and returns a
 * result. The master generates the next task ahead while the workers work
 * and hands it over as soon as a result comes back, like a work queue.
 *   --workers-bound (default)  too few workers for the task cost: the master
 *                              idles waiting for results (TASK 30000, GEN 1000)
 *   --master-bound             task generation too slow: workers idle waiting
 *                              for the master (TASK 1000, GEN 10000)
 *   --off                      balanced: TASK = 1.05 x workers x GEN, GEN
 *                              5000; the master prepares the first tasks while
 *                              the workers set up and keeps one ready task per
 *                              worker (balanced_master)
 * -w/-g override the costs. The expected idle times come from replaying the
 * protocol with zero communication cost (simulate() below).
 *
 * usage: pg_master_worker [--workers-bound|--master-bound|--off] [-t TASKS]
 *                         [-w TASK_US] [-g GEN_US] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pg_common.h"

enum { TAG_TASK = 1, TAG_RESULT = 2, TAG_STOP = 3 };

/* Replays the protocol: returns the master's and the workers' total idle
 * time in us (workers count from 0 to their stop message). */
static void simulate(int nw, long tasks, long w, long g, double *master_idle, double *work_idle) {
  double *fin = calloc((size_t)nw + 1, sizeof *fin), m = 0.0;
  int *busy = calloc((size_t)nw + 1, sizeof *busy);
  long next = 0;
  *master_idle = *work_idle = 0.0;
  if (!fin || !busy) goto out;
  for (int k = 1; k <= nw; k++) {
    if (next < tasks) {
      m += (double)g;
      *work_idle += m; /* waited since the start */
      fin[k] = m + (double)w;
      busy[k] = 1;
      next++;
    } else {
      *work_idle += m; /* waits for its stop */
    }
  }
  /* the master generates the next task ahead, while the workers work */
  int ready = 0;
  if (next < tasks) {
    m += (double)g;
    ready = 1;
  }
  for (;;) {
    int k = 0;
    for (int j = 1; j <= nw; j++)
      if (busy[j] && (!k || fin[j] < fin[k])) k = j;
    if (!k) break;
    if (fin[k] > m) {
      *master_idle += fin[k] - m;
      m = fin[k];
    }
    busy[k] = 0;
    *work_idle += m - fin[k]; /* the master was still generating */
    if (ready) {              /* hand over the ready task at once */
      fin[k] = m + (double)w;
      busy[k] = 1;
      next++;
      ready = 0;
      if (next < tasks) {
        m += (double)g;
        ready = 1;
      }
    } /* else: the stop is sent at once */
  }
out:
  free(fin);
  free(busy);
}

/* The balanced master (--off): it keeps one ready task per worker,
 * generates in slices of at most 5 ms (long enough for pg_spin to sleep to
 * its deadline) and looks for results before each slice, so a worker that
 * returns a result gets a ready task at once. With tasks 5 % longer than the
 * workers x generation time it keeps up; the only waiting left is the
 * master's 5 % slack. */
static void balanced_master(int nw, long tasks, long g_us) {
  long sent = 0, ready = 0, done = 0, gen = nw < tasks ? nw : tasks, result;
  long long deadline = 0; /* when the task being generated is ready; 0: none started */
  int *idle = calloc((size_t)nw, sizeof *idle), nidle = 0;
  if (!idle) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 1; k <= nw; k++) { /* the tasks prepared before the start */
    int tag = sent < tasks ? TAG_TASK : TAG_STOP;
    /* @augur:pg_master_worker.task_send_first */
    MPI_Send(&sent, 1, MPI_LONG, k, tag, MPI_COMM_WORLD);
    if (tag == TAG_TASK) sent++;
  }
  while (done < sent) {
    int flag = 0;
    MPI_Status st;
    for (;;) {
      /* @augur:pg_master_worker.probe */
      MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
      if (flag || ready >= nw || gen >= tasks) break;
      if (!deadline) deadline = pg_now() + g_us * PG_US;
      long long rest = deadline - pg_now();
      if (rest > 0) pg_spin(rest < 5000 * PG_US ? rest : 5000 * PG_US);
      if (pg_now() < deadline) continue;
      deadline = 0;
      gen++;
      if (nidle) { /* a worker waits for this one */
        /* @augur:pg_master_worker.task_send_late */
        MPI_Send(&sent, 1, MPI_LONG, idle[--nidle], TAG_TASK, MPI_COMM_WORLD);
        sent++;
      } else {
        ready++;
      }
    }
    /* @augur:pg_master_worker.result_recv_balanced */
    MPI_Recv(&result, 1, MPI_LONG, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
    done++;
    if (ready) {
      /* @augur:pg_master_worker.task_send_ready */
      MPI_Send(&sent, 1, MPI_LONG, st.MPI_SOURCE, TAG_TASK, MPI_COMM_WORLD);
      sent++;
      ready--;
    } else if (gen < tasks) {
      idle[nidle++] = st.MPI_SOURCE; /* served when its task is ready */
    } else {
      /* @augur:pg_master_worker.stop_send_balanced */
      MPI_Send(&sent, 1, MPI_LONG, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
    }
  }
  free(idle);
}

int main(int argc, char **argv) {
  /* @augur:pg_master_worker.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long tasks = -1, w_us = -1, g_us = -1, wb = 0, mb = 0, off = 0;
  const pg_opt opts[] = {{"tasks", 't', PG_INT, 1, 1000000, &tasks, NULL},
                         {"task", 'w', PG_INT, 0, 100000000, &w_us, NULL},
                         {"gen", 'g', PG_INT, 0, 100000000, &g_us, NULL},
                         {"workers-bound", 0, PG_FLAG, 0, 1, &wb, NULL},
                         {"master-bound", 0, PG_FLAG, 0, 1, &mb, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 6, rank == 0) != 0 || size < 2 || wb + mb + off > 1) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_master_worker: needs at least 2 ranks\n");
      if (wb + mb + off > 1) fprintf(stderr, "pg_master_worker: choose one mode\n");
      fprintf(stderr, "usage: pg_master_worker [--workers-bound|--master-bound|--off] "
                      "[-t TASKS] [-w TASK_US] [-g GEN_US]\n");
    }
    MPI_Finalize();
    return 2;
  }
  const int nw = size - 1;
  if (tasks < 0) tasks = 4L * nw;
  if (mb) {
    if (w_us < 0) w_us = 1000;
    if (g_us < 0) g_us = 10000;
  } else if (off) {
    if (g_us < 0) g_us = 5000;
    if (w_us < 0) w_us = nw * g_us * 105 / 100; /* 5 % slack for the master */
  } else {
    if (w_us < 0) w_us = 30000;
    if (g_us < 0) g_us = 1000;
  }

  /* Start together: MPI_Init returns at different times on different ranks,
   * and that skew is not part of the problem. */
  /* @augur:pg_master_worker.sync */
  MPI_Barrier(MPI_COMM_WORLD);
  /* Balanced (--off): the master prepares the first task of every worker
   * while the workers set up (the same time), so nobody waits at the start. */
  if (off) pg_spin(nw * g_us * PG_US);
  if (rank == 0 && off) {
    pg_expected("none", 0.0, 1, 0, 1, "site=pg_master_worker.result_recv");
    balanced_master(nw, tasks, g_us);
  } else if (rank == 0) {
    double mi, wi;
    simulate(nw, tasks, w_us, g_us, &mi, &wi);
    char extra[160];
    snprintf(extra, sizeof extra,
             "master_idle=%.6f workers_idle=%.6f tasks=%ld task_us=%ld gen_us=%ld site=%s",
             mi * 1e-6, wi * 1e-6, tasks, w_us, g_us,
             mb ? "pg_master_worker.task_recv" : "pg_master_worker.result_recv");
    if (mb)
      pg_expected("master_bound", wi * 1e-6, 1, nw, 1, extra);
    else
      pg_expected("workers_bound", mi * 1e-6, 0, 0, 1, extra);

    long next = 0, outstanding = 0, task, result;
    for (int k = 1; k <= nw; k++) {
      if (next < tasks) {
        pg_spin(g_us * PG_US);
        task = next++;
        /* @augur:pg_master_worker.task_send0 */
        MPI_Send(&task, 1, MPI_LONG, k, TAG_TASK, MPI_COMM_WORLD);
        outstanding++;
      } else {
        /* @augur:pg_master_worker.stop_send0 */
        MPI_Send(&next, 1, MPI_LONG, k, TAG_STOP, MPI_COMM_WORLD);
      }
    }
    /* The next task is generated ahead, while the workers work, and handed
     * over as soon as a result comes back. */
    int ready = 0;
    if (next < tasks) {
      pg_spin(g_us * PG_US);
      ready = 1;
    }
    while (outstanding > 0) {
      MPI_Status st;
      /* @augur:pg_master_worker.result_recv */
      MPI_Recv(&result, 1, MPI_LONG, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
      outstanding--;
      if (ready) {
        task = next++;
        /* @augur:pg_master_worker.task_send */
        MPI_Send(&task, 1, MPI_LONG, st.MPI_SOURCE, TAG_TASK, MPI_COMM_WORLD);
        outstanding++;
        ready = 0;
        if (next < tasks) {
          pg_spin(g_us * PG_US);
          ready = 1;
        }
      } else {
        /* @augur:pg_master_worker.stop_send */
        MPI_Send(&next, 1, MPI_LONG, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
      }
    }
  } else {
    for (;;) {
      long task, result;
      MPI_Status st;
      /* @augur:pg_master_worker.task_recv */
      MPI_Recv(&task, 1, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      if (st.MPI_TAG == TAG_STOP) break;
      pg_spin(w_us * PG_US);
      result = task * task;
      /* @augur:pg_master_worker.result_send */
      MPI_Send(&result, 1, MPI_LONG, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
  }
  /* @augur:pg_master_worker.finalize */
  MPI_Finalize();
  return 0;
}
