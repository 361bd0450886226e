/*
 * ncurep-session: the session of a report. System information, devices
 * and their attributes, and the profiled process.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/ncurep.h"
#include "sources/ncurep-int.h"
#include "sources/protowire.h"
#include "report/report.h"
#include "util/xmalloc.h"

static void
ncurep_sysinfo(struct ncurep *c, const char *prefix, const uint8_t *p,
    size_t len)
{
	static const char *const keys[] = {
		NULL, "os", "os_build", "processor", "architecture", "name"
	};
	struct pw_reader	 rd;
	struct pw_field		 f;
	char			 key[64], *v;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num >= 1 && f.num <= 5 && f.wire == PW_LEN) {
			snprintf(key, sizeof key, "%s.%s", prefix,
			    keys[f.num]);
			v = xstrndup((const char *)f.data, f.len);
			report_prop(c->r, key, v);
			free(v);
		}
	}
}

static void
ncurep_device(struct ncurep *c, const uint8_t *p, size_t len)
{
	struct pw_reader	 rd, ad;
	struct pw_field		 f, g;
	struct report_value	 v;
	uint32_t		 id = 0, name = 0, dev, aname;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 1 && f.wire == PW_VARINT)
			id = (uint32_t)f.u;
		else if (f.num == 2 && f.wire == PW_LEN)
			name = ncurep_sid(c, &f);
	}
	dev = report_device(c->r, id, name);
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num != 3 || f.wire != PW_LEN)
			continue;
		aname = 0;
		memset(&v, 0, sizeof v);
		pw_init(&ad, f.data, f.len);
		while (pw_next(&ad, &g) > 0) {
			if (g.num == 1 && g.wire == PW_LEN)
				aname = ncurep_sid(c, &g);
			else if (g.num == 2 && g.wire == PW_LEN)
				ncurep_value(c, g.data, g.len, &v);
		}
		if (aname != 0)
			report_device_attr(c->r, dev, aname, &v);
	}
	if (rd.err != NULL)
		ncurep_subfail(c, "device attributes", &rd);
}

static void
ncurep_pair(struct ncurep *c, const char *prefix, const uint8_t *p,
    size_t len)
{
	struct pw_reader	 rd;
	struct pw_field		 f;
	char			*k = NULL, *v = NULL, *key;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 1 && f.wire == PW_LEN) {
			free(k);
			k = xstrndup((const char *)f.data, f.len);
		} else if (f.num == 2 && f.wire == PW_LEN) {
			free(v);
			v = xstrndup((const char *)f.data, f.len);
		}
	}
	if (k != NULL && *k != '\0') {
		key = xasprintf("%s.%s", prefix, k);
		report_prop(c->r, key, v != NULL ? v : "");
		free(key);
	}
	free(k);
	free(v);
}

void
ncurep_session(struct ncurep *c, const uint8_t *p, size_t len)
{
	static const char *const exe[] = {
		NULL, "executable.path", "executable.workdir",
		"executable.arguments", "executable.environment"
	};
	struct pw_reader	 rd, sd;
	struct pw_field		 f, g;
	char			 buf[32], *v;
	int			 rc;

	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		switch (f.num) {
		case 1:
		case 2:
			if (f.wire != PW_VARINT)
				break;
			snprintf(buf, sizeof buf, "%llu",
			    (unsigned long long)f.u);
			report_prop(c->r, f.num == 1 ? "process.id" : "created",
			    buf);
			continue;
		case 3:
		case 4:
			if (f.wire != PW_LEN)
				break;
			ncurep_sysinfo(c, f.num == 3 ? "host" : "target",
			    f.data, f.len);
			continue;
		case 5:
			if (f.wire != PW_LEN)
				break;
			pw_init(&sd, f.data, f.len);
			while (pw_next(&sd, &g) > 0)
				if (g.num == 1 && g.wire == PW_LEN)
					ncurep_pair(c, "device", g.data,
					    g.len);
			continue;
		case 6:
			if (f.wire != PW_LEN)
				break;
			ncurep_device(c, f.data, f.len);
			continue;
		case 8:
			if (f.wire != PW_LEN)
				break;
			ncurep_pair(c, "version", f.data, f.len);
			continue;
		case 9:
			if (f.wire != PW_LEN)
				break;
			pw_init(&sd, f.data, f.len);
			while (pw_next(&sd, &g) > 0) {
				if (g.num < 1 || g.num > 4 ||
				    g.wire != PW_LEN)
					continue;
				v = xstrndup((const char *)g.data, g.len);
				report_prop(c->r, exe[g.num], v);
				free(v);
			}
			continue;
		case 11:
			if (f.wire != PW_LEN || !ncurep_text(&f))
				break;
			v = xstrndup((const char *)f.data, f.len);
			/* The profiler's own command line. */
			while (*v != '\0' && v[strlen(v) - 1] == ' ')
				v[strlen(v) - 1] = '\0';
			report_prop(c->r, "profiler.command", v);
			free(v);
			continue;
		case 7:		/* comments */
		case 10:	/* profiler settings */
			continue;
		}
		report_skipped(c->r, "SessionDetails", f.num);
	}
	if (rc < 0)
		ncurep_subfail(c, "session details", &rd);
}

void
ncurep_process(struct ncurep *c, const uint8_t *p, size_t len)
{
	struct pw_reader	rd;
	struct pw_field		f;

	memset(&c->proc, 0, sizeof c->proc);
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 1 && f.wire == PW_VARINT)
			c->proc.pid = (uint32_t)f.u;
		else if (f.num == 2 && f.wire == PW_LEN)
			c->proc.host = ncurep_sid(c, &f);
		else if (f.num == 3 && f.wire == PW_LEN)
			c->proc.name = ncurep_sid(c, &f);
	}
}
