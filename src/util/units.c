/*
 * units: human formatting of nanoseconds, bytes and counts.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/units.h"

static const char *units_binary[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };

char *
units_dur(int64_t ns, char *buf, size_t len)
{
	const char	*sign = ns < 0 ? "-" : "";
	uint64_t	 a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	if (a < 1000)
		snprintf(buf, len, "%s%llu ns", sign, (unsigned long long)a);
	else if (a < 1000000)
		snprintf(buf, len, "%s%.3f us", sign, (double)a / 1e3);
	else if (a < 1000000000)
		snprintf(buf, len, "%s%.3f ms", sign, (double)a / 1e6);
	else
		snprintf(buf, len, "%s%.3f s", sign, (double)a / 1e9);
	return buf;
}

/*
 * Scales v by step until it is below step or the units run out; returns
 * the index of the unit reached (-1 for none when first is 0).
 */
static int
units_scale(double *v, double step, int first, int last)
{
	int	i = first;

	while (*v >= step && i < last) {
		*v /= step;
		i++;
	}
	return i;
}

/* Three significant digits: "1.50", "64.0", "512". */
static void
units_sig3(char *buf, size_t len, double v, const char *unit)
{
	snprintf(buf, len, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" :
	    "%.0f %s", v, unit);
}

static char *
units_bytes_style(uint64_t b, char *buf, size_t len, int sig)
{
	double	v = (double)b;
	int	i;

	if (b < 1024) {
		snprintf(buf, len, "%llu B", (unsigned long long)b);
		return buf;
	}
	i = units_scale(&v, 1024, -1, 4);
	if (sig)
		units_sig3(buf, len, v, units_binary[i]);
	else
		snprintf(buf, len, "%.1f %s", v, units_binary[i]);
	return buf;
}

char *
units_bytes(uint64_t b, char *buf, size_t len)
{
	return units_bytes_style(b, buf, len, 0);
}

char *
units_bytes_sig(uint64_t b, char *buf, size_t len)
{
	return units_bytes_style(b, buf, len, 1);
}

char *
units_rate(double r, char *buf, size_t len)
{
	static const char	*u[] = { "B/s", "kB/s", "MB/s", "GB/s", "TB/s" };
	int			 i;

	i = units_scale(&r, 1000, 0, 4);
	units_sig3(buf, len, r, u[i]);
	return buf;
}

char *
units_flops(double r, char *buf, size_t len)
{
	static const char	*u[] = { "FLOP/s", "kFLOP/s", "MFLOP/s",
		"GFLOP/s", "TFLOP/s", "PFLOP/s" };
	int			 i;

	i = units_scale(&r, 1000, 0, 5);
	units_sig3(buf, len, r, u[i]);
	return buf;
}

char *
units_count(uint64_t n, char *buf, size_t len)
{
	char	tmp[32];
	size_t	l, i, o = 0;

	l = (size_t)snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)n);
	for (i = 0; i < l && o + 1 < len; i++) {
		if (i != 0 && (l - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o < len ? o : len - 1] = '\0';
	return buf;
}

int
units_parse_dur(const char *s, int64_t *out)
{
	char	*end;
	double	 v, mul = 1;

	/* strtod would read hexadecimal ("0x10"); durations are decimal. */
	if (strpbrk(s, "xX") != NULL)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno != 0 || v != v)
		return -1;
	if (*end == '\0' || strcmp(end, "ns") == 0)
		mul = 1;
	else if (strcmp(end, "us") == 0)
		mul = 1e3;
	else if (strcmp(end, "ms") == 0)
		mul = 1e6;
	else if (strcmp(end, "s") == 0)
		mul = 1e9;
	else if (strcmp(end, "min") == 0)
		mul = 60e9;
	else
		return -1;
	v *= mul;
	if (v > 9.2e18 || v < -9.2e18)
		return -1;
	if (mul == 1 && strchr(s, '.') == NULL && strchr(s, 'e') == NULL &&
	    strchr(s, 'E') == NULL) {
		errno = 0;
		*out = strtoll(s, NULL, 10);
		return errno == 0 ? 0 : -1;
	}
	*out = (int64_t)llround(v);
	return 0;
}

int
units_parse_time(const char *s, int64_t *out, int *absolute)
{
	char	buf[128];
	size_t	n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= sizeof buf)
		return -1;	/* no time is that long: refuse, never cut */
	memcpy(buf, s, n);
	buf[n] = '\0';
	*absolute = 0;
	s = buf;
	if (*s == '@') {
		*absolute = 1;
		s++;
	}
	return units_parse_dur(s, out);
}

/* The unit families units_metric() scales: the names a profiler writes
 * (case aside), each as a multiple of the family's base. */
static const struct {
	const char	*name;
	double		 mult;
	int		 family;
} units_known[] = {
	{ "ns", 1, 0 }, { "nsecond", 1, 0 }, { "nanosecond", 1, 0 },
	{ "us", 1e3, 0 }, { "usecond", 1e3, 0 }, { "microsecond", 1e3, 0 },
	{ "ms", 1e6, 0 }, { "msecond", 1e6, 0 }, { "millisecond", 1e6, 0 },
	{ "s", 1e9, 0 }, { "second", 1e9, 0 },
	{ "hz", 1, 1 }, { "khz", 1e3, 1 }, { "mhz", 1e6, 1 },
	{ "ghz", 1e9, 1 }, { "cycle/second", 1, 1 },
	{ "cycle/msecond", 1e3, 1 }, { "cycle/usecond", 1e6, 1 },
	{ "cycle/nsecond", 1e9, 1 },
	{ "byte", 1, 2 }, { "bytes", 1, 2 }, { "kbyte", 1e3, 2 },
	{ "mbyte", 1e6, 2 }, { "gbyte", 1e9, 2 }, { "tbyte", 1e12, 2 },
	{ "byte/second", 1, 3 }, { "bytes/second", 1, 3 }, { "byte/s", 1, 3 },
	{ "kbyte/s", 1e3, 3 }, { "mbyte/s", 1e6, 3 }, { "gbyte/s", 1e9, 3 },
	{ "kbyte/second", 1e3, 3 }, { "mbyte/second", 1e6, 3 },
	{ "gbyte/second", 1e9, 3 }, { "tbyte/second", 1e12, 3 },
};

/* Each family's units from its base up, a factor of 1000 apart. */
static const char *const units_ladder[4][5] = {
	{ "ns", "us", "ms", "s", NULL },
	{ "Hz", "kHz", "MHz", "GHz", "THz" },
	{ "B", "KB", "MB", "GB", "TB" },
	{ "B/s", "KB/s", "MB/s", "GB/s", "TB/s" },
};

int
units_metric(double v, const char *unit, char *val, size_t vlen,
    char *ubuf, size_t ulen)
{
	double	a;
	size_t	i;
	int	f, k, last;

	if (unit == NULL || isnan(v) || isinf(v))
		return 0;
	for (i = 0; i < sizeof units_known / sizeof units_known[0]; i++)
		if (strcasecmp(unit, units_known[i].name) == 0)
			break;
	if (i == sizeof units_known / sizeof units_known[0])
		return 0;
	f = units_known[i].family;
	for (last = 0; last < 4 && units_ladder[f][last + 1] != NULL; last++)
		;
	a = fabs(v) * units_known[i].mult;
	k = 0;
	while (a >= 1000 && k < last) {
		a /= 1000;
		k++;
	}
	if (v < 0)
		a = -a;
	if (k == 0 && a == floor(a))
		snprintf(val, vlen, "%.0f", a);
	else
		snprintf(val, vlen, "%.2f", a);
	snprintf(ubuf, ulen, "%s", units_ladder[f][k]);
	return 1;
}
