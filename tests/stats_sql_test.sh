#!/bin/sh
# stats_sql_test: runs tests/stats_sql_test.py (gpulens stats vs plain SQL on
# every nsys fixture).
. "${GPULENS_SRCDIR:-.}/tests/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
python3 "$GPULENS_SRCDIR/tests/stats_sql_test.py"
