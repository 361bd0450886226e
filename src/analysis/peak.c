/*
 * peak: GPU peak throughput table (peak.h). Dense TFLOP/s, in the order
 * unknown (always 0), fp64, fp32, tf32, fp16, bf16, fp8.
 */
#include "config.h"

#include <string.h>

#include "analysis/peak.h"

const struct peak_row peak_table[] = {
	{ "H100 PCIe", -1, -1, "H100 PCIe",
	    { 0, 51.2, 51.2, 378, 756, 756, 1513 } },
	{ "H100 NVL", -1, -1, "H100 NVL",
	    { 0, 60, 60, 417.5, 835, 835, 1670 } },
	{ "H100", 9, 0, "H100 SXM",
	    { 0, 67, 67, 494.7, 989.4, 989.4, 1978.9 } },
	{ "GH200", -1, -1, "GH200",
	    { 0, 67, 67, 494.7, 989.4, 989.4, 1978.9 } },
	{ "H200", -1, -1, "H200 SXM",
	    { 0, 67, 67, 494.7, 989.4, 989.4, 1978.9 } },
	{ "B200", 10, 0, "B200",
	    { 0, 37, 75, 1125, 2250, 2250, 4500 } },
	{ "A100", 8, 0, "A100",
	    { 0, 19.5, 19.5, 156, 312, 312, 0 } },
	{ "L40S", -1, -1, "L40S",
	    { 0, 0, 91.6, 183, 362, 362, 733 } },
	{ "V100", -1, -1, "V100",
	    { 0, 7.8, 15.7, 0, 125, 0, 0 } },
	{ "MI300X", -1, -1, "MI300X",
	    { 0, 163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9 } },
	{ "MI250X", -1, -1, "MI250X",
	    { 0, 95.7, 47.9, 0, 383, 383, 0 } },
	{ "MI250", -1, -1, "MI250",
	    { 0, 90.5, 45.3, 0, 362.1, 362.1, 0 } },
	{ "MI210", -1, -1, "MI210",
	    { 0, 45.3, 22.6, 0, 181, 181, 0 } },
	{ NULL, -1, -1, NULL, { 0 } }
};

static const char *peak_dtype_names[PD_N] = {
	"unknown", "fp64", "fp32", "tf32", "fp16", "bf16", "fp8"
};

const char *
peak_dtype_name(int d)
{
	return d >= 0 && d < PD_N ? peak_dtype_names[d] : "unknown";
}

int
peak_dtype_of(const char *s)
{
	if (strncmp(s, "c10::", 5) == 0)
		s += 5;
	if (strcmp(s, "float") == 0 || strcmp(s, "Float") == 0)
		return PD_FP32;
	if (strcmp(s, "double") == 0 || strcmp(s, "Double") == 0)
		return PD_FP64;
	if (strcmp(s, "Half") == 0)
		return PD_FP16;
	if (strcmp(s, "BFloat16") == 0)
		return PD_BF16;
	if (strncmp(s, "Float8_", 7) == 0)
		return PD_FP8;
	return PD_UNKNOWN;
}

const struct peak_row *
peak_lookup(const struct model *m, uint32_t device)
{
	const struct device	*d;
	const char		*name;
	size_t			 i;

	if (device == NONE32 || device >= m->ndevices)
		return NULL;
	d = &m->devices[device];
	name = model_str(m, d->name);
	for (i = 0; peak_table[i].match != NULL; i++)
		if (strstr(name, peak_table[i].match) != NULL)
			return &peak_table[i];
	for (i = 0; peak_table[i].match != NULL; i++)
		if (peak_table[i].cc_major >= 0 &&
		    peak_table[i].cc_major == d->cc_major &&
		    peak_table[i].cc_minor == d->cc_minor)
			return &peak_table[i];
	return NULL;
}
