#!/bin/sh
# empty_cli: runs tests/cli/empty_cli.py (every verb answers an export with no
# events with exit 0, empty rows and a warning).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
python3 "$GPULENS_SRCDIR/tests/cli/empty_cli.py"
