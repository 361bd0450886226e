/*
 * fmt: formatting of times for the TUI. See fmt.h.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/fmt.h"

static const struct {
	int64_t		 div;
	const char	*suffix;
} fmt_units[] = {
	{ 1, "ns" }, { 1000, "us" }, { 1000000, "ms" }, { 1000000000, "s" },
};

char *
fmt_time_res(char *buf, size_t len, int64_t ns, int64_t res)
{
	uint64_t	mag;
	int64_t		div, p;
	int		u, dec;

	mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	if (res < 1)
		res = 1;
	if (mag < (uint64_t)res)
		mag = (uint64_t)res;
	for (u = 3; u > 0; u--)
		if (mag >= (uint64_t)fmt_units[u].div)
			break;
	div = fmt_units[u].div;
	for (dec = 0, p = div; p > res && dec < 9; dec++)
		p /= 10;
	if (u == 0)
		snprintf(buf, len, "%lldns", (long long)ns);
	else
		snprintf(buf, len, "%.*f%s", dec, (double)ns / (double)div,
		    fmt_units[u].suffix);
	return buf;
}

char *
fmt_time(char *buf, size_t len, int64_t ns)
{
	uint64_t	mag;
	int64_t		res = 1;

	mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	while (mag >= 10000) {
		mag /= 10;
		res *= 10;
	}
	return fmt_time_res(buf, len, ns, res);
}

char *
fmt_when(char *buf, size_t len, int64_t t, int64_t origin, int abs,
    int64_t res)
{
	char	tmp[48];

	fmt_time_res(tmp, sizeof tmp, abs ? t : t - origin, res);
	snprintf(buf, len, "%s%s", abs ? "@" : (t - origin < 0 ? "" : "+"),
	    tmp);
	return buf;
}
