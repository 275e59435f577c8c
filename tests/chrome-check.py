#!/usr/bin/env python3
"""Check a Chrome trace as a viewer would draw it, without proftools.

Usage: chrome-check.py TRACE.json[.gz]

1. Every flow end binds to a slice: an 's' end, and an 'f' or 't' end
   with "bp":"e", is enclosed (ts <= end <= ts + dur) by a complete ('X')
   slice on its own pid and tid, as Perfetto and chrome://tracing bind
   them; every arrow that finishes has started, and every arrow that
   starts finishes.
2. On every device track (a pid/tid that holds a 'kernel' slice, or a
   tid of a process that does) no two slices overlap unless one holds
   the other whole: a viewer draws partial overlaps as broken nesting.
3. Every track that holds slices is named.

Prints one line of counts; the failures, at most 10 of each, on stderr;
exit status 1 when there is one.
"""
import bisect
import gzip
import json
import sys
from decimal import Decimal


def load(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return json.loads(data, parse_float=Decimal, parse_int=Decimal)


def main():
    doc = load(sys.argv[1])
    ev = doc['traceEvents'] if isinstance(doc, dict) else doc
    slices = {}
    named = set()
    flows = []
    device_pids = set()
    for e in ev:
        ph = e.get('ph')
        key = (str(e.get('pid')), str(e.get('tid')))
        if ph == 'X':
            slices.setdefault(key, []).append(
                (Decimal(e['ts']), Decimal(e['ts']) + Decimal(e['dur'])))
            if e.get('cat') == 'kernel':
                device_pids.add(key[0])
        elif ph in ('s', 't', 'f'):
            flows.append(e)
        elif ph == 'M' and e.get('name') == 'thread_name':
            named.add(key)
    errors = []
    # per track: the starts, and the latest end among the slices up to each
    reach = {}
    for key, v in slices.items():
        # equal starts: the longer encloses the shorter, as viewers nest
        v.sort(key=lambda s: (s[0], -s[1]))
        m, ends = None, []
        for a, b in v:
            m = b if m is None or b > m else m
            ends.append(m)
        reach[key] = ([a for a, b in v], ends)
    # 1. flow ends
    starts, ends = {}, {}
    for e in flows:
        key = (str(e.get('pid')), str(e.get('tid')))
        ts = Decimal(e['ts'])
        if e['ph'] != 's' and e.get('bp') != 'e':
            errors.append('flow %s: %s end without bp e' % (e['id'], e['ph']))
            continue
        st, rch = reach.get(key, ([], []))
        i = bisect.bisect_right(st, ts)
        if i == 0 or rch[i - 1] < ts:
            errors.append('flow %s (%s): %s end at %s on %s/%s binds to no '
                          'slice' % (e['id'], e.get('cat'), e['ph'], ts,
                                     key[0], key[1]))
        fid = (e.get('cat'), str(e['id']))
        if e['ph'] == 's':
            starts[fid] = starts.get(fid, 0) + 1
        elif e['ph'] == 'f':
            ends[fid] = ends.get(fid, 0) + 1
    for fid in set(starts) | set(ends):
        if starts.get(fid, 0) != ends.get(fid, 0):
            errors.append('flow %s: %d starts, %d finishes' %
                          (fid, starts.get(fid, 0), ends.get(fid, 0)))
    # 2. device tracks: nested or apart
    dev_tracks = 0
    for key, v in slices.items():
        if key[0] not in device_pids:
            continue
        dev_tracks += 1
        stack = []
        for a, b in v:
            while stack and stack[-1] <= a:
                stack.pop()
            if stack and b > stack[-1]:
                errors.append('track %s/%s: slice [%s, %s] overlaps one '
                              'ending at %s' % (key[0], key[1], a, b,
                                                stack[-1]))
            stack.append(b)
    # 3. names
    for key in slices:
        if key not in named:
            errors.append('track %s/%s has no thread_name' % key)
    nslices = sum(len(v) for v in slices.values())
    print('slices %d, device tracks %d, flow ends %d, arrows %d, '
          'errors %d' % (nslices, dev_tracks, len(flows), len(starts),
                         len(errors)))
    shown = {}
    for m in errors:
        k = m.split(' ')[0]
        shown[k] = shown.get(k, 0) + 1
        if shown[k] <= 10:
            print(m, file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
