#!/bin/sh
# stats_sql_test: runs tests/cli/stats_sql_test.py (gpulens stats vs plain SQL on
# every nsys fixture).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
python3 "$GPULENS_SRCDIR/tests/cli/stats_sql_test.py"
