#!/bin/sh
# schema_test: runs tests/cli/schema_test.py (every verb's --json output
# validates against `gpulens schema VERB`).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
python3 "$GPULENS_SRCDIR/tests/cli/schema_test.py"
