/*
 * apicall: the classes of API calls by name (apicall.h).
 */
#include "config.h"

#include <string.h>

#include "analysis/apicall.h"

static int
apicall_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

int
apicall_class(const char *s)
{
	if (strstr(s, "Synchronize") != NULL)
		return APICALL_SYNC;
	if (apicall_prefix(s, "cudaMemcpy") || apicall_prefix(s, "cuMemcpy") ||
	    apicall_prefix(s, "hipMemcpy"))
		return strstr(s, "Async") != NULL ? APICALL_MEMCPY_ASYNC :
		    APICALL_MEMCPY_SYNC;
	if (apicall_prefix(s, "cudaMemset") || apicall_prefix(s, "cuMemset") ||
	    apicall_prefix(s, "hipMemset"))
		return strstr(s, "Async") != NULL ? APICALL_MEMSET_ASYNC :
		    APICALL_MEMSET_SYNC;
	return APICALL_OTHER;
}

int
apicall_blocks(int k)
{
	return k == APICALL_SYNC || k == APICALL_MEMCPY_SYNC;
}
