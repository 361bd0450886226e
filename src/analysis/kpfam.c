/*
 * kpfam: family paths of NVTX ranges from their parents'. See kpfam.h.
 *
 * A range's parent is the one its NVTX record names when that lies before
 * it, as nvtxpath.c takes it (nvtx_family_path() of a path too long or
 * deep walks the model itself).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/kpfam.h"
#include "model/nvtx.h"
#include "model/nvtxfam.h"
#include "model/nvtxpath.h"
#include "util/hmap.h"
#include "util/strpool.h"
#include "util/xmalloc.h"

/* Longest family path made here (the buffer kpath's were read into). */
#define KPF_MAX		4096
/* A length past any that is made whole (no overflow). */
#define KPF_LONG	(1U << 30)

struct kpf_state {
	uint32_t	 parent;	/* state, NONE32 at the root */
	uint32_t	 mid, leaf;	/* the name folded (local ids) */
	uint32_t	 nlen;		/* the raw name's length */
	uint32_t	 len, depth;	/* the raw path's */
	uint32_t	 pfx;		/* the prefix (local id) */
	uint32_t	 fam;		/* the family path (id of strs + 1);
					   0: cut, ask nvtx_family_path() */
};

/* Ranges of a lane whose records are fetched ahead of the one asked (the
 * next ones asked are mostly those just after it). */
#define KPF_AHEAD	16
#if defined(__GNUC__)
#define KPF_PREFETCH(p)	__builtin_prefetch(p)
#else
#define KPF_PREFETCH(p)	((void)(p))
#endif

/* Children (parent state, name) looked up last, one per slot. */
#define KPF_MEMO	4096

struct kpf_memo {
	uint32_t	 parent, name, state;	/* state + 1, 0: none */
};

struct kpfam {
	const struct model	*m;
	struct strpool		*strs, *local;
	struct kpf_state	*st;
	size_t			 nst, stcap;
	struct hmap		 of_key;	/* key hash -> state */
	struct hmap		 of_child;	/* (parent, name) -> state */
	uint32_t		*of_rec;	/* NVTX record -> state + 1 */
	struct kpf_memo		 memo[KPF_MEMO];
	uint32_t		 hint;
	uint32_t		*chain;		/* (record, name) of the walk */
	size_t			 chaincap;
	char			*in, *out;	/* of the folds */
	size_t			 incap, outcap;
	char			 buf[KPF_MAX + 2];
};

struct kpfam *
kpfam_new(const struct model *m, struct strpool *strs)
{
	struct kpfam	*kf = xcalloc(1, sizeof *kf);

	kf->m = m;
	kf->strs = strs;
	kf->local = strpool_new();
	hmap_init(&kf->of_key);
	hmap_init(&kf->of_child);
	kf->of_rec = xcalloc_rw((size_t)m->nnvtx + 1, sizeof *kf->of_rec);
	kf->hint = NONE32;
	return kf;
}

void
kpfam_free(struct kpfam *kf)
{
	if (kf == NULL)
		return;
	strpool_free(kf->local);
	free(kf->st);
	hmap_free(&kf->of_key);
	hmap_free(&kf->of_child);
	free(kf->of_rec);
	free(kf->chain);
	free(kf->in);
	free(kf->out);
	free(kf);
}

/*
 * Name s (n bytes) folded as a component of a path: the first unless
 * after a '/', the last unless before one (a local id).
 */
static uint32_t
kpf_fold(struct kpfam *kf, const char *s, size_t n, int first, int last)
{
	size_t	k = 0, o;

	XGROW(kf->in, kf->incap, n + 3);
	XGROW(kf->out, kf->outcap, n + 3);
	if (!first)
		kf->in[k++] = '/';
	memcpy(kf->in + k, s, n);
	k += n;
	if (!last)
		kf->in[k++] = '/';
	kf->in[k] = '\0';
	o = nvtx_family(kf->in, kf->out, n + 3);
	/* (The '/'s are kept as they are: no fold takes one.) */
	if (!last)
		o--;
	return strpool_intern(kf->local, kf->out + !first, o - !first);
}

/* The state under parent of name sid: of the same folds as one met, or
 * new. */
static uint32_t
kpf_make(struct kpfam *kf, uint32_t parent, uint32_t sid)
{
	struct kpf_state	 s, *p;
	const char		*name;
	uint32_t		*slot;
	uint64_t		 h;
	size_t			 n, len, k;
	int			 isnew;

	memset(&s, 0, sizeof s);
	name = model_str(kf->m, sid);
	n = strlen(name);
	s.parent = parent;
	s.nlen = n < KPF_LONG ? (uint32_t)n : KPF_LONG;
	s.mid = kpf_fold(kf, name, n, parent == NONE32, 0);
	s.leaf = kpf_fold(kf, name, n, parent == NONE32, 1);
	h = hmap_key2(hmap_key2(parent, s.mid), (uint64_t)s.leaf << 32 |
	    s.nlen);
	for (;; h++) {
		slot = hmap_upsert(&kf->of_key, h, (uint32_t)kf->nst, &isnew);
		if (isnew)
			break;
		p = &kf->st[*slot];
		if (p->parent == parent && p->mid == s.mid &&
		    p->leaf == s.leaf && p->nlen == s.nlen)
			return *slot;
	}
	p = parent != NONE32 ? &kf->st[parent] : NULL;
	len = p != NULL ? (size_t)p->len + 1 + s.nlen : s.nlen;
	s.len = len < KPF_LONG ? (uint32_t)len : KPF_LONG;
	s.depth = p != NULL ? p->depth + 1 : 0;
	if (s.len < KPF_MAX && s.depth < NVTX_PATH_LEVELS) {
		/* Family path and prefix: the parent's prefix, then the
		 * name as the last and as a middle component. */
		k = p != NULL ? strpool_len(kf->local, p->pfx) : 0;
		if (k > 0)
			memcpy(kf->buf, strpool_get(kf->local, p->pfx), k);
		n = strpool_len(kf->local, s.leaf);
		memcpy(kf->buf + k, strpool_get(kf->local, s.leaf), n);
		s.fam = strpool_intern(kf->strs, kf->buf, k + n) + 1;
		n = strpool_len(kf->local, s.mid);
		memcpy(kf->buf + k, strpool_get(kf->local, s.mid), n);
		kf->buf[k + n] = '/';
		s.pfx = strpool_intern(kf->local, kf->buf, k + n + 1);
	}
	XGROW(kf->st, kf->stcap, kf->nst + 1);
	kf->st[kf->nst] = s;
	return (uint32_t)kf->nst++;
}

/* The child of state parent named sid (a model string), made if new. */
static uint32_t
kpf_child(struct kpfam *kf, uint32_t parent, uint32_t sid)
{
	struct kpf_memo	*memo;
	uint32_t	*slot, st;
	int		 isnew;

	memo = &kf->memo[(parent * 0x9e3779b1U ^ sid) % KPF_MEMO];
	if (memo->state != 0 && memo->parent == parent && memo->name == sid)
		return memo->state - 1;
	slot = hmap_upsert(&kf->of_child, (uint64_t)parent << 32 | sid, 0,
	    &isnew);
	if (isnew) {
		/* (kpf_make() leaves of_child as it is.) */
		st = kpf_make(kf, parent, sid);
		*slot = st + 1;
	}
	memo->parent = parent;
	memo->name = sid;
	memo->state = *slot;
	return memo->state - 1;
}

/* Record and name of range gid; NONE32 as the record if it has none. */
static uint32_t
kpf_rec(struct kpfam *kf, uint32_t gid, uint32_t *name)
{
	const struct model	*m = kf->m;
	struct evref		 r = model_ev_near(m, gid, &kf->hint);
	const struct lane	*l = &m->tracks[r.track].lane;
	uint32_t		 rec = l->aux[r.idx], ahead;

	if (r.idx + KPF_AHEAD < l->n &&
	    (ahead = l->aux[r.idx + KPF_AHEAD]) < m->nnvtx) {
		KPF_PREFETCH(&m->nvtx[ahead].parent);
		KPF_PREFETCH(&kf->of_rec[ahead]);
	}

	*name = l->name[r.idx];
	return rec < m->nnvtx ? rec : NONE32;
}

/*
 * The state of range gid: walks up to the first range whose state is
 * known (or a root), keeping each range's record and name, then makes
 * the states back down.
 */
static uint32_t
kpf_state_of(struct kpfam *kf, uint32_t gid)
{
	const struct model	*m = kf->m;
	uint32_t		 g = gid, rec, name, p, s = NONE32;
	size_t			 n = 0;

	for (;;) {
		rec = kpf_rec(kf, g, &name);
		if (rec != NONE32 && kf->of_rec[rec] != 0) {
			s = kf->of_rec[rec] - 1;
			break;
		}
		XGROW(kf->chain, kf->chaincap, 2 * n + 2);
		kf->chain[2 * n] = rec;
		kf->chain[2 * n + 1] = name;
		n++;
		p = rec != NONE32 ? m->nvtx[rec].parent : NONE32;
		if (p >= g)
			break;
		g = p;
	}
	while (n-- > 0) {
		s = kpf_child(kf, s, kf->chain[2 * n + 1]);
		if ((rec = kf->chain[2 * n]) != NONE32)
			kf->of_rec[rec] = s + 1;
	}
	return s;
}

uint32_t
kpfam_id(struct kpfam *kf, uint32_t gid)
{
	uint32_t	s;

	if (gid < kf->m->nevents &&
	    (s = kpf_state_of(kf, gid)) != NONE32 && kf->st[s].fam != 0)
		return kf->st[s].fam - 1;
	nvtx_family_path(kf->m, gid, kf->buf, KPF_MAX);
	return strpool_intern0(kf->strs, kf->buf);
}
