#!/bin/sh
# consistency_cli: runs tests/cli/consistency.py, the invariants between
# verbs (busy time, idle share, kernel totals, iterations, NVTX families,
# ncu commands, exposed communication, per-rank counts, unique row keys)
# over the project's fixtures and, when present, GPULENS_FIXTURES.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
python3 "$GPULENS_SRCDIR/tests/cli/consistency.py"
