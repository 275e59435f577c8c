# The host side of a process that drives several TPUs (tests/xplane-gen.py
# hostdev): a runtime call that names its device by device_ordinal, when
# that is one of the file's device planes, is on that device (the
# DoEnqueueProgram and CompleteCallbacks of device 1 on dev 1); every
# other host event is on the source's device, here the first one: the
# transfer's ordinal 6 is no plane's, and a Python call names none.
command -v python3 >/dev/null 2>&1 || exit 77
python3 "$top_srcdir/tests/xplane-gen.py" hostdev t.xplane.pb
prof-ingest -q t.xplane.pb | cut -f1-6
