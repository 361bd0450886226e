#!/bin/sh
# verbs_analysis_cli: runs tests/cli/verbs_analysis_cli.py (gaps, timeline and
# overlap against plain SQL on a generated trace and every nsys fixture).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
python3 "$GPULENS_SRCDIR/tests/cli/verbs_analysis_cli.py"
