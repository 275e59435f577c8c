#!/usr/bin/env python3
"""What the undamaged prefix of a damaged input holds, computed without
proftools, for the bad-input cases of prof-ingest (tests/prof-ingest/):

  prefix.py closearray <cut.json >whole.json
      the events of a cut Chrome trace (a bare array or a traceEvents
      object) that are whole, as a complete bare array
  prefix.py unbz2 <cut.bz2 >data      every byte python's bz2 decodes
  prefix.py unlz4 <cut.lz4 >data      every byte of an lz4 frame, the
                                      sequences of a cut block included
  prefix.py members ARCHIVE DIR       a cut tar or zip archive's members
                                      written under DIR, the cut member
                                      as far as its bytes go (deflate
                                      decoded by zlib)
  prefix.py commops <cut.json         the number of communication ops
                                      of a cut communication.json that
                                      are whole and have a start time
  prefix.py csvrows <cut.csv          the number of data rows that end
                                      with their line end

The decoders are python's own (zlib, bz2) or written here from the lz4
frame format, apart from the C ones prof-ingest uses.
"""
import bz2
import json
import os
import struct
import sys
import tarfile
import zlib


def closearray():
    d = sys.stdin.buffer.read().decode('utf-8', 'replace')
    if '[' not in d:
        sys.stdout.write('[]\n')
        return
    i = d.index('[') + 1
    dec = json.JSONDecoder()
    out = []
    while True:
        while i < len(d) and d[i] in ' \t\r\n,':
            i += 1
        try:
            _, j = dec.raw_decode(d, i)
        except ValueError:
            break
        out.append(d[i:j])
        i = j
    sys.stdout.write('[' + ',\n'.join(out) + ']\n')


def unbz2():
    data = sys.stdin.buffer.read()
    out = sys.stdout.buffer
    while data:
        d = bz2.BZ2Decompressor()
        try:
            out.write(d.decompress(data))
        except (EOFError, OSError):
            break
        data = d.unused_data if d.eof else b''


def lz4_block(src, hist, cut):
    """Decode one lz4 block after HIST; a CUT block stops where it ends."""
    out = bytearray(hist)
    i, n = 0, len(src)
    while i < n:
        t = src[i]
        i += 1
        lit = t >> 4
        if lit == 15:
            while True:
                if i >= n:
                    return out[len(hist):]
                b = src[i]
                i += 1
                lit += b
                if b != 255:
                    break
        out += src[i:i + lit]
        i += lit
        if i >= n:
            return out[len(hist):]
        if n - i < 2:
            return out[len(hist):]
        off = src[i] | src[i + 1] << 8
        i += 2
        ml = t & 15
        if ml == 15:
            while True:
                if i >= n:
                    return out[len(hist):]
                b = src[i]
                i += 1
                ml += b
                if b != 255:
                    break
        ml += 4
        for _ in range(ml):
            out.append(out[-off])
    return out[len(hist):]


def unlz4():
    data = sys.stdin.buffer.read()
    out = sys.stdout.buffer
    p = 0
    hist = b''
    while p + 4 <= len(data):
        magic, = struct.unpack_from('<I', data, p)
        if magic & 0xfffffff0 == 0x184D2A50:
            size, = struct.unpack_from('<I', data, p + 4)
            p += 8 + size
            continue
        if magic != 0x184D2204:
            return
        flg = data[p + 4]
        p += 7 + (8 if flg & 8 else 0)
        while p + 4 <= len(data):
            v, = struct.unpack_from('<I', data, p)
            p += 4
            if v == 0:
                p += 4 if flg & 4 else 0
                break
            size = v & 0x7fffffff
            blk = data[p:p + size]
            cut = len(blk) < size
            if v >> 31:
                got = bytes(blk)
            else:
                got = bytes(lz4_block(blk, hist, cut))
            out.write(got)
            hist = (hist + got)[-65536:]
            p += size + (4 if flg & 0x10 else 0)
            if cut:
                return


def members(archive, dest):
    raw = open(archive, 'rb').read()
    if raw[:2] == b'PK':
        members_zip(raw, dest)
    else:
        members_tar(raw, dest)


def write_member(dest, name, data):
    path = os.path.join(dest, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)


def members_tar(raw, dest):
    p = 0
    while p + 512 <= len(raw):
        h = raw[p:p + 512]
        if h == b'\0' * 512:
            return
        info = tarfile.TarInfo.frombuf(h, 'utf-8', 'surrogateescape')
        p += 512
        if info.isreg():
            write_member(dest, info.name, raw[p:p + info.size])
        p += (info.size + 511) // 512 * 512


def members_zip(raw, dest):
    p = 0
    while raw[p:p + 4] == b'PK\x03\x04':
        (_, flags, method, _, _, _, csize, _, nlen,
         xlen) = struct.unpack_from('<HHHHHIIIHH', raw, p + 4)
        name = raw[p + 30:p + 30 + nlen].decode()
        p += 30 + nlen + xlen
        body = raw[p:p + csize]
        if not name.endswith('/'):
            if method == 8:
                data = zlib.decompressobj(-15).decompress(body)
            else:
                data = body
            write_member(dest, name, data)
        p += csize + (16 if flags & 8 else 0)


def commops():
    """Ops (depth 4 objects) closed before the cut, with a start time."""
    d = sys.stdin.buffer.read().decode('utf-8', 'replace')
    depth, i, n, count = 0, 0, len(d), 0
    key, opkey, opstart = None, None, 0
    while i < n:
        c = d[i]
        if c == '"':
            j = i + 1
            while j < n and d[j] != '"':
                j += 2 if d[j] == '\\' else 1
            key = d[i + 1:j]
            i = j + 1
            continue
        if c in '{[':
            depth += 1
            if depth == 4:
                opkey, opstart = key, i
        elif c in '}]':
            if depth == 4 and opkey != 'Total Op Info' and \
                    '"Start Timestamp(us)"' in d[opstart:i]:
                count += 1
            depth -= 1
        i += 1
    print(count)


def csvrows():
    d = sys.stdin.buffer.read()
    print(max(d.count(b'\n') - 1, 0))


if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'members':
        members(sys.argv[2], sys.argv[3])
    else:
        globals()[cmd]()
