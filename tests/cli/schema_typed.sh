#!/bin/sh
# schema_typed: every `gpulens schema VERB` types data.auxiliary (no object
# that does not say what it holds) and describes every field
# (tests/cli/schema_test.py --typed).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
python3 "$GPULENS_SRCDIR/tests/cli/schema_test.py" --typed || fail "a schema leaves auxiliary untyped"
pass
