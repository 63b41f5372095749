#!/usr/bin/python3
"""Writes a small OTF2 archive with python3-otf2 (a writer that is not augur):
2 ranks, rank 0 sends 64 bytes with tag 7 to rank 1 (MPI_Send / MPI_Recv),
then both call MPI_Barrier, plus a non-MPI region "compute" on each rank;
then rank 0 puts 32 bytes to rank 1 (MPI_Put with an RmaPut record on a window).
Times are in ns from the global offset. Usage: foreign_archive.py DIR"""
import sys

import otf2
from otf2.enums import CollectiveOp, GroupType, Paradigm, RegionRole

OFFSET = 1_000_000_000

def main(path):
    with otf2.writer.open(path, timer_resolution=1_000_000_000) as trace:
        d = trace.definitions
        root = d.system_tree_node("cluster")
        host = d.system_tree_node("node-a", parent=root)
        groups = [d.location_group("rank %d" % r, system_tree_parent=host) for r in range(2)]
        locs = [d.location("rank %d main" % r, group=groups[r]) for r in range(2)]
        writers = [trace.event_writer_from_location(l) for l in locs]
        world_locs = d.group("MPI_COMM_WORLD locations", group_type=GroupType.COMM_LOCATIONS,
                             paradigm=Paradigm.MPI, members=locs)
        world_group = d.group("MPI_COMM_WORLD group", group_type=GroupType.COMM_GROUP,
                              paradigm=Paradigm.MPI, members=[0, 1])
        world = d.comm("MPI_COMM_WORLD", group=world_group)
        send = d.region("MPI_Send", region_role=RegionRole.POINT2POINT, paradigm=Paradigm.MPI)
        recv = d.region("MPI_Recv", region_role=RegionRole.POINT2POINT, paradigm=Paradigm.MPI)
        barrier = d.region("MPI_Barrier", region_role=RegionRole.BARRIER, paradigm=Paradigm.MPI)
        compute = d.region("compute", region_role=RegionRole.FUNCTION)
        put = d.region("MPI_Put", region_role=RegionRole.RMA, paradigm=Paradigm.MPI)
        win = d.rma_win("window", world)
        w0, w1 = writers
        t = OFFSET
        # rank 0: compute, send, barrier
        w0.enter(t + 100, compute)
        w0.leave(t + 1000, compute)
        w0.enter(t + 1000, send)
        w0.mpi_send(t + 1010, 1, world, 7, 64)
        w0.leave(t + 2000, send)
        w0.enter(t + 3000, barrier)
        w0.mpi_collective_begin(t + 3000)
        w0.mpi_collective_end(t + 4000, CollectiveOp.BARRIER, world, 0xFFFFFFFF, 0, 0)
        w0.leave(t + 4000, barrier)
        w0.enter(t + 5000, put)
        w0.rma_put(t + 5010, win, 1, 32, 1)
        w0.leave(t + 6000, put)
        # rank 1: compute, recv, barrier
        w1.enter(t + 200, compute)
        w1.leave(t + 500, compute)
        w1.enter(t + 500, recv)
        w1.mpi_recv(t + 2500, 0, world, 7, 64)
        w1.leave(t + 2500, recv)
        w1.enter(t + 3100, barrier)
        w1.mpi_collective_begin(t + 3100)
        w1.mpi_collective_end(t + 4000, CollectiveOp.BARRIER, world, 0xFFFFFFFF, 0, 0)
        w1.leave(t + 4000, barrier)

if __name__ == "__main__":
    main(sys.argv[1])
