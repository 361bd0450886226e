/*
 * nvtxfam: NVTX name families, the one normaliser every verb and view
 * uses to aggregate ranges whose names differ only by a counter.
 *
 * The family of a name (or of a path "outer/inner/leaf", component by
 * component) is the name with
 *   - every "#<digits>" made "#*" (numbered steps: "ProfilerStep#12" and
 *     "ProfilerStep#13" are the family "ProfilerStep#*");
 *   - every ", seq = <digits>" and ", op_id = <digits>" removed (PyTorch's
 *     per-operator ranges: "aten::mm, seq = 47317, op_id = 998540" is the
 *     family "aten::mm");
 *   - every number standing as a word of its own made "*" (counters
 *     written into a name: "Step 10 to 20" is the family "Step * to *").
 * A name with none of these is its own family. Folding is idempotent.
 *
 * A range matches a name given on the command line (--nvtx, --range) when
 * its name is that name, or its family is: "ProfilerStep#*" selects every
 * step, "ProfilerStep#3" the third. "ProfilerStep#" (the spelling of
 * older versions) is taken as "ProfilerStep#*".
 */
#ifndef GPULENS_NVTXFAM_H
#define GPULENS_NVTXFAM_H

#include <stddef.h>

/*
 * Writes the family of name into out (always NUL-terminated, truncated to
 * len). Returns the length written.
 */
size_t	 nvtx_family(const char *name, char *out, size_t len);
/* Whether name has a family other than itself (folding changes it). */
int	 nvtx_family_folds(const char *name);
/* Whether a range named name is selected by spec (see above). */
int	 nvtx_family_match(const char *name, const char *spec);

#endif
