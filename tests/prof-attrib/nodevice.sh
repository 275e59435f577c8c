# A rank without any kernel or busy record (only communication data, as
# ranks 1 and 3 of the corpus's Qwen pipeline-parallel capture) has no
# device timeline: its window-long "bubble" is no idle time.  Rank 1
# gets one insufficient_evidence record tagged no_device_data and no
# hostcov; rank 0, with a kernel, is judged as usual.
h='kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\tstep\tstep_group\tbubble_id\n'
{
	printf "#prof-tsv 1\n$h"
	printf 'window\t0\t10000000\t0\t\tstep 1\tmarker\t1\tg0\t\n'
	printf 'window\t0\t10000000\t1\t\tstep 1\tmarker\t1\tg0\t\n'
	printf 'bubble\t0\t10000000\t1\t\tprelaunch\t\t1\tg0\tb1\n'
	printf 'bubble\t0\t5000000\t0\t\tprelaunch\t\t1\tg0\tb0\n'
	printf 'host\t0\t4000000\t0\t1\taten::item\tcpu_op\t\t\t\n'
	printf 'host\t0\t9000000\t1\t1\taten::item\tcpu_op\t\t\t\n'
	printf 'comm\t1000000\t8000000\t1\t\thcom_send\tcommunication\t1\t\t\n'
	printf 'kernel\t5000000\t5000000\t0\t7\tgemm\t\t1\t\t\n'
} >in.tsv
prof-attrib in.tsv | awk -v kind=cause,hostcov -f "$top_srcdir/tests/cols.awk" \
    -v want=kind,dev,name,scope,tags,evidence
