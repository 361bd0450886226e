/*
 * units: human formatting of nanoseconds, bytes and counts.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "units.h"

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

char *
units_bytes(uint64_t b, char *buf, size_t len)
{
	static const char	*u[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double			 v = (double)b;
	int			 i = -1;

	if (b < 1024) {
		snprintf(buf, len, "%llu B", (unsigned long long)b);
		return buf;
	}
	while (v >= 1024 && i < 4) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.1f %s", v, u[i]);
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
