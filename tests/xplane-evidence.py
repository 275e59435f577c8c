#!/usr/bin/env python3
"""The events of the corpus's XPlane files, counted without proftools.

xplane-evidence.py CORPUS
    reads every tpu_xla/*/*.xplane.pb with the minimal protobuf wire-format
    walker below (no protobuf library: field numbers from xplane.proto) and
    writes one row per timeline and one per (TPU device, op category):

      FILE  line  KEY  EVENTS  DUR_PS  START_PS
      FILE  ops   dev=N TYPE  COUNT  FLOPS  BYTES

    KEY is the timeline as the stream names it: "dev=N track=LINE" for a
    device plane's line ("track=16" for a GPU's "Stream #16(Kernel)"),
    "host track=ID" for a /host:CPU line.  DUR_PS is the sum of the
    events' duration_ps, START_PS the sum of their absolute start times
    in ps (Task Environment's profile_start_time + line timestamp_ns, in
    ps, + offset_ps).  The ops rows are the XLA Ops events of each TPU
    device by hlo_category, with their flops and bytes_accessed (an
    event's own stat over its op's metadata stat).

xplane-evidence.py --stream FILE TSV
    writes the same rows from a prof-ingest stream of FILE: records by
    dev and track, exact ps from ts_ns, dur_ns and the "ps=S:E" ext key.
"""
import os
import struct
import sys


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7f) << s
        s += 7
        if c < 0x80:
            return r, i


def fields(b, lo, hi):
    i = lo
    while i < hi:
        t, i = varint(b, i)
        f, w = t >> 3, t & 7
        if w == 0:
            v, i = varint(b, i)
        elif w == 1:
            v = b[i:i + 8]
            i += 8
        elif w == 2:
            n, i = varint(b, i)
            v = (i, i + n)
            i += n
        elif w == 5:
            v = b[i:i + 4]
            i += 4
        else:
            raise ValueError("wire type %d at %d" % (w, i))
        yield f, w, v


def s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def text(b, r):
    return b[r[0]:r[1]].decode("utf-8", "replace")


def stat(b, r, names):
    key = val = None
    for f, w, v in fields(b, *r):
        if f == 1:
            key = names.get(s64(v), "")
        elif f == 2:
            val = struct.unpack("<d", v)[0]
        elif f == 3:
            val = v
        elif f == 4:
            val = s64(v)
        elif f == 5:
            val = text(b, v)
        elif f == 7:
            val = names.get(s64(v), "")
    return key, val


def planes(b):
    for f, w, v in fields(b, 0, len(b)):
        if f == 1:
            yield v


def plane_info(b, pr):
    name, names, meta, lines, pstats = "", {}, {}, [], []
    for f, w, v in fields(b, *pr):
        if f == 2:
            name = text(b, v)
        elif f == 3:
            lines.append(v)
        elif f == 5:
            key, nm = 0, ""
            for ef, ew, ev in fields(b, *v):
                if ef == 1:
                    key = s64(ev)
                elif ef == 2:
                    for mf, mw, mv in fields(b, *ev):
                        if mf == 2:
                            nm = text(b, mv)
            names[key] = nm
        elif f == 4:
            key, m = 0, None
            for ef, ew, ev in fields(b, *v):
                if ef == 1:
                    key = s64(ev)
                elif ef == 2:
                    m = ev
            meta[key] = m
        elif f == 6:
            pstats.append(v)
    return name, names, meta, lines, pstats


def meta_stats(b, m, names):
    out = {}
    if m is None:
        return out
    for f, w, v in fields(b, *m):
        if f == 5:
            k, val = stat(b, v, names)
            out[k] = val
    return out


def read_file(path):
    b = open(path, "rb").read()
    start = 0
    for pr in planes(b):
        name, names, meta, lines, pstats = plane_info(b, pr)
        if name == "Task Environment":
            for s in pstats:
                k, v = stat(b, s, names)
                if k == "profile_start_time":
                    start = v
    rows, ops = {}, {}
    for pr in planes(b):
        name, names, meta, lines, pstats = plane_info(b, pr)
        dev = None
        for pre in ("/device:TPU:", "/device:GPU:"):
            if name.startswith(pre) and name[len(pre):].isdigit():
                dev = int(name[len(pre):])
        host = name == "/host:CPU"
        if dev is None and not host:
            continue
        mcache = {}
        for lr in lines:
            lid = lts = 0
            lname = ""
            evs = []
            for f, w, v in fields(b, *lr):
                if f == 1:
                    lid = s64(v)
                elif f == 2:
                    lname = text(b, v)
                elif f == 3:
                    lts = s64(v)
                elif f == 4:
                    evs.append(v)
            if host:
                key = "host track=%d" % lid
            elif lname.startswith("Stream #"):
                num = lname[8:].split("(")[0]
                key = "dev=%d track=%s" % (dev, num)
            else:
                key = "dev=%d track=%s" % (dev, lname)
            n = dsum = ssum = 0
            for er in evs:
                mid = off = dur = 0
                est = {}
                for f, w, v in fields(b, *er):
                    if f == 1:
                        mid = s64(v)
                    elif f == 2:
                        off = s64(v)
                    elif f == 3:
                        dur = s64(v)
                    elif f == 4:
                        k, val = stat(b, v, names)
                        est[k] = val
                n += 1
                dsum += dur
                ssum += (start + lts) * 1000 + off
                if name.startswith("/device:TPU:") and lname == "XLA Ops":
                    if mid not in mcache:
                        mcache[mid] = meta_stats(b, meta.get(mid), names)
                    st = dict(mcache[mid])
                    st.update(est)
                    ok = (dev, st.get("hlo_category", ""))
                    c = ops.setdefault(ok, [0, 0, 0])
                    c[0] += 1
                    c[1] += int(st.get("flops", 0) or 0)
                    c[2] += int(st.get("bytes_accessed", 0) or 0)
            if n > 0:
                r = rows.setdefault(key, [0, 0, 0])
                r[0] += n
                r[1] += dsum
                r[2] += ssum
    return rows, ops


def emit(fname, rows, ops):
    out = []
    for k, (n, d, s) in rows.items():
        out.append("%s\tline\t%s\t%d\t%d\t%d" % (fname, k, n, d, s))
    for (dev, cat), (n, fl, by) in ops.items():
        out.append("%s\tops\tdev=%d %s\t%d\t%d\t%d" % (fname, dev, cat, n,
                                                       fl, by))
    return out


def from_stream(path):
    rows, ops = {}, {}
    origin, col = 0, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#origin_ns "):
            origin = int(line.split()[1])
            continue
        if line.startswith("#"):
            continue
        f = line.split("\t")
        if col is None:
            col = {c: i for i, c in enumerate(f)}
            continue
        if f[col["ts_ns"]] == "":
            continue
        ts, dur = int(f[col["ts_ns"]]), int(f[col["dur_ns"]])
        s = e = 0
        for kv in f[col["ext"]].split(";"):
            if kv.startswith("ps="):
                s, e = (int(x) for x in kv[3:].split(":"))
        kind = f[col["kind"]]
        if kind in ("kernel", "mark") or f[col["cat"]] == "xla_steps":
            key = "dev=%s track=%s" % (f[col["dev"]], f[col["track"]])
        else:
            key = "host track=%s" % f[col["track"]]
        r = rows.setdefault(key, [0, 0, 0])
        r[0] += 1
        r[1] += dur * 1000 + e - s
        r[2] += (origin + ts) * 1000 + s
        if f[col["track"]] == "XLA Ops" and f[col["cat"]].startswith("xla_"):
            c = ops.setdefault((int(f[col["dev"]]), f[col["type"]]),
                               [0, 0, 0])
            c[0] += 1
            c[1] += int(f[col["flops"]] or 0)
            c[2] += int(f[col["bytes"]] or 0)
    return rows, ops


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--stream":
        out = emit(sys.argv[2], *from_stream(sys.argv[3]))
    else:
        out = []
        top = os.path.join(sys.argv[1], "tpu_xla")
        for sub in sorted(os.listdir(top)):
            for fn in sorted(os.listdir(os.path.join(top, sub))):
                if fn.endswith(".xplane.pb"):
                    out += emit(sub + "/" + fn,
                                *read_file(os.path.join(top, sub, fn)))
    for r in sorted(out):
        print(r)


main()
