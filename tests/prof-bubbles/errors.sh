# Bad input: overlapping windows of one device, a window without dur_ns,
# records out of order.  Each is exit 1 with FILE:LINE.
t='	'
h="kind${t}ts_ns${t}dur_ns${t}dev${t}track${t}name"
printf '%s\n' "$h" "window${t}0${t}100${t}0${t}${t}a" \
    "window${t}50${t}100${t}1${t}${t}b" "window${t}60${t}100${t}0${t}${t}c" |
    prof-bubbles >/dev/null
echo "exit $?"
printf '%s\n' "$h" "window${t}0${t}${t}0${t}${t}a" | prof-bubbles >/dev/null
echo "exit $?"
printf '%s\n' "$h" "kernel${t}10${t}5${t}0${t}1${t}k" \
    "kernel${t}5${t}5${t}0${t}1${t}k" | prof-bubbles >/dev/null
echo "exit $?"
printf '%s\n' "$h" "window${t}10${t}9223372036854775807${t}0${t}${t}a" |
    prof-bubbles >/dev/null
echo "exit $?"
