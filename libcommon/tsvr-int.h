/*
 * The insides of the prof-tsv reader, shared by tsvr.c (the input, the
 * preamble and header, each record's line found and checked) and
 * tsvr-field.c (the record's fields, found and decoded when asked for,
 * and the checks of the contract on its times and order).  Not for
 * tools: they use tsv.h.
 */
#ifndef PROF_TSVR_INT_H
#define PROF_TSVR_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tsv.h"

/* The bytes of a line looked at in one go (scan_block() in tsvr.c). */
#define TSVR_BLOCK	64
/* The most TABs whose offsets scan_record() takes (struct tsvr, pos). */
#define TSVR_KEEP_MAX	16

/*
 * Where a field of the current record lies, valid while AT is the
 * record's number, and whether its decoded, NUL-terminated copy is in
 * the work buffer (DEC).  A stage reads a handful of the 25 to 145
 * columns of a record: each is found when it is asked for, and the
 * others are never split, copied or decoded (only counted).
 */
struct tfield {
	size_t		 off;		/* in the line and in work */
	size_t		 rawlen;	/* as read, still escaped */
	size_t		 len;		/* decoded */
	uint64_t	 at, dec;	/* record numbers */
};

struct tsvr {
	int		 fd;
	const char	*path;
	unsigned long	 lineno;
	char		*line;		/* raw line in iobuf, newline removed */
	size_t		 linelen;
	char		*work;		/* decoded fields at their raw offsets */
	size_t		 workcap;
	char		**pre;		/* preamble lines */
	size_t		 npre;
	char		**names;
	size_t		 ncols;
	/*
	 * The current record: its number (every record read gets a new
	 * one, also after tsvr_rewind()), its TABs as a bit per byte, a
	 * word per 64-byte block, and the TABs before each block (tabc),
	 * from which tsvr-field.c finds field K.
	 */
	uint64_t	 recno;
	uint64_t	*tabm;
	size_t		*tabc;
	size_t		 nblk, blkcap;
	/*
	 * The offsets of the first TABs, taken while the line is scanned:
	 * pos[K] of TAB K (from 1) for K up to npos.  scan_record() takes
	 * those of the blocks that hold the first KEEP; KEEP grows to the
	 * columns the program asks for (up to TSVR_KEEP_MAX), so that the
	 * few it reads on every record cost a load each.
	 */
	size_t		*pos;
	size_t		 npos, keep;
	struct tfield	*f;		/* per column */
	int		 escaped;	/* decoded in full when read */
	uint64_t	 all_at;	/* fld and flen are this record's */
	char		**fld;		/* for tsvr_fields() */
	size_t		*flen;
	int		 cut;		/* the last line read had no newline */
	int		 bad;		/* a record was damaged: no more */
	int		 timed;		/* a timed record was read */
	int64_t		 min_ts, max_end;	/* of every timed record */
	/* tsvr_record(): the order and the stream's end */
	int		 c_wait;	/* column wait_ns, or -1 */
	int		 rec_timed;	/* a timed record was taken */
	int64_t		 rec_last;	/* its ts_ns */
	int64_t		 rec_end;	/* the largest end taken */
	/*
	 * Lines are read in big blocks into iobuf (RBUF_SIZE bytes, more for
	 * a longer line, and RBUF_SLACK) and used where they lie, between
	 * rstart and rend: getline costs a copy and a search per record.
	 */
	char		*iobuf;
	size_t		 rcap, rstart, rend;
	int		 reof;
	/*
	 * An input read twice (tsvr_open_twice()): where the records start
	 * (bytes from where reading began), and the file they are read
	 * again from.  A regular file is read again where it lies (from
	 * START_OFF, its offset when it was opened); anything else is
	 * copied to a spool (spool.h) as it is read, and once rewound
	 * (FROM_SPOOL) read back from it.
	 */
	uint64_t	 base;		/* bytes read before iobuf[0] */
	uint64_t	 data_off;	/* of the first record */
	off_t		 start_off;
	struct spool	*spool;		/* or NULL */
	int		 from_spool;
	int		 quiet;		/* damage is told in the second pass */
};

/* tsvr_damage(), as the value the reading functions return. */
#define tsvr_damaged(r, ...)	(tsvr_damage((r), __VA_ARGS__), -2)

/*
 * Find every field of the current record, copy them to the work buffer
 * NUL-terminated and decode their escapes: -2 after the diagnostic of
 * an invalid escape, else 0.
 */
int	tsvr_split_all(struct tsvr *);

/*
 * Set bits of X.  Not __builtin_popcountll: without -mpopcnt, which the
 * x86-64 baseline lacks, that is a call into libgcc per block.
 */
static inline size_t
tsvr_popcount(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (size_t)((x * 0x0101010101010101ULL) >> 56);
}

#endif
