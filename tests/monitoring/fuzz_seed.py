#!/usr/bin/env python3
"""Usage: fuzz_seed.py OUTDIR PROCSIZE_PROBE. Seeds for fuzz_wire: a valid job payload of 0, 1 and 2 processes (odd
first byte: the payload entry) and a frame (even first byte). Layouts as in
src/mon/mon_record.h (augp_job 512 bytes)."""
import hashlib, hmac, os, struct, subprocess, sys

out = sys.argv[1]
proc_size = int(subprocess.check_output([sys.argv[2]]))  # prints sizeof(augp_proc)
os.makedirs(out, exist_ok=True)

def job(n):
    j = bytearray(512)
    j[0:16] = bytes(range(16))
    j[16:19] = b"j42"
    j[112:113] = b"0"
    j[144:148] = b"test"
    j[208:212] = b"user"
    struct.pack_into("<QQQQQq", j, 464, 0, 1, 2, 1, n, 0)
    for i in range(n):
        p = bytearray(proc_size)
        p[0:5] = b"node1"
        struct.pack_into("<QQqqQQ", p, 448, 10 + i, 1, i, n, 1, 2)
        j += p
    return bytes(j)

key = b"fuzz key, fuzz key, fuzz key!!!"
for n in (0, 1, 2):
    open(os.path.join(out, "payload-%d" % n), "wb").write(b"\x01" + job(n))
    payload = job(n)
    hdr = b"AUGR" + struct.pack("<HHII", 1, 1, len(payload), 0)
    mac = hmac.new(key, hdr + payload, hashlib.sha256).digest()
    open(os.path.join(out, "frame-%d" % n), "wb").write(b"\x00" + hdr + payload + mac)
