/*
 * kineto-ent: the entities events land on. pid/tid keys, interned names,
 * the NVTX-like domains, and the thread, device and stream of an event with
 * their track caches.
 */

#include "config.h"
#include <stdio.h>
#include <string.h>
#include "model/builder.h"
#include "util/hmap.h"
#include "sources/jsonscan.h"
#include "sources/kineto.h"
#include "sources/kineto-int.h"
#include "sources/srcdev.h"
#include "util/xmalloc.h"

static const char *const kineto_dom_names[KD_COUNT] = {
	"pytorch", "python_function"
};

/*
 * The id of a pid or tid value: an integer (or a string holding one) is
 * itself; another string is a hash tagged with K_STR_KEY. *num is the
 * integer (0 for hashed strings). Returns -1 for other types.
 */
int
kineto_idkey(const struct jsonscan_val *v, uint64_t *key, int64_t *num,
    int *isnum)
{
	int64_t	i;

	if (jsonscan_i64(v, &i) == 0) {
		*key = (uint64_t)i;
		*num = i;
		*isnum = 1;
		return 0;
	}
	if (v->type != JSONSCAN_STRING)
		return -1;
	*key = K_STR_KEY | (hmap_hash(v->p, v->len) & (K_STR_KEY - 1));
	*num = 0;
	*isnum = 0;
	return 0;
}

/*
 * Interning through a direct-mapped cache: a cheap hash of the length and
 * three 8-byte windows picks a slot, and a hit is confirmed with memcmp,
 * so a kernel name seen before costs no full hash of its few hundred
 * bytes.
 */
uint32_t
kineto_intern(struct kineto *k, const char *p, size_t len)
{
	struct kname	*e;
	uint64_t	 a = 0, b = 0, c = 0, h;

	if (len == 0)
		return 0;
	memcpy(&a, p, len < 8 ? len : 8);
	if (len > 8) {
		memcpy(&b, p + len - 8, 8);
		memcpy(&c, p + len / 2 - 4, 8);
	}
	h = hmap_key2(hmap_key2(a ^ len, b), c);
	e = &k->names[h & (K_NAMECACHE - 1)];
	if (e->h == h && e->len == len && memcmp(strpool_get(k->m->strs,
	    e->sid), p, len) == 0)
		return e->sid;
	e->h = h;
	e->len = len;
	e->sid = builder_intern_n(k->b, p, len);
	return e->sid;
}

/* Entities. */

uint32_t
kineto_domain(struct kineto *k, int d)
{
	if (k->dom[d] == NONE32)
		k->dom[d] = builder_domain(k->b, NONE32, (uint64_t)d + 1,
		    kineto_dom_names[d]);
	return k->dom[d];
}

/* The domain of another category (by its name's sid). */
uint32_t
kineto_other_domain(struct kineto *k, uint32_t catname)
{
	uint32_t	v;

	if (hmap_get(&k->dom_of, catname, &v))
		return v;
	v = builder_domain(k->b, NONE32, 1000 + (uint64_t)k->dom_of.n,
	    catname != 0 ? strpool_get(k->m->strs, catname) : "other");
	hmap_put(&k->dom_of, catname, v);
	return v;
}

void
kineto_grow_thr(struct kineto *k, uint32_t t)
{
	size_t	old = k->thrcap, i;
	int	d;

	if (t < k->thrcap)
		return;
	XGROW(k->thr, k->thrcap, (size_t)t + 1);
	for (i = old; i < k->thrcap; i++) {
		for (d = 0; d < KD_COUNT; d++)
			k->thr[i].nvtx[d] = NONE32;
		k->thr[i].api = k->thr[i].other = k->thr[i].counter = NONE32;
	}
}

/* The thread of a CPU event. */
int
kineto_thread(struct kineto *k, const struct kev *e, uint32_t *thr)
{
	uint64_t	pidk = 0, tidk = 0, key;
	int64_t		pid = 0, tid = 0;
	int		pnum = 1, tnum = 1;
	uint32_t	p, t;
	char		name[128];

	if (e->pid == NULL || kineto_idkey(e->pid, &pidk, &pid, &pnum) != 0)
		return kineto_fail(k, e, "'pid' is %s",
		    e->pid == NULL ? "missing" : "not an integer or string");
	if (e->tid != NULL && kineto_idkey(e->tid, &tidk, &tid, &tnum) != 0)
		return kineto_fail(k, e, "'tid' is not an integer or string");
	key = hmap_key2(pidk, tidk);
	if (hmap_get(&k->thr_of, key, thr))
		return 0;
	if ((p = builder_find_process(k->b, pidk)) == NONE32) {
		if (!pnum)
			snprintf(name, sizeof name, "%.*s",
			    (int)(e->pid->len < 100 ? e->pid->len : 100),
			    e->pid->p);
		if (pnum && pid < 0)	/* Kineto's overhead rows: pid -1 */
			snprintf(name, sizeof name, "profiler");
		p = builder_process(k->b, pidk, (uint32_t)pid, pnum && pid >=
		    0 ? NULL : name);
	}
	if (!tnum)
		snprintf(name, sizeof name, "%.*s", (int)(e->tid->len < 100 ?
		    e->tid->len : 100), e->tid->p);
	t = builder_thread(k->b, key, tnum ? (uint32_t)(tid < 0 ? 0 -
	    (uint64_t)tid : (uint64_t)tid) : (uint32_t)tidk, p, tnum ? NULL :
	    name);
	hmap_put(&k->thr_of, key, t);
	kineto_grow_thr(k, t);
	*thr = t;
	return 0;
}

uint32_t
kineto_device(struct kineto *k, int64_t id)
{
	return srcdev_get(k->b, (uint32_t)id, NULL, NULL);
}

/* The stream (and its track cache) of a GPU event. */
uint32_t
kineto_stream(struct kineto *k, int64_t device, int64_t stream)
{
	uint64_t	key;
	uint32_t	s, d;
	size_t		old = k->strcap, i;

	if (stream == -1)
		stream = (int64_t)K_STREAM_ALL;
	key = hmap_key2((uint64_t)device, (uint64_t)stream);
	if (hmap_get(&k->str_of, key, &s))
		return s;
	d = kineto_device(k, device);
	s = builder_stream(k->b, d, (uint64_t)stream, NONE32);
	if ((uint64_t)stream == K_STREAM_ALL)
		k->m->streams[s].name = builder_intern(k->b, "device-wide");
	hmap_put(&k->str_of, key, s);
	if (s >= k->strcap) {
		XGROW(k->str, k->strcap, (size_t)s + 1);
		for (i = old; i < k->strcap; i++)
			k->str[i].gpu = k->str[i].sync = k->str[i].ann =
			    NONE32;
	}
	return s;
}
