"""``python -m toolgen``: the command line (toolgen.cli), as the ``toolgen`` script runs it."""

from toolgen.cli import run

if __name__ == "__main__":
    run()
