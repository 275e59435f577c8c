#!/usr/bin/env python3
"""Small XPlane protobufs for prof-ingest's cases, written field by field.

xplane-gen.py KIND OUT

KIND:
  tpu       a TPU device plane (XLA Modules, XLA Ops with a while loop, a
            convert, a transpose, a fusion, an all-reduce and a copy from
            host memory (copy-start, copy-done), Async XLA Ops,
            Steps), a host plane with a step marker, Task Environment last;
            sub-ns times as TPU files have them
  gpu       a GPU stream and the host thread that launched its kernels
            (correlation ids, stats on the events as JAX on ROCm writes)
  hostdev   two TPUs and the host's runtime calls that name one by
            device_ordinal (DoEnqueueProgram, CompleteCallbacks), one whose
            ordinal is no plane's (a transfer), and one that names none
  wiretype  tpu, with an event's offset_ps written as a length
  pastend   tpu, with an event whose length runs past its line
  riegeli   the first 64 bytes of a Riegeli/records file, then junk
  big       a valid file of 2 GiB + 4 KiB: an XSpace 'errors' string of
            2 GiB (a hole in a sparse file), then a TPU plane
  (a truncated file is tpu cut short, by the case with head -c)

The encoding is protobuf's (protobuf.dev "Encoding"); the field numbers are
those of xplane.proto (openxla/xla xla/tsl/profiler/protobuf/xplane.proto).
"""
import struct
import sys


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(f, w):
    return varint(f << 3 | w)


def vi(f, v):
    return key(f, 0) + varint(v)


def ld(f, b):
    if isinstance(b, str):
        b = b.encode()
    return key(f, 2) + varint(len(b)) + b


def dbl(f, d):
    return key(f, 1) + struct.pack("<d", d)


class Plane:
    def __init__(self, name, pid=0):
        self.name, self.pid = name, pid
        self.lines, self.emeta, self.smeta, self.stats = [], [], {}, []

    def sid(self, name):
        if name not in self.smeta:
            self.smeta[name] = len(self.smeta) + 1
        return self.smeta[name]

    def stat(self, name, v):
        s = vi(1, self.sid(name))
        if isinstance(v, float):
            return s + dbl(2, v)
        if isinstance(v, int):
            return s + (vi(4, v) if v < 0 else vi(3, v))
        if isinstance(v, tuple):            # ("ref", text)
            return s + vi(7, self.sid(v[1]))
        return s + ld(5, v)

    def op(self, mid, name, disp="", **stats):
        m = vi(1, mid) + ld(2, name)
        if disp:
            m += ld(4, disp)
        for k, v in stats.items():
            m += ld(5, self.stat(k, v))
        self.emeta.append(ld(4, vi(1, mid) + ld(2, m)))

    def line(self, lid, name, ts, events):
        b = vi(1, lid) + ld(2, name) + (vi(3, ts) if ts else b"")
        for ev in events:
            b += ld(4, ev)
        self.lines.append(ld(3, b))

    def event(self, mid, off, dur, **stats):
        b = vi(1, mid) + vi(2, off) + (vi(3, dur) if dur else b"")
        if MODE == "wiretype" and mid == 7 and self.name.endswith("TPU:0"):
            b = vi(1, mid) + ld(2, "xx") + vi(3, dur)
        for k, v in stats.items():
            b += ld(4, self.stat(k, v))
        return b

    def encode(self):
        b = (vi(1, self.pid) if self.pid else b"") + ld(2, self.name)
        b += b"".join(self.lines) + b"".join(self.emeta)
        for name, i in self.smeta.items():
            b += ld(5, vi(1, i) + ld(2, vi(1, i) + ld(2, name)))
        b += b"".join(self.stats)
        return ld(1, b)


HLO = {
    "while": "%while.1 = (s32[], f32[8,128]{1,0}) while((s32[], "
             "f32[8,128]{1,0}) %tuple.3), condition=%cond, body=%body",
    "convert": "%convert.5 = bf16[8,128]{1,0:T(8,128)(2,1)} "
               "convert(f32[8,128]{1,0:T(8,128)} %param.1)",
    "transpose": "%transpose.2 = f32[128,8]{0,1:T(8,128)} "
                 "transpose(f32[8,128]{1,0:T(8,128)} %convert.5), "
                 "dimensions={1,0}",
    "fusion": "%fusion.7 = f32[8,128]{1,0} fusion(f32[8,64]{1,0} %a, "
              "f32[64,128]{1,0} %b), kind=kOutput, calls=%fused_computation",
    "allreduce": "%all-reduce.1 = f32[8,128]{1,0} all-reduce(f32[8,128]"
                 "{1,0} %fusion.7), replica_groups={{0,1}}, to_apply=%add",
}

STACK = "train.py:40:4\nmodel.py:12:8\nlayers.py:7:2"


def tpu_planes():
    d = Plane("/device:TPU:0")
    d.op(1, "jit_train_step(42)")
    d.op(2, HLO["while"], "while.1", hlo_category="while", program_id=42)
    d.op(3, HLO["convert"], "convert.5", hlo_category="data formatting",
         program_id=42, flops=1024, bytes_accessed=6144,
         source="layers.py:7", source_stack=STACK,
         tf_op="jit(train_step)/jit(main)/convert_element_type:")
    d.op(4, HLO["transpose"], "transpose.2", hlo_category="data formatting",
         program_id=42, bytes_accessed=8192, tf_op="jit(train_step)/"
         "jit(main)/transpose:")
    d.op(5, HLO["fusion"], "fusion.7", hlo_category="convolution fusion",
         program_id=42, flops=131072, model_flops=131072,
         bytes_accessed=69632, source="model.py:12",
         source_stack=STACK.replace("7:2", "9:2"),
         tf_op="jit(train_step)/jit(main)/dot_general:")
    d.op(6, HLO["allreduce"], "all-reduce.1", hlo_category="all-reduce",
         program_id=42, bytes_accessed=8192)
    d.op(7, "Step 1")
    d.op(8, "Step 2")
    d.op(9, "%copy-start.1 = (f32[8]{0}, f32[8]{0:S(5)}, u32[]) "
         "copy-start(f32[8]{0} %p)", "async-copy", hlo_category="copy-start")
    d.op(10, "%copy-start.3 = (f32[8,128]{1,0}, f32[8,128]{1,0:S(5)}, u32[]) "
         "copy-start(f32[8,128]{1,0:S(5)} %offloaded)", "copy-start.3",
         hlo_category="copy-start", bytes_accessed=8192)
    d.op(11, "%copy-done.3 = f32[8,128]{1,0} copy-done((f32[8,128]{1,0}, "
         "f32[8,128]{1,0:S(5)}, u32[]) %copy-start.3)", "copy-done.3",
         hlo_category="copy-done", bytes_accessed=8192)
    d.stats.append(ld(6, d.stat("device_type_string", "TPU v6 Lite")))
    d.stats.append(ld(6, d.stat("peak_teraflops_per_second", 918.0)))
    # Two steps of one module; in each a while loop holding the ops.
    ops, mods, steps, asy = [], [], [], []
    for s, base in enumerate((1000000, 3000000)):
        steps.append(d.event(7 + s, base * 1000 - 500, 1500000500))
        mods.append(d.event(1, base * 1000, 1400000250))
        ops.append(d.event(2, base * 1000 + 250, 1300000000))
        t = base * 1000 + 1000
        ops.append(d.event(3, t + 333, 100000250,
                           device_offset_ps=t, device_duration_ps=100000))
        ops.append(d.event(4, t + 200000000, 50000500))
        ops.append(d.event(5, t + 300000000, 700000000,
                           flops=262144))    # an execution's own count wins
        ops.append(d.event(6, t + 1100000000, 150000999))
        ops.append(d.event(10, t + 1250001000, 5000))
        ops.append(d.event(11, t + 1250010000, 40000000))
        asy.append(d.event(9, t + 10, 90000000))
    d.line(1, "XLA Modules", 0, mods)
    # "unordered": an XLA Ops line whose events are not in time order
    d.line(2, "XLA Ops", 0, ops[::-1] if MODE == "unordered" else ops)
    d.line(3, "Async XLA Ops", 0, asy)
    d.line(4, "Steps", 0, steps)
    d.line(5, "_counters_", 0, [d.event(1, 10, 0)])
    h = Plane("/host:CPU")
    h.op(1, "train")
    h.op(2, "$train.py:40 train_step")
    h.op(3, "PjitFunction(train_step)")
    h.line(-7201, "python3/7201", 212990, [
        h.event(1, 700000000, 4000000000, step_num=1),
        h.event(2, 800000000, 1000000000),
        h.event(3, 810000000, 900000000, hlo_module=("ref", "jit_train_step"),
                hlo_op=("ref", "while.1"))])
    h.line(7300, "main/7300", 212990, [h.event(3, 5, 0)])
    md = Plane("/host:metadata")
    md.op(1, "jit_train_step", **{"Hlo Proto": "(bytes)"})
    env = Plane("Task Environment")
    env.stats.append(ld(6, env.stat("profile_start_time",
                                    1741722099081044120)))
    env.stats.append(ld(6, env.stat("profile_stop_time",
                                    1741722199081044120)))
    return [d, md, h, env]


def gpu_planes():
    g = Plane("/device:GPU:0")
    g.stats.append(ld(6, g.stat("device_vendor", "AMD")))
    g.stats.append(ld(6, g.stat("memory_size", 309220868096)))
    g.op(1, "Cijk_Ailk_Bljk_BBS_BH_MT128x128x64.kd")
    g.op(2, "MemcpyDtoD")
    g.line(16, "Stream #16(Kernel)", 711141, [
        g.event(1, 600000000, 20000000, correlation_id=22,
                hlo_op=("ref", "dot.3"), hlo_module=("ref", "jit_matmul"),
                name=("ref", "jit(matmul)/jit(main)/dot_general"),
                tf_op=("ref", "XlaModule:")),
        g.event(2, 630000000, 1000000, correlation_id=23,
                memcpy_details=("ref", "kind:DtoD size:512"),
                hlo_op=("ref", "copy.1"))])
    idle = Plane("/device:GPU:1")
    idle.stats.append(ld(6, idle.stat("device_vendor", "AMD")))
    h = Plane("/host:CPU")
    h.op(1, "hipModuleLaunchKernel")
    h.op(2, "hipMemcpyDtoDAsync")
    h.line(1083, "Host Threads/1083", 711141, [
        h.event(1, 590000000, 3000000, correlation_id=22, device_id=0),
        h.event(2, 625000000, 2000000, correlation_id=23)])
    env = Plane("Task Environment")
    env.stats.append(ld(6, env.stat("profile_start_time",
                                    1761000000000000000)))
    return [g, idle, h, env]


def hostdev_planes():
    planes = []
    for n in (0, 1):
        d = Plane("/device:TPU:%d" % n)
        d.op(1, "fusion.%d" % n, hlo_category="convolution fusion")
        d.line(2, "XLA Ops", 0, [d.event(1, 2000000 + n * 1000, 500000)])
        planes.append(d)
    h = Plane("/host:CPU")
    h.op(1, "DoEnqueueProgram")
    h.op(2, "CompleteCallbacks")
    h.op(3, "tpu::System::TransferToDevice")
    h.op(4, "PjitFunction(step)")
    h.line(9, "tfrt-non-blocking-queue/9", 212990, [
        h.event(1, 1000000, 100000, device_ordinal=0, core_type=0),
        h.event(1, 1100000, 100000, device_ordinal=1, core_type=0)])
    h.line(10, "switchto-default-SDomainT/10", 212990, [
        h.event(2, 3000000, 50000, device_ordinal=1, core_type=0)])
    h.line(11, "pjrt-tpu-tasks/11", 212990, [
        h.event(3, 500000, 200000, device_ordinal=6),
        h.event(4, 600000, 2000000)])
    env = Plane("Task Environment")
    env.stats.append(ld(6, env.stat("profile_start_time",
                                    1741722099081044120)))
    return planes + [h, env]


def space(planes):
    return b"".join(p.encode() for p in planes) + ld(4, "tw003")


def main():
    kind, out = sys.argv[1], sys.argv[2]
    if kind == "riegeli":
        sig = bytes.fromhex(
            "83af70d10d884a3f0000000000000000"
            "4000000000000000 91bac23c9287e1a9".replace(" ", "") +
            "0000000000000000e19f13c0e9b1c372"
            "73000000000000000000000000000000")
        open(out, "wb").write(sig + b"\x00" * 64)
        return
    if kind == "gpu":
        open(out, "wb").write(space(gpu_planes()))
        return
    if kind == "hostdev":
        open(out, "wb").write(space(hostdev_planes()))
        return
    b = space(tpu_planes())
    if kind == "pastend":
        at = b.index(ld(4, vi(1, 8) + vi(2, 3000000 * 1000 - 500) +
                        vi(3, 1500000500)))
        b = b[:at + 1] + bytes([b[at + 1] + 100]) + b[at + 2:]
    elif kind == "big":
        hole = (2 << 30) + 4096
        with open(out, "wb") as f:
            f.write(key(2, 2) + varint(hole))
            f.seek(hole, 1)
            f.write(b)
        return
    open(out, "wb").write(b)


MODE = sys.argv[1] if len(sys.argv) > 1 else ""
main()
