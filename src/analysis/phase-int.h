/*
 * phase-int: what phase.c, phase-kernels.c and phase-label.c share: the
 * segmentation's context (struct phase_ctx), its walk over the events of
 * a window (phase_lane(), phase_next_track(), phase_at()), the per-phase
 * kernel sums (phase-kernels.c) and the labels (phase-label.c).
 */
#ifndef GPULENS_PHASE_INT_H
#define GPULENS_PHASE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "model/lane.h"
#include "analysis/activity.h"
#include "analysis/phase.h"

/* What phase_kscan() sums over the kernels (and graphs) overlapping
 * [s, e). */
struct phase_kacc {
	int64_t			 s, e;
	double			*ksum;		/* per name: time clipped to
						   [s, e), or NULL: none */
	struct phase_kname	*kn;		/* per name: count, durations */
	uint64_t		 kernels;
	int64_t			 kernel_ns;	/* clipped */
};

struct phase_ctx {
	const struct model	*m;
	const struct activity	*a;
	int64_t			 t0, t1, span, bin;
	size_t			 nbins;
	uint8_t			*key_of;	/* per string id: key + 1 */
	double			*raw;		/* nbins x PH_NKEYS */
	double			*sum;		/* raw before the idle bins are
						   cleared and the bins
						   normalised, or NULL */
	uint8_t			*idle;		/* per bin */
	uint32_t		*idx;		/* lane_overlap buffer */
	size_t			 icap;
	struct phase_kacc	 win;		/* ph_vocab()'s sums */
	int			 run;		/* phase_next_track() found a
						   run */
	size_t			 run0;		/* its first index */
};

/* The events of lane l overlapping [a, b): phase_at(c, 0 .. n - 1), n
 * returned. On a lane whose events do not overlap they are a run of
 * indices, from c->run0 on, and c->idx is left alone. */
size_t	 phase_lane(struct phase_ctx *c, const struct lane *l, int64_t a,
	    int64_t b);
/*
 * The next track of this type from *t on that has events overlapping
 * [a, b): those events are then phase_at(c, 0 .. *n - 1) (phase_lane()).
 * NULL past the last.
 */
const struct track *phase_next_track(struct phase_ctx *c, int type,
	    int64_t a, int64_t b, size_t *t, size_t *n);

#define PH_IDLE_UTIL		0.01	/* busy below this share: idle */
#define PH_AHEAD		16	/* NVTX ranges read ahead */
#if defined(__GNUC__)
#define PH_PREFETCH(p)		__builtin_prefetch(p)
#else
#define PH_PREFETCH(p)		((void)(p))
#endif

/* Is range i of lane l a top-level NVTX range (no parent)? Inline: the
 * sweeps over the ranges ask it of every long one. */
static inline int
phase_toplevel(const struct model *m, const struct lane *l, size_t i)
{
	return l->kind[i] == EV_NVTX && l->aux[i] != NONE32 &&
	    l->aux[i] < m->nnvtx && m->nvtx[l->aux[i]].parent == NONE32;
}

/* phase-label.c: a track of the NCCL domain; a communication range (by
 * its flag, its name or its track); phase p's label (sets p->dominant and
 * its kernels, phase_kernels()); " (2)", " (3)", ... on repeated labels. */
int	 phase_comm_domain(const struct model *, const struct track *);
int	 phase_comm_range(const struct model *, const struct track *,
	    const struct lane *, size_t i);
char	*phase_label(struct phase_ctx *, struct phase *);
void	 phase_label_dedup(struct phases *);

/* The k-th event that phase_lane() (or phase_next_track()) found. */
static inline size_t
phase_at(const struct phase_ctx *c, size_t k)
{
	return c->run ? c->run0 + k : c->idx[k];
}

/* Sums the kernels (and graphs) overlapping [s, e) into *a: their count,
 * time clipped to it, and per name. phase_kacc_free() frees it. */
void	 phase_kscan(struct phase_ctx *c, int64_t s, int64_t e,
	    struct phase_kacc *a);
void	 phase_kacc_free(struct phase_kacc *a);
/*
 * The kernels (and graphs) of phase p: their count, time clipped to it and
 * per name (p->kn), from the window's sums (c->win, taken) when p is the
 * whole window. Returns the name with the most time clipped to p (0 if
 * none), its last short name known in *shortn (or 0).
 */
uint32_t phase_kernels(struct phase_ctx *c, struct phase *p,
	    uint32_t *shortn);

#endif
