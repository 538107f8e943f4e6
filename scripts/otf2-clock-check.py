#!/usr/bin/env python3
"""Clock condition violations of an OTF2 trace, counted from otf2-print's text alone.

Messages are matched per (sender location, receiver location, communicator, tag) in order;
collective instances are the k-th MPI_COLLECTIVE_BEGIN/END pair of each location on a
communicator. Prints: messages collectives worst_offset_ticks ticks_per_second.
"""
import re, subprocess, sys
from collections import defaultdict, deque

anchor = sys.argv[1]
defs = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True).stdout
tps = int(re.search(r"Ticks per Seconds: (\d+)", defs).group(1))
ALL = {"BARRIER", "ALLREDUCE", "ALLGATHER", "ALLGATHERV", "ALLTOALL", "ALLTOALLV", "ALLTOALLW",
       "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK"}
ONE_TO_N = {"BCAST", "SCATTER", "SCATTERV"}
N_TO_ONE = {"REDUCE", "GATHER", "GATHERV"}
sends = defaultdict(deque); recvs = defaultdict(deque)
begin = {}; instances = defaultdict(list); count = defaultdict(int)
out = subprocess.Popen(["otf2-print", anchor], stdout=subprocess.PIPE, text=True).stdout
for line in out:
    f = line.split(None, 3)
    if len(f) < 3: continue
    kind, loc, t = f[0], f[1], f[2]
    if not loc.isdigit(): continue
    loc, t = int(loc), int(t)
    rest = f[3] if len(f) > 3 else ""
    if kind in ("MPI_SEND", "MPI_ISEND"):
        m = re.search(r'Receiver: \d+ \(.*?<(\d+)>\), Communicator: .*?<(\d+)>, Tag: (-?\d+)', rest)
        sends[(loc, int(m.group(1)), m.group(2), m.group(3))].append(t)
    elif kind in ("MPI_RECV", "MPI_IRECV"):
        m = re.search(r'Sender: \d+ \(.*?<(\d+)>\), Communicator: .*?<(\d+)>, Tag: (-?\d+)', rest)
        recvs[(int(m.group(1)), loc, m.group(2), m.group(3))].append(t)
    elif kind == "MPI_COLLECTIVE_BEGIN":
        begin[loc] = t
    elif kind == "MPI_COLLECTIVE_END":
        m = re.search(r'Operation: (\w+), Communicator: .*?<(\d+)>, Root: (NONE|\d+(?: \(.*?<(\d+)>\))?)', rest)
        op, comm = m.group(1), m.group(2)
        root = int(m.group(4)) if m.group(4) else None
        k = count[(loc, comm)]; count[(loc, comm)] += 1
        instances[(comm, k)].append((loc, begin.pop(loc), t, op, root))
messages = 0; worst = 0
for key, q in sends.items():
    r = recvs.get(key, deque())
    for s, rv in zip(q, r):
        if rv < s: messages += 1; worst = max(worst, s - rv)
collectives = 0
for members in instances.values():
    op, root = members[0][3], members[0][4]
    if op in ALL:
        off = max(b for _, b, _, _, _ in members) - min(e for _, _, e, _, _ in members)
    elif op in ONE_TO_N or op in N_TO_ONE:
        rb = [b for l, b, e, _, _ in members if l == root]; re_ = [e for l, b, e, _, _ in members if l == root]
        ob = [b for l, b, e, _, _ in members if l != root]; oe = [e for l, b, e, _, _ in members if l != root]
        if not rb or not ob: continue
        off = rb[0] - min(oe) if op in ONE_TO_N else max(ob) - re_[0]
    else:
        continue
    if off > 0: collectives += 1; worst = max(worst, off)
print(messages, collectives, worst, tps)
