#!/bin/sh
# analyses_cli: runs tests/cli/analyses_cli.py (diff, phases, window and
# findings against stats, comm, summary and plain SQL, on generated traces
# with planted problems and on the real before/after pair).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
python3 "$GPULENS_SRCDIR/tests/cli/analyses_cli.py"
