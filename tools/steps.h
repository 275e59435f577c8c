/*
 * prof-steps internals.  The program reads its input twice: a fast scan
 * (steps-scan.c) that finds, per device, the step markers, the kernels'
 * own step ids and, where neither exists, the compact kernel sequence
 * that steps-detect.c searches for a repeating iteration; then the stage
 * loop (prof-steps.c) that writes the windows and assigns every record.
 */
#ifndef PROF_STEPS_H
#define PROF_STEPS_H

#include <stddef.h>
#include <stdint.h>

#define STEPS_MAXPAT	16

/* Where a window came from: the cat of the window record. */
enum wsrc { SRC_MARKER, SRC_STEP_ID, SRC_DETECTED, SRC_CAPTURE };

/* Window tags (bits). */
#define WT_CUT_START	0x01
#define WT_CUT_END	0x02
#define WT_DETECTED	0x04
#define WT_CONFIRMED	0x08
#define WT_LAUNCH	0x10	/* host markers moved to the device */

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

/* A kernel for detection: interned name and times. */
struct ktup {
	uint32_t	 name;
	int64_t		 ts, end;
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
	int64_t		 first_ts, last_end, kern_end, nkern;
	int		 timed;		/* has timed records */
	/* the windows */
	struct swin	*win;
	size_t		 nwin;
	enum wsrc	 src;
	int		 detect_ran;
	int64_t		 conf_num, conf_den;
	/* stage loop state, see prof-steps.c */
	void		*run;
};

struct steps_opts {
	const char	*pat[STEPS_MAXPAT];
	size_t		 npat;
	int		 custom_pat;	/* -m given: host and mark records too */
	int		 host_windows;	/* -H: host markers as they are */
	int		 detect;
	int		 tol;		/* percent */
	const char	*tmpdir;
};

extern struct steps_opts steps_opt;

/*
 * Scan PATH ("-": standard input, spooled to a temporary file that then
 * becomes standard input) and build the windows.  Returns the devices.
 */
struct sdev	**steps_scan(const char *, size_t *);
/* The device for an escaped dev field, or NULL when the scan never saw it. */
struct sdev	*steps_dev(const char *, size_t);

/*
 * Look for a repeating iteration in D's kernels and make D's windows from
 * it.  Returns 1 when found; sets the confidence either way.
 */
int		 steps_detect(struct sdev *);
/* FNV-1a of a byte string. */
/* Intern a kernel name for detection. */
uint32_t	 steps_intern(const char *, size_t);
/* Make D's windows from the best source it has (steps-windows.c). */
void		 steps_windows(struct sdev *);

#endif
