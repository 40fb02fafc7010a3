"""Runs Synapse in this process and ends it when its parent goes away.

Usage: watchdog.py <data dir> <synapse homeserver arguments...>

The parent (the test process) holds our stdin open. When it exits, even by a
crash or SIGKILL, the pipe closes, the reader thread sees end-of-file, removes
the server's data directory and ends the process at once, so no Synapse is
left running after a test run.
"""
import os
import runpy
import shutil
import sys
import threading

data_dir = sys.argv[1]


def watch_parent() -> None:
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except Exception:
        pass
    shutil.rmtree(data_dir, ignore_errors=True)
    os._exit(0)


threading.Thread(target=watch_parent, name="parent-watchdog", daemon=True).start()
sys.argv = ["synapse.app.homeserver"] + sys.argv[2:]
runpy.run_module("synapse.app.homeserver", run_name="__main__", alter_sys=True)
