/*
 * prof-steps internals.  The program reads its input twice, through
 * libcommon's reader (tsvr_open_twice()): a scan (steps-scan.c) that
 * finds, per device, the step markers, the kernels'
 * own step ids and, where neither exists, the compact kernel sequence
 * that steps-detect.c searches for repeating periods and steps-level.c
 * places in the hierarchy step > pass > layer; then the stage loop
 * (prof-steps.c) that writes the windows and assigns every record.
 */
#ifndef PROF_STEPS_H
#define PROF_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "ival.h"

#define STEPS_MAXPAT	16

/* Where a window came from: the cat of the window record. */
enum wsrc { SRC_MARKER, SRC_STEP_ID, SRC_DETECTED, SRC_CAPTURE, SRC_HOSTLOOP };

/* Window tags (bits). */
#define WT_CUT_START	0x01
#define WT_CUT_END	0x02
#define WT_DETECTED	0x04
#define WT_CONFIRMED	0x08
#define WT_LAUNCH	0x10	/* host markers moved to the device */
#define WT_PASS		0x20	/* a detected pass taken as the step */
#define WT_DEVMISMATCH	0x40	/* device markers disagreed: host ones used */
#define WT_FORCED	0x80	/* from --period or --step-kernel */
#define WT_HOSTLOOP	0x100	/* from the host's annotated loop */

/* Levels of a detected period, coarsest first. */
enum plevel { PL_STEP, PL_PASS, PL_LAYER, PL_N };

/* Evidence for a period's level (bits), written as tags. */
#define PE_KERNELS	0x01	/* the kernel sequence repeats */
#define PE_OPTIMIZER	0x02	/* optimizer launches once per period */
#define PE_BRACKETED	0x04	/* distinct kernels before, after, between */
#define PE_PASSES	0x08	/* steps are passes: nothing above them */
#define PE_FORCED	0x10	/* the user named the period */
#define PE_IDLE		0x20	/* the device idles longest between periods */
#define PE_HOSTLOOP	0x40	/* the host's annotated regions repeat */

/* A period the detection placed: count 0 when the level was not seen. */
struct speriod {
	int64_t		 count;		/* repetitions seen */
	int64_t		 kernels;	/* median kernels per repetition */
	int64_t		 dur;		/* median ns per repetition */
	int64_t		 conf_num, conf_den;
	int		 ev;
};

struct swin {
	int64_t		 s, e;		/* [s, e); the last one is [s, e] */
	int64_t		 num;		/* step number */
	char		*name;		/* marker name, or NULL: "step N" */
	int64_t		 nkern;		/* kernel count seen by the scan */
	int		 tags;
};

/* One marker as the scan saw it, with the kernels that followed it. */
struct smark {
	int64_t		 ts, end, num;
	int64_t		 nkern;		/* kernels starting after it */
	int64_t		 kend;		/* largest end of those kernels */
	/* kernels launched from inside a host marker (by corr) */
	int64_t		 lstart, lend, lkern;
	int64_t		 pre_end;	/* device busy until, at lstart */
	char		*name;
};

/* A launch seen inside a host marker: corr hash -> class and marker. */
struct slaunch {
	uint64_t	 key;		/* 0: empty slot */
	uint32_t	 cls, idx;
};

/* Kernels of one step id. */
struct sid {
	int64_t		 id, first, kend, nkern;
};

/* A kernel for detection: interned name, flags and times. */
#define KT_OPT		0x01	/* launched inside an optimizer step */
#define KT_FORCE	0x02	/* its name matches --step-kernel */
struct ktup {
	uint32_t	 name;
	uint32_t	 flags;
	int64_t		 ts, end;
};

/* A user annotation of the host, for the loop (steps-loop.c). */
struct sann {
	uint64_t	 name;		/* hash of the name */
	int64_t		 ts, end;
};

/* The host's loop: K iterations, the i-th from start[i]. */
struct sloop {
	int64_t		*start;
	size_t		 k, names;	/* names that keep the order */
	int64_t		 last_end;	/* of the last iteration */
	int64_t		 conf_num, conf_den;
};

struct sdev {
	char		*key;		/* the dev field, escaped */
	size_t		 keylen;
	/* what the scan found */
	struct smark	*mk[2 * STEPS_MAXPAT];	/* per pattern, host/device */
	size_t		 nmk[2 * STEPS_MAXPAT], mkcap[2 * STEPS_MAXPAT];
	uint32_t	 mkmask;	/* classes that have markers */
	struct sid	*ids;
	size_t		 nids, idcap;
	int64_t		*stt;		/* step ids from step_trace_time */
	size_t		 nstt, sttcap;
	struct slaunch	*ln;		/* open addressing, power-of-2 size */
	size_t		 nln, lncap;
	struct ktup	*kt;		/* kernels, while detection may need them */
	size_t		 nkt, ktcap;
	int		 no_tuples;	/* markers or step ids seen: keep none */
	uint64_t	*lnk;		/* corr keys of launches, until ... */
	size_t		 nlnk, lnkcap;
	size_t		 first_linked;	/* ... the first kernel they launched */
	uint64_t	*optln;		/* corr keys launched in an optimizer */
	size_t		 noptln, optlncap;
	int64_t		 opt_ts, opt_end;	/* the last optimizer step */
	/* kernels outside every window, counted by the stage loop */
	int64_t		 out_kern;
	struct ival_run	 out_busy, all_busy;	/* their union; every kernel's */
	int64_t		 first_ts, last_end, kern_end, nkern;
	int		 timed;		/* has timed records */
	/* the windows */
	struct swin	*win;
	size_t		 nwin;
	enum wsrc	 src;
	int		 detect_ran;
	int64_t		 conf_num, conf_den;
	struct speriod	 per[PL_N];	/* what detection placed */
	int		 win_tags;	/* tags every window gets */
	/* the host's annotations and loop (steps-loop.c) */
	struct sann	*ann;
	size_t		 nann, anncap;
	int		 ann_over;	/* too many to be a loop's */
	struct sloop	 loop;		/* k 0: none */
	size_t		 loop_next;	/* the next iteration to open */
	/* stage loop state, see prof-steps.c */
	void		*run;
};

struct steps_opts {
	const char	*pat[STEPS_MAXPAT];
	size_t		 npat;
	int		 custom_pat;	/* -m given: host and mark records too */
	int		 host_windows;	/* -H: host markers as they are */
	int		 detect;
	int		 quiet;		/* -q: no warning on stderr */
	int64_t		 period;	/* -p: kernels per step, or 0 */
	const char	*step_kernel;	/* -k: a kernel that opens each step */
	int		 tol;		/* percent */
	const char	*tmpdir;
};

extern struct steps_opts steps_opt;

struct tsvr;

/*
 * Read the records of IN (the first of its passes; a second when a
 * device's steps come from the host's loop, which is known only at the
 * end of the first) and build the windows.  Returns the devices.
 */
struct sdev	**steps_scan(struct tsvr *, size_t *);
/* The device of a dev field, or NULL when the scan never saw it. */
struct sdev	*steps_dev(const char *, size_t);

/*
 * Look for a repeating iteration in D's kernels and make D's windows from
 * it.  Returns 1 when found; sets the confidence either way.
 */
int		 steps_detect(struct sdev *);
/* Kernels' alignment and the windows from cuts (steps-detect.c). */
int64_t		 steps_align(const struct ktup *, size_t, size_t, size_t,
		    size_t);
void		 steps_cut_windows(struct sdev *, const size_t *, size_t,
		    int);
/*
 * Place the accepted period of count C (occurrences Q of one kernel name,
 * median lag LAG kernels, alignment NUM/DEN) in the hierarchy and make
 * D's windows (steps-level.c).  FINER: a nested shorter period, or NULL.
 */
struct pcand {
	size_t		 c, lag;
	const size_t	*q;
	int64_t		 num, den;
};
void		 steps_level(struct sdev *, const struct pcand *,
		    const struct pcand *);
/* Intern a kernel name for detection; how many names there are. */
uint32_t	 steps_intern(const char *, size_t);
uint32_t	 steps_nnames(void);
/*
 * The host's loop (steps-loop.c): keep a user annotation of D; find D's
 * loop once the scan is done (1: found, in *LP, whose start the caller
 * frees).  The annotations are freed either way.
 */
void		 steps_loop_see(struct sdev *, const char *, size_t, int64_t,
		    int64_t);
int		 steps_loop_find(struct sdev *, struct sloop *);
/* Make D's windows from the best source it has (steps-windows.c). */
void		 steps_windows(struct sdev *);

#endif
