/*
 * What attrib-sum.c gathers per scope and attrib-cause.c judges: private
 * to those two files.
 */
#ifndef PROF_ATTRIB_SUM_H
#define PROF_ATTRIB_SUM_H

#include "attrib.h"

/* The significant bubbles of a scope, inside it or at the boundary. */
struct sig {
	int64_t		 nsig, sig_ns;
	int64_t		 cov[FAM_N];
	int64_t		 idle[CLS_N + 1];
	__int128	 thr_sum;
	int64_t		 lab_ns[LAB_N], lab_n[LAB_N];
	struct nmap	 names;		/* covered ns per host name */
};

/* What a scope (a rank, or one of its step groups) gathered. */
struct acc {
	int64_t		 nbub, nboundary;
	struct sig	 in, bnd;	/* bnd: at the capture boundary */
	int64_t		 pre_ns, int_ns, tail_ns, step_ns, glob_ns;
	int64_t		 nsteps, steps_bub, service;
	struct small	*small;		/* rank and group scopes */
};

struct group {
	char		*name;
	struct acc	 a;
};

struct sdev {
	int64_t		 id;
	int		 hosts, stacks, shapes, device;
	struct acc	 a_step, a_glob;
	struct group	*groups;
	size_t		 ngroups;
	struct step	*first, *last;	/* its steps in input order */
};

struct step {
	int64_t		 dev;
	char		*id;
	size_t		 len;
	size_t		 group;		/* index in its rank's groups */
	int		 bubbled;
	struct acc	 a;		/* for --step-causes */
	struct step	*next;		/* hash chain */
	struct step	*later;		/* the rank's next step in input order */
};

/* The ranks with bubbles or windows, in order of first sight. */
extern struct sdev	*sdevs;
extern size_t		 nsdevs;
extern int		 sum_any_bubble;
extern int		 sum_overflow;	/* a sum was held at INT64_MAX */

#endif
