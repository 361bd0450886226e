/*
 * srcdev: devices found or declared by source id. See srcdev.h.
 */
#include "config.h"

#include <string.h>

#include "model/builder.h"
#include "sources/srcdev.h"

uint32_t
srcdev_get(struct builder *b, uint32_t source_id, const char *vendor,
    const char *name)
{
	struct device	d;
	uint32_t	i;

	if ((i = builder_find_device(b, source_id)) != NONE32)
		return i;
	memset(&d, 0, sizeof d);
	d.source_id = source_id;
	d.process = NONE32;
	if (vendor != NULL)
		d.vendor = builder_intern(b, vendor);
	if (name != NULL)
		d.name = builder_intern(b, name);
	return builder_device(b, &d);
}
