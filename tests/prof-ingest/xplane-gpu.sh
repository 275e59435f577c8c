# An XPlane of JAX on a GPU (tests/xplane-gen.py gpu): stream lines as
# kernels (track = the stream number, cat kernel or gpu_memcpy, type from
# hlo_op), stats on the events (hlo_op, hlo_module, the JAX name path as
# scope; the XlaModule: placeholder is no scope), correlation ids on the
# kernels and on the host launches, an idle GPU as a device record only.
command -v python3 >/dev/null 2>&1 || exit 77
python3 "$top_srcdir/tests/xplane-gen.py" gpu g.xplane.pb
prof-ingest g.xplane.pb
