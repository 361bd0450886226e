#!/bin/sh
# amd_cli: runs tests/cli/amd_cli.py (the AMD formats through the command line:
# counts and kernel time per name against sqlite3/json, every verb, the TUI).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
python3 "$GPULENS_SRCDIR/tests/cli/amd_cli.py"
