"""
clicheck: what the python checks written inside the CLI tests share.

testlib.sh puts this folder on PYTHONPATH, so a check script a test writes
to $TMPD imports it as it is: `from clicheck import fail, gpulens_json`.
"""
import gzip
import json
import sqlite3
import subprocess
import sys


def gpulens_json(g, cached, *args):
    """Runs the gpulens binary g with args (after --no-cache unless cached),
    which must exit 0, and returns its standard output parsed as JSON."""
    nc = [] if cached else ["--no-cache"]
    out = subprocess.run([g] + nc + list(args), check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out)


def db_and_doc():
    """The inputs of a check run as `python3 - DB DOC`: the SQLite database
    DB as a sqlite3 connection, and the JSON document in the file DOC."""
    return sqlite3.connect(sys.argv[1]), json.load(open(sys.argv[2]))


def events_and_doc():
    """The inputs of a check run as `python3 - TRACE DOC`: the traceEvents
    of the gzipped Kineto trace TRACE, and the JSON document in the file
    DOC."""
    return (json.load(gzip.open(sys.argv[1]))["traceEvents"],
            json.load(open(sys.argv[2])))


def fail(*what):
    """Prints FAIL: and what, and exits 1."""
    print("FAIL:", *what)
    sys.exit(1)



def blocks_host(name):
    """Whether the API call name blocks the host until the GPU is done: a
    synchronize, or a copy that is not Async."""
    if "Synchronize" in name:
        return True
    return name.startswith(("cudaMemcpy", "cuMemcpy", "hipMemcpy")) and \
        "Async" not in name
