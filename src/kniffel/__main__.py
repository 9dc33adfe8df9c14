"""``python -m kniffel`` runs the command line."""

from kniffel.cli import run

run()
