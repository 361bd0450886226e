/*
 * trevent: the parts the Trace Event Format readers share. See trevent.h.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/builder.h"
#include "sources/jsonscan.h"
#include "sources/trevent.h"
#include "util/progress.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

void
trevent_free(struct trevent *t)
{
	free(t->keys);
	free(t->open);
}

int
trevent_read(struct jsonscan *js, struct progress *prog, uint64_t step,
    int (*event)(void *, struct jsonscan_obj *),
    int (*meta)(void *, struct jsonscan_item *), void *arg, char **err,
    char **cause)
{
	struct jsonscan_item	*it;
	int			 rc;

	while ((rc = jsonscan_next(js, &it, cause)) == 1) {
		if (it->kind != JSONSCAN_EVENT) {
			if (meta(arg, it) != 0)
				return 1;
			continue;
		}
		if (event(arg, &it->ev) != 0)
			return 1;
		if ((it->ev.index & (step - 1)) == 0) {
			progress_rows(prog, jsonscan_raw_offset(js));
			if (progress_stopped(prog)) {
				*err = xstrdup("loading given up");
				return 1;
			}
		}
	}
	return rc < 0 ? -1 : 0;
}

void *
trevent_begin(struct trevent *t, uint64_t key, size_t size)
{
	void	*o;

	t->size = size;
	XGROW(t->keys, t->keycap, t->nopen + 1);
	xgrow((void **)&t->open, &t->opencap, t->nopen + 1, t->size);
	t->keys[t->nopen] = key;
	o = t->open + t->nopen++ * t->size;
	memset(o, 0, t->size);
	return o;
}

int
trevent_end(struct trevent *t, uint64_t key, void *out)
{
	size_t	i;

	for (i = t->nopen; i > 0; i--)
		if (t->keys[i - 1] == key)
			break;
	if (i == 0) {
		t->nunmatched_e++;
		return 0;
	}
	memcpy(out, t->open + (i - 1) * t->size, t->size);
	memmove(&t->keys[i - 1], &t->keys[i], (t->nopen - i) * sizeof *t->keys);
	memmove(t->open + (i - 1) * t->size, t->open + i * t->size,
	    (t->nopen - i) * t->size);
	t->nopen--;
	return 1;
}

const void *
trevent_open_at(const struct trevent *t, size_t i)
{
	return t->open + i * t->size;
}

void
trevent_event(struct lane_event *ev, uint32_t name, int64_t start,
    int64_t end, uint8_t kind, uint8_t flags, int64_t rowid)
{
	memset(ev, 0, sizeof *ev);
	ev->start = start;
	ev->end = end;
	ev->name = name;
	ev->kind = kind;
	ev->flags = flags;
	ev->rowid = rowid;
}

void
trevent_other(struct trevent *t, char ph)
{
	size_t	n;

	if (t->nphase_other++ == 0 || strchr(t->phase_other, ph) == NULL) {
		n = strlen(t->phase_other);
		if (n + 1 < sizeof t->phase_other)
			t->phase_other[n] = ph;
	}
}

void
trevent_warn(const struct trevent *t, struct builder *b)
{
	if (t->nphase_other != 0)
		builder_warn(b, "%llu events of unsupported phases (%s) not "
		    "loaded", (unsigned long long)t->nphase_other,
		    t->phase_other);
	if (t->nunmatched_e != 0)
		builder_warn(b, "%llu E events without a matching B",
		    (unsigned long long)t->nunmatched_e);
}

void
trevent_vfail(char **err, const char *path, uint64_t index, uint64_t offset,
    const char *fmt, va_list ap)
{
	char	*msg;

	msg = xvasprintf(fmt, ap);
	free(*err);
	*err = xasprintf("%s: event %llu at byte %llu: %s", path,
	    (unsigned long long)index, (unsigned long long)offset, msg);
	free(msg);
}

char *
trevent_head(const char *path, size_t max, size_t *len, char **cause)
{
	struct zfile	*zf;
	char		*buf, *why = NULL;
	ssize_t		 r;
	size_t		 got = 0, i;

	if ((zf = zfile_open(path, cause)) == NULL)
		return NULL;
	buf = xmalloc(max + 1);
	while (got < max) {
		r = zfile_read(zf, buf + got, max - got, &why);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	free(why);	/* a short or damaged file: judge the head we have */
	zfile_close(zf);
	for (i = 0; i < got; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[got] = '\0';
	*len = got;
	return buf;
}
