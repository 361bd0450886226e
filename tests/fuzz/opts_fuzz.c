/*
 * opts_fuzz: the command-line value parsers on hostile strings: the shared
 * verb options (opts_parse over every option group), durations and times
 * (units_parse_dur, units_parse_time: the verbs' and the TUI's), sizes
 * (xmalloc_parse_size, used by --max-memory and GPULENS_MAX_MEMORY) and
 * counts (cmd_parse_count).
 *
 * Input: two bytes of option-group mask, then the arguments separated by
 * NUL bytes. Checks: a parse that succeeds leaves every field in its
 * documented range; a duration written as plain decimal digits is taken
 * exactly (not through a double); a parsed value agrees with strtod on the
 * same text within rounding; a time is a duration, blanks around it and
 * a leading '@' aside.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "fuzz.h"
#include "headless/opts.h"
#include "util/units.h"
#include "util/xmalloc.h"

#define FUZZ_MAXARGS	64

FUZZ_NO_INIT

/* Whether s is [+-]?[0-9]+ (what units_parse_dur takes exactly). */
static int
plain_decimal(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	return *s == '\0';
}

static void
check_dur(const char *s)
{
	int64_t		 v = 0, t = 0, w = 0;
	long long	 ll;
	double		 d;
	char		*end, *c, *p;
	size_t		 n;
	int		 ok, abs_;

	ok = units_parse_dur(s, &v) == 0;
	if (ok && plain_decimal(s)) {
		errno = 0;
		ll = strtoll(s, NULL, 10);
		FUZZ_CHECK(errno == 0 && ll == v);
	}
	/* Hexadecimal ("0x10") is refused, so strtod reads the same. */
	if (ok) {
		/* Without a unit, the number strtod reads is the value. */
		errno = 0;
		d = strtod(s, &end);
		if (*end == '\0' || strcmp(end, "ns") == 0)
			FUZZ_CHECK(fabs(d - (double)v) <= 1 + fabs(d) * 1e-15);
	}

	/* A time: blanks around it and a leading '@' aside, a duration. */
	c = xstrdup(s);
	for (p = c; *p == ' ' || *p == '\t'; p++)
		;
	n = strlen(p);
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		p[--n] = '\0';
	/* Past 127 bytes no time is valid: refused, never cut short. */
	ok = n < 128 && units_parse_dur(*p == '@' ? p + 1 : p, &w) == 0;
	if (units_parse_time(s, &t, &abs_) == 0)
		FUZZ_CHECK(ok && t == w && abs_ == (*p == '@'));
	else
		FUZZ_CHECK(!ok);
	free(c);
}

static void
check_size(const char *s)
{
	unsigned long long	v;

	v = xmalloc_parse_size(s);
	FUZZ_CHECK(v <= 1000000000000000000ULL);
}

static void
check_count(const char *s)
{
	long long	v;

	v = cmd_parse_count(s);
	FUZZ_CHECK(v >= -1);
}

static void
check_opts(unsigned mask, int argc, char **argv)
{
	struct opts	 o;
	char		*cause = NULL;
	int		 i, j;

	if (opts_parse(&o, mask, argc, argv, &cause) != 0) {
		FUZZ_CHECK(cause != NULL && *cause != '\0');
		free(cause);
		opts_free(&o);
		return;
	}
	FUZZ_CHECK(cause == NULL);
	FUZZ_CHECK(o.limit >= 0 && o.offset >= 0);
	FUZZ_CHECK(o.min_dur >= 0 && o.bucket_ns >= 0);
	FUZZ_CHECK(o.buckets >= 0 && o.buckets <= 100000);
	FUZZ_CHECK(o.iter >= -1 && o.device >= -1 && o.stream >= -1 &&
	    o.pid >= -1 && o.tid >= -1);
	FUZZ_CHECK(o.format == OUT_TABLE || o.format == OUT_JSON ||
	    o.format == OUT_CSV);
	FUZZ_CHECK(o.nargs >= 0 && o.nargs < argc);
	for (i = 0; i < o.nargs; i++) {
		for (j = 1; j < argc; j++)
			if (o.args[i] == argv[j])
				break;
		FUZZ_CHECK(j < argc);
	}
	FUZZ_CHECK(strlen(opts_help(mask)) < 4096);
	opts_free(&o);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*buf, *argv[FUZZ_MAXARGS + 2], *p, *end;
	unsigned	 mask;
	int		 argc = 0, i;

	if (size < 2)
		return 0;
	mask = (unsigned)data[0] | (unsigned)data[1] << 8;
	buf = xmalloc(size - 2 + 1);
	memcpy(buf, data + 2, size - 2);
	buf[size - 2] = '\0';
	end = buf + (size - 2);

	argv[argc++] = (char *)"verb";
	for (p = buf; p <= end && argc <= FUZZ_MAXARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;

	for (i = 1; i < argc; i++) {
		check_dur(argv[i]);
		check_size(argv[i]);
		check_count(argv[i]);
	}
	check_opts(mask, argc, argv);
	free(buf);
	return 0;
}
